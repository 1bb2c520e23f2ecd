"""Events every rule area shares: vitals, Conditions, gold and food, death.

Events carry the numbers already worked out (a change of -3 Energy, not "the Villagers
attacked"), so folding the log never re-runs a rule.
"""

from __future__ import annotations

from companion.core.rules import RuleError
from companion.core.tables import Decision
from companion.games.hexplore.events import Gained, GameLost
from companion.games.hexplore.state import (
    AllyState,
    Combat,
    HeroState,
    HexploreState,
    LastAction,
    OpponentState,
)


def hero(state: HexploreState, hid: str | None) -> HeroState:
    if hid is None or hid not in state.heroes:
        known = ", ".join(state.heroes)
        raise RuleError(f"there is no hero '{hid}' (heroes: {known})")
    return state.heroes[hid]


def hero_id(state: HexploreState, hid: str | None) -> str:
    """The hero a detail names, refused in words when there is no such hero."""
    hero(state, hid)
    return str(hid)


def in_play(h: HeroState) -> bool:
    """Still with the group and able to act: not dead, mindwiped or gone."""
    return not (h.dead or h.mindwiped or h.vanished)


def active_heroes(state: HexploreState) -> list[str]:
    return [hid for hid, h in state.heroes.items() if in_play(h)]


def whole(
    v: int,
    key: str,
    minimum: int | None = 0,
    maximum: int | None = None,
) -> int:
    """A whole-number detail (its kind checked at the edge), refused in words when it is
    out of range."""
    low = minimum is not None and v < minimum
    high = maximum is not None and v > maximum
    if low or high:
        if minimum is not None and maximum is not None:
            bounds = f" from {minimum} to {maximum}"
        elif minimum is not None:
            bounds = f", {minimum} or more"
        elif maximum is not None:
            bounds = f" of at most {maximum}"
        else:
            bounds = ""
        raise RuleError(f"{key} must be a whole number{bounds} (not {v!r})")
    return v


def faces(v: list[int], key: str) -> list[int]:
    """A list of compass directions 1-6 (a hex is 6)."""
    if any(x not in range(1, 7) for x in v):
        raise RuleError(f"{key} must list compass directions 1-6 (hex = 6), not {v!r}")
    return v


def in_combat(state: HexploreState) -> bool:
    """A combat is under way (a finished one stays on the mat until the next starts)."""
    return state.combat is not None and state.combat.phase != "over"


def current(state: HexploreState) -> Combat:
    """The combat on the mat (under way or just over); refused in words when there is none."""
    if state.combat is None:
        raise RuleError("there is no combat under way: start_combat first")
    return state.combat


def last_action(state: HexploreState) -> LastAction:
    """The opponent's action this round, once it has been rolled."""
    la = current(state).last_action
    if la is None:
        raise RuleError("the opponent has not acted yet this round")
    return la


def stacks(who: HeroState | OpponentState | AllyState, name: str) -> int:
    c = who.conditions.get(name)
    return c.stacks if c else 0


def gold_cap(h: HeroState) -> int:
    return 100 * h.food_rating if h.food_rating else 100


def food_cap(h: HeroState) -> int:
    return 5 * h.food_rating if h.food_rating else 5


"""Handlers for the shared events, mixed into the game class."""


def gain(d: Decision, hid: str, why: str, gold: int = 0, food: int = 0) -> None:
    """Give gold and food, kept under the carrying limits; a starving hero eats at once."""
    h = d.state.heroes[hid]
    gold = max(-h.gold, min(gold, gold_cap(h) - h.gold))
    if food < -h.food:
        raise RuleError(f"{h.name} carries {h.food} Food, not {-food}")
    starving = h.starving
    if food > 0 and starving and h.food + food >= h.food_rating:
        starving -= 1  # one meal of a full Food Rating ends one level
        food -= h.food_rating
    food = max(-h.food, min(food, food_cap(h) - h.food))
    if gold or food or starving != h.starving:
        d.emit(Gained(hero=hid, gold=gold, food=food, starving=starving, why=why))


def revivable(h: HeroState) -> bool:
    """Dead, but a Spirit Tether Ritual waits to bring them back."""
    return h.dead and h.spirit_tether and not (h.mindwiped or h.vanished)


def check_lost(d: Decision) -> None:
    """Lost when every hero in play is dead or mindwiped, unless a Spirit Tether Ritual
    still waits to Revive one (the One Hero game's start)."""
    s = d.state
    tethered = any(revivable(h) for h in s.heroes.values())
    if s.outcome is None and not active_heroes(s) and not tethered:
        d.emit(GameLost(why="every hero in play is dead or mindwiped"))
