"""The round around the heroes' turns: it starts with the Battlefield phase and ends by
passing the First Player token (rulebook "Round Overview")."""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.core.rules import Chance, RuleError
from companion.core.tables import Decision
from companion.games.kradia import battlefield, extras
from companion.games.kradia.args import EndRoundArgs, StartRoundArgs
from companion.games.kradia.effects import can_be_hit
from companion.games.kradia.events import PhaseChanged, RoundStarted, StartPlayerPassed
from companion.games.kradia.turns import begin_next_turn

if TYPE_CHECKING:
    from companion.content.pack import Content


def start_round(d: Decision, args: StartRoundArgs, chance: Chance, content: Content) -> None:
    s = d.state
    if s.phase != "battlefield":
        raise RuleError(f"the round is under way (now: {s.phase} phase)")
    d.emit(RoundStarted(round=s.round + 1))
    if s.round == 1:
        extras.at(d, content, "battle_start", chance)
    battlefield.select(d, args, chance, content)
    extras.at(d, content, "round_start", chance)
    if s.outcome:
        return
    d.emit(PhaseChanged(phase="heroes"))
    begin_next_turn(d, content)


def end_round(d: Decision, args: EndRoundArgs, chance: Chance, content: Content) -> None:
    """The First Player token passes clockwise to the next hero still able to act."""
    s = d.state
    if s.phase != "end":
        raise RuleError(f"the round ends after the boss's attack (now: {s.phase} phase)")
    i = s.order.index(s.start_player)
    clockwise = s.order[i + 1 :] + s.order[: i + 1]
    nxt = next((h for h in clockwise if can_be_hit(s, h)), s.start_player)
    battlefield.end_held(d)  # "When the round is over, the current Battlefield effect ends"
    d.emit(StartPlayerPassed(hero=nxt))
    d.emit(PhaseChanged(phase="battlefield"))
