"""The Circumstance phase: the roll (or the Fey Realm's choice), then the card played or
discarded; a card with an Encounter starts its combat."""

from __future__ import annotations

from companion.core.rules import Chance, RuleError
from companion.core.tables import Decision
from companion.games.hexplore.args import RollCircumstance, SettleCircumstance, StartCombat
from companion.games.hexplore.combat import start_combat
from companion.games.hexplore.common import active_heroes, in_combat
from companion.games.hexplore.content import HexContent
from companion.games.hexplore.events import CircumstanceRolled, CircumstanceSettled
from companion.games.hexplore.keywords import TELEPORTED, moved_normally, skipped_after_flight
from companion.games.hexplore.state import GROUP_NAME, HexploreState
from companion.games.hexplore.tables import NO_CIRCUMSTANCE


def _whole_slot(value: int) -> int:
    if value not in range(1, 7):
        raise RuleError("choose an open Circumstance slot 1-5, or 6 for a blind draw")
    return int(value)


def roll_circumstance(
    d: Decision, args: RollCircumstance, chance: Chance, content: HexContent
) -> None:
    s: HexploreState = d.state
    if in_combat(s):
        raise RuleError("no Circumstance is rolled during combat")
    skipped_after_flight(s)
    if not active_heroes(s):
        raise RuleError("no hero is in play to face a Circumstance")
    where = args.location
    if where in NO_CIRCUMSTANCE:
        raise RuleError(
            f"no Circumstance is rolled on a {where.replace('_', ' ')}: skip to the Event phase"
        )
    if s.circumstance is not None and s.circumstance.roll:
        raise RuleError("the Circumstance for this game turn is already rolled")
    cautious = args.cautious
    if cautious and moved_normally(s):
        raise RuleError(TELEPORTED)
    slots = args.slots or []
    if args.fey_realm:
        # In the Fey Realm the group chooses an open slot or draws blindly: no roll.
        roll = _whole_slot(args.choose)
    else:
        roll = chance.roll(
            "hex_d6",
            for_="group",
            why="Circumstance: which slot",
            role="circumstance",
            who=GROUP_NAME,
        )[0]
    if roll == 6:
        card = chance.draw(
            "circumstances",
            role="circumstance",
            for_="group",
            who=GROUP_NAME,
            why="blind Circumstance draw",
            options=content.circumstance_ids(),
        )
        slot = 0
    else:
        slot = roll
        card = slots[roll - 1] if len(slots) >= roll else ""
    info = content.circumstance(card)
    unavoidable = bool(info and info.unavoidable)
    d.emit(
        CircumstanceRolled(
            roll=roll,
            slot=slot,
            card=card,
            unavoidable=unavoidable,
            may_discard=cautious and not unavoidable,
        )
    )


def settle_circumstance(
    d: Decision, args: SettleCircumstance, chance: Chance, content: HexContent
) -> None:
    c = d.state.circumstance
    if in_combat(d.state):
        raise RuleError("finish the combat before playing the Circumstance")
    skipped_after_flight(d.state)
    if not active_heroes(d.state):
        raise RuleError("no hero is in play to face a Circumstance")
    if c is None or c.settled:
        raise RuleError("no Circumstance is waiting to be played")
    discard = args.discard
    if discard and c.unavoidable:
        raise RuleError("this Circumstance is Unavoidable: it must be played")
    if discard and not c.may_discard:
        raise RuleError("only a group that Moved Cautiously may discard the Circumstance")
    d.emit(CircumstanceSettled(settled="discarded" if discard else "played"))
    card = content.circumstance(c.card)
    if not discard and card is not None and card.encounter:
        start_combat(d, StartCombat(opponent=card.encounter), chance, content)


# -- events ------------------------------------------------------------------------
