"""Which of HEXplore's events are news, and how the result card's headline says them.

Why: after a combat round the table wants "<the opponent> is vanquished" and "<the hero>
loses 3 Health" at a glance, not on line 9 among Conditions and Vitals returning to 0.
The events hold ids and numbers; the words are here, beside each event type
(core/headline.py ranks them: a win or loss first, then damage, moves).  An opponent is
named by the combat it is in (`step_names`), not "the opponent".
"""

from __future__ import annotations

from collections.abc import Mapping

from companion.core.headline import Headline
from companion.core.rules import Request
from companion.games.hexplore import events as ev
from companion.games.hexplore.state import OPPONENT, HexploreState, foes

EVENTS = ev.EVENTS

# how a combat ends, for the heroes (combat.end_combat's outcomes)
ENDINGS = {
    "vanquished": ("win", "is vanquished"),
    "influenced": ("win", "is Influenced: the combat is over"),
    "fled": ("loss", "is left behind: the heroes flee"),
    "heroes_fell": ("loss", "defeats the heroes: every hero in the fight fell"),
}


def _vitals(e: ev.VitalsChanged) -> Headline | None:
    if e.health < 0:
        extra = f" and {-e.energy} Energy" if e.energy < 0 else ""
        return Headline("damage", e.who, f"loses {-e.health} Health{extra}", -e.health)
    if e.energy < 0:
        return Headline("damage", e.who, f"loses {-e.energy} Energy", -e.energy)
    if e.health > 0:
        return Headline("heal", e.who, f"gains {e.health} Health", e.health)
    return None


def _ended(e: ev.CombatEnded) -> Headline:
    kind, said = ENDINGS.get(e.outcome, ("step", f"the combat ends: {ev.words(e.outcome)}"))
    return Headline(kind, e.opponent, said)


def _navigated(e: ev.GroupNavigated) -> Headline:
    return Headline(
        "move",
        "The group",
        f"Navigates: {e.successes} success{'es' if e.successes != 1 else ''} ({e.needed} needed)",
        e.successes,
    )


EVENTS.tell(ev.VitalsChanged, _vitals)
EVENTS.tell(ev.CombatEnded, _ended)
EVENTS.tell(
    ev.OpponentBeaten,
    lambda e: Headline("win", e.name or e.who, f"is {ev.words(e.outcome)}"),
)
EVENTS.tell(ev.HeroDied, lambda e: Headline("loss", e.hero, "dies"))
EVENTS.tell(ev.GameLost, lambda e: Headline("loss", "The heroes", f"lose: {e.why}"))
EVENTS.tell(ev.GameWon, lambda e: Headline("win", "The heroes", f"win: {e.why}"))
EVENTS.tell(ev.GroupNavigated, _navigated)
EVENTS.tell(
    ev.GroupRoamed,
    lambda e: Headline("move", "The group", f"Roams {e.distance} hexes", e.distance),
)
EVENTS.tell(
    ev.GroupWandered,
    lambda e: Headline(
        "move", "The group", "stays put" if e.stayed else f"Wanders toward {e.direction}"
    ),
)
EVENTS.tell(
    ev.CombatStarted,
    lambda e: Headline(
        "draw",
        e.opponent.name,
        f"faces the group: Health {e.opponent.health}, Energy {e.opponent.energy}",
    ),
)
EVENTS.tell(
    ev.CircumstanceSettled,
    lambda e: Headline("draw", "The Circumstance", f"is {e.settled}"),
)


def acted(e: ev.OpponentActed, names: Mapping[str, str]) -> Headline:
    """An opponent's action: its name and whom it strikes for how much (the damage lands
    when the round resolves)."""
    who = names.get(e.foe or OPPONENT, e.foe or "The opponent")
    hit = f" ({e.health} Health)" if e.health else ""
    at = ", ".join(e.targets) or "no one"
    return Headline("damage" if e.health else "roll", who, f"{e.name} on {at}{hit}", e.health)


def step_names(state: HexploreState) -> dict[str, str]:
    """The opponents of the combat on the mat by their names: the step just taken speaks
    of them (the Log, holding every combat, keeps "the opponent")."""
    if state.combat is None:
        return {}
    named = {key: o.name for key, o in foes(state.combat) if o.name}
    return {**{o.id: o.name for _key, o in foes(state.combat) if o.name}, **named}


def answer_words(request: Request, values: object, names: Mapping[str, str]) -> str | None:
    """A target roll says it is one (each candidate rolls the skill d10; the highest are
    the targets), not a skill roll."""
    if request.kind != "dice" or request.role != "target":
        return None
    shown = ", ".join(str(v) for v in values) if isinstance(values, list) else str(values)
    return f"{request.who_name}: target roll {shown} ({request.why})"


def _skills(e: ev.SkillsRolled) -> Headline:
    won = sum(1 for result in e.results.values() if result == "success")
    return Headline("roll", e.hero, f"succeeds at {won} of {len(e.results)} skill rolls", won)


EVENTS.tell(ev.SkillsRolled, _skills)
