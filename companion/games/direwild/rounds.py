"""A round's two ends: it starts (the Minion Track filled if empty, counters toward 0) and
it ends (every hero's turn finished, then Book 2's End Conditions)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.core.rules import Chance, RuleError
from companion.core.tables import Decision
from companion.games.direwild import chapters, heroes, phase
from companion.games.direwild import events as ev
from companion.games.direwild.args import EndRoundArgs, StartRoundArgs
from companion.games.direwild.state import DirewildState, wound_pile, wound_pile_estimate
from companion.games.direwild.units import ADVENTURE

if TYPE_CHECKING:
    from companion.content.pack import Content


def start_round(d: Decision, args: StartRoundArgs, chance: Chance, content: Content) -> None:
    s = d.state
    if s.prelude is not None:
        p = s.prelude
        raise RuleError(
            f"finish the Charm rounds first (round {p.round} of {p.rounds}: "
            "charm_roll for each hero)"
        )
    if s.phase not in ("setup", "round_over"):
        raise RuleError("this round is still going: end it first (end_round)")
    if not s.enemies:
        chapters.draw_minions(d, chance, content)
    d.emit(ev.RoundStarted(round=s.round + 1))
    if wound_pile(d.state) is None:  # Book 1: "25 Wound cards", 6 of them the Fatal Wounds
        d.emit(ev.WoundPileCounted(count=wound_pile_estimate(d.state)))
    phase.move_counters(d)


def end_round(d: Decision, args: EndRoundArgs, chance: Chance, content: Content) -> None:
    s = d.state
    if s.phase == "game":
        raise RuleError("reveal the Enemy AI card before ending the round")
    if s.phase not in ADVENTURE:
        raise RuleError("no round is being played: start one first (start_round)")
    for hero in s.turn_order or s.players:  # whoever has not ended their turn, in order
        if not d.state.heroes[hero].done:
            heroes.finish(d, hero, chance, content)
    d.emit(ev.RoundEnded(outcome=end_condition(d.state)))


def end_condition(s: DirewildState) -> str | None:
    """Book 2's End Conditions, checked once every hero has finished the round."""
    if s.karn.defeated:
        return "won"
    if s.chapter < 3 and s.enemies and all(e.defeated for e in s.enemies.values()):
        return "chapter_won"
    if s.fatal_wounds == 0:
        return "lost"
    return None
