"""What every part of a combat shares: the opponent card, who is fighting, potency."""

from __future__ import annotations

from dataclasses import dataclass

from companion.core.rules import RuleError
from companion.games.hexplore.common import current, in_play
from companion.games.hexplore.content import HexContent
from companion.games.hexplore.dice import SUCCEEDED
from companion.games.hexplore.schema import Action, Opponent
from companion.games.hexplore.state import Combat, HexploreState
from companion.games.hexplore.tables import VITALS, half

ACTIONS = ("attack", "defend", "mastery", "flee")
NUMBERS = (
    "health",
    "energy",
    "piercing",
    "defend",
    "block",
    "heal",
    "raise_",
    "regen",
    "fail_health",
    "fail_energy",
)


@dataclass
class Potency:
    """An action's numbers this round: halved when it defaulted or its user is Confused."""

    health: int = 0
    energy: int = 0
    piercing: int = 0
    defend: int = 0
    block: int = 0
    heal: int = 0
    raise_: int = 0
    regen: int = 0
    fail_health: int = 0
    fail_energy: int = 0

    @classmethod
    def of(cls, action: Action, halves: int = 0) -> Potency:
        values = {}
        for k in NUMBERS:
            v = getattr(action, k)
            for _ in range(halves):
                v = half(v)
            values[k] = v
        return cls(**values)


def find_opponent(content: HexContent, oid: object) -> Opponent:
    found = content.opponent(oid)
    if found is not None:
        return found
    known = ", ".join(o.slug for o in content.opponents()) or "none"
    raise RuleError(f"no opponent {oid!r} in the content (known: {known})")


def fighting(s: HexploreState) -> list[str]:
    """Heroes still in this combat: not fled, not dead, not mindwiped."""
    c = current(s)
    return [h for h in c.heroes if h not in c.fled and in_play(s.heroes[h])]


def targetable(s: HexploreState) -> list[str]:
    return [h for h in fighting(s) if not {"encased", "swallowed"} & set(s.heroes[h].conditions)]


def vital_arg(v: str, key: str) -> str:
    """A Vital a detail names (its kind checked at the edge), refused unless it is one."""
    if v not in VITALS:
        raise RuleError(f"{key} must be health, energy or influence, not {v!r}")
    return v


def combat_in(s: HexploreState, phase: str) -> Combat:
    """The combat under way, if it is at `phase`; otherwise a refusal that says what is next."""
    c = current(s)
    if c is None or c.phase == "over":
        raise RuleError("there is no combat under way: start_combat first")
    if c.phase != phase:
        step = {
            "declare": "the heroes are still declaring (then opponent_action)",
            "resolve": "the opponent has acted: resolve_round next",
        }[c.phase]
        raise RuleError(f"not now: {step}")
    return c


def failed(action: Action, results: dict[str, str]) -> bool:
    failed = [k for k, r in results.items() if r not in SUCCEEDED]
    return bool([k for k in failed if not action.fail_skill or k == action.fail_skill])
