"""The one rule area: a runner rolls the die and runs that many squares."""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.core.rules import Chance, RuleError
from companion.core.tables import Decision
from tests.fourth_game.args import RunArgs
from tests.fourth_game.events import RaceWon, RunnerMoved

if TYPE_CHECKING:
    from companion.content.pack import Content


def run(d: Decision, args: RunArgs, chance: Chance, content: Content) -> None:
    s = d.state
    runner = args.runner
    if runner is None or runner != s.runners[s.turn]:
        raise RuleError(f"it is {s.runners[s.turn]}'s turn to roll")
    roll = chance.roll("d6", for_=runner, why="to run", role="run")[0]
    to = min(s.square[runner] + roll, s.length)
    d.emit(RunnerMoved(runner=runner, roll=roll, to=to))
    if to == s.length:
        d.emit(RaceWon(runner=runner))
