"""Reading HEXplore's dice: skill checks, target dice and HEXploding rolls.

Pure arithmetic on values the table already rolled (or asks `Chance` for), kept apart so
unit tests can sweep every face and rank.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from companion.core.rules import Chance

SUCCESS = "success"
CRITICAL_SUCCESS = "critical_success"
FAILURE = "failure"
CRITICAL_FAILURE = "critical_failure"
SUCCEEDED = (SUCCESS, CRITICAL_SUCCESS)


def critical_success_top(rank: int) -> int:
    """Highest result that is a Critical Success: hex (1), widening by 1 from rank 12."""
    return 1 + max(0, rank - 11)


def critical_failure_floor(disoriented: int) -> int:
    """Lowest result that Critically Fails: 10, then 8-10, 6-10... per Disoriented stack."""
    return 10 - 2 * max(0, disoriented)


def skill_outcome(rank: int, die: int, penalty: int = 0, disoriented: int = 0) -> str:
    """One skill die read against a rank.  `penalty` is added to the roll (a bonus is
    negative); the modified result decides criticals, as the rulebook allows."""
    result = die + penalty
    if result <= critical_success_top(rank):
        return CRITICAL_SUCCESS
    if result >= critical_failure_floor(disoriented):
        return CRITICAL_FAILURE
    return SUCCESS if result <= rank else FAILURE


def auto_fails(rank: int, cycle: int) -> bool:
    """A skill at or below the Fate Cycle Critically Fails with no roll."""
    return rank <= cycle


def hexplode(
    chance: Chance, *, for_: str, why: str, role: str, who: str = "", profile: str = "hex_d6"
) -> list[int]:
    """Roll once, and again for every hex (6 on the d6), with no limit."""
    rolls: list[int] = []
    while True:
        value = chance.roll(
            profile,
            for_=for_,
            why=why if not rolls else f"{why}: it HEXploded",
            role=role,
            who=who,
        )[0]
        rolls.append(value)
        if value != 6:
            return rolls


def target_dice(
    chance: Chance,
    candidates: list[str],
    count: int,
    why: str,
    bonus: Callable[[str], int] = lambda _: 0,
    ordered: bool = False,
    role: str = "target",
    names: Mapping[str, str] | None = None,
    rollers: Mapping[str, str] | None = None,
) -> tuple[list[str], dict[str, list[int]]]:
    """Each candidate rolls a d10; the highest become the targets.

    Only those tied across the cut roll again, without modifiers, until it is clear.  With
    `ordered` (single rewards handed out in order) every tie among the chosen is broken.
    Returns the chosen, best first, and every die each candidate rolled.  `rollers` names
    who rolls for a candidate who is not a hero (the group rolls for its allies).
    """
    rolls: dict[str, list[int]] = {c: [] for c in candidates}

    def pick(group: list[str], slots: int, first: bool) -> list[str]:
        if slots <= 0:
            return []
        if len(group) <= slots and (not ordered or len(group) == 1):
            return list(group)
        scores = {}
        for c in group:
            die = chance.roll(
                "skill_d10",
                for_=(rollers or {}).get(c, c),
                who=(names or {}).get(c, ""),
                why=why if first else f"{why}: roll off the tie",
                role=role,
            )
            rolls[c].append(die[0])
            scores[c] = die[0] + (bonus(c) if first else 0)
        out: list[str] = []
        for value in sorted(set(scores.values()), reverse=True):
            left = slots - len(out)
            if left <= 0:
                break
            tied = [c for c in group if scores[c] == value]
            if len(tied) <= left and (not ordered or len(tied) == 1):
                out.extend(tied)
            else:
                out.extend(pick(tied, min(left, len(tied)), False))
        return out

    chosen = pick(list(candidates), count, True)
    return chosen, {c: r for c, r in rolls.items() if r}
