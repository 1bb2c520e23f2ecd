"""Events every rule area shares: vitals, Conditions, gold and food, death.

Events carry the numbers already worked out (a change of -3 Energy, not "the Villagers
attacked"), so folding the log never re-runs a rule.
"""

from __future__ import annotations

from typing import Any

from companion.core.rules import Decision, RuleError
from companion.games.hexplore.state import Condition, HeroState, HexploreState, OpponentState

OPPONENT = "opponent"


def hero(state: HexploreState, hid: Any) -> HeroState:
    if not isinstance(hid, str) or hid not in state.heroes:
        known = ", ".join(state.heroes)
        raise RuleError(f"there is no hero '{hid}' (heroes: {known})")
    return state.heroes[hid]


def in_play(h: HeroState) -> bool:
    """Still with the group and able to act: not dead, mindwiped or gone."""
    return not (h.dead or h.mindwiped or h.vanished)


def active_heroes(state: HexploreState) -> list[str]:
    return [hid for hid, h in state.heroes.items() if in_play(h)]


def whole(
    args: dict[str, Any],
    key: str,
    default: int = 0,
    minimum: int | None = 0,
    maximum: int | None = None,
) -> int:
    """A whole-number argument, refused in words when it is anything else."""
    v = args.get(key, default)
    low = isinstance(v, int) and minimum is not None and v < minimum
    high = isinstance(v, int) and maximum is not None and v > maximum
    if isinstance(v, bool) or not isinstance(v, int) or low or high:
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


def faces(args: dict[str, Any], key: str) -> list[int]:
    """A list of compass directions 1-6 (a hex is 6)."""
    v = args.get(key) or []
    if not isinstance(v, list) or any(isinstance(x, bool) or x not in range(1, 7) for x in v):
        raise RuleError(f"{key} must list compass directions 1-6 (hex = 6), not {v!r}")
    return v


def word(args: dict[str, Any], key: str, default: str = "") -> str:
    v = args.get(key, default)
    if not isinstance(v, str):
        raise RuleError(f"{key} must be a word, not {v!r}")
    return v


def in_combat(state: HexploreState) -> bool:
    """A combat is under way (a finished one stays on the mat until the next starts)."""
    return state.combat is not None and state.combat.phase != "over"


def target_of(state: HexploreState, who: str) -> HeroState | OpponentState:
    if who == OPPONENT:
        if state.combat is None:
            raise KeyError("no opponent outside combat")
        return state.combat.opponent
    return state.heroes[who]


def stacks(who: HeroState | OpponentState, name: str) -> int:
    c = who.conditions.get(name)
    return c.stacks if c else 0


def gold_cap(h: HeroState) -> int:
    return 100 * h.food_rating if h.food_rating else 100


def food_cap(h: HeroState) -> int:
    return 5 * h.food_rating if h.food_rating else 5


class CommonRules:
    """Handlers for the shared events, mixed into the game class."""

    def on_VitalsChanged(self, s: HexploreState, e: dict[str, Any]) -> None:
        who = target_of(s, e["who"])
        for vital in ("health", "energy", "soul_shield", "influence"):
            if vital in e:
                setattr(who, vital, getattr(who, vital) + e[vital])

    def text_VitalsChanged(self, e: dict[str, Any]) -> str:
        parts = [
            f"{v.replace('_', ' ')} {e[v]:+d}"
            for v in ("health", "energy", "soul_shield", "influence")
            if v in e
        ]
        why = f" ({e['why']})" if e.get("why") else ""
        return f"{e['who']}: {', '.join(parts)}{why}"

    def on_ConditionGained(self, s: HexploreState, e: dict[str, Any]) -> None:
        who = target_of(s, e["who"])
        fields = {k: e[k] for k in ("stacks", "rounds", "value", "damage", "to") if k in e}
        who.conditions[e["condition"]] = Condition(**fields)

    def text_ConditionGained(self, e: dict[str, Any]) -> str:
        n = f" x{e['stacks']}" if e.get("stacks", 1) > 1 else ""
        return f"{e['who']} is {e['condition'].replace('_', ' ')}{n}"

    def on_ConditionLost(self, s: HexploreState, e: dict[str, Any]) -> None:
        target_of(s, e["who"]).conditions.pop(e["condition"], None)

    def text_ConditionLost(self, e: dict[str, Any]) -> str:
        return f"{e['who']} is no longer {e['condition'].replace('_', ' ')}"

    def on_ConditionChanged(self, s: HexploreState, e: dict[str, Any]) -> None:
        c = target_of(s, e["who"]).conditions[e["condition"]]
        for k, v in e["fields"].items():
            setattr(c, k, v)

    def on_HeroDied(self, s: HexploreState, e: dict[str, Any]) -> None:
        h = s.heroes[e["hero"]]
        h.dead = True
        h.conditions = {}

    def text_HeroDied(self, e: dict[str, Any]) -> str:
        return f"{e['hero']} dies ({e['why']})"

    def on_Gained(self, s: HexploreState, e: dict[str, Any]) -> None:
        h = s.heroes[e["hero"]]
        h.gold += e.get("gold", 0)
        h.food += e.get("food", 0)
        h.starving = e.get("starving", h.starving)

    def text_Gained(self, e: dict[str, Any]) -> str:
        parts = [f"{e[k]:+d} {k}" for k in ("gold", "food") if e.get(k)]
        return f"{e['hero']}: {', '.join(parts) or 'nothing'} ({e.get('why', '')})"

    def on_GameLost(self, s: HexploreState, e: dict[str, Any]) -> None:
        s.outcome = "lost"

    def on_GameWon(self, s: HexploreState, e: dict[str, Any]) -> None:
        s.outcome = "won"


def gain(d: Decision, hid: str, why: str, gold: int = 0, food: int = 0) -> None:
    """Give gold and food, kept under the carrying limits; a starving hero eats at once."""
    h = d.state.heroes[hid]
    gold = max(-h.gold, min(gold, gold_cap(h) - h.gold))
    if food < -h.food:
        raise RuleError(f"{hid} carries {h.food} Food, not {-food}")
    starving = h.starving
    if food > 0 and starving and h.food + food >= h.food_rating:
        starving -= 1  # one meal of a full Food Rating ends one level
        food -= h.food_rating
    food = max(-h.food, min(food, food_cap(h) - h.food))
    if gold or food or starving != h.starving:
        d.emit("Gained", hero=hid, gold=gold, food=food, starving=starving, why=why)


def check_lost(d: Decision) -> None:
    s = d.state
    if s.outcome is None and not active_heroes(s):
        d.emit("GameLost", why="every hero in play is dead or mindwiped")
