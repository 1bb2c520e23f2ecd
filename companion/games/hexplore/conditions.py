"""Conditions and their timings: when each one bites, stacks, and ends.

Timings from the Conditions table: Bleeding, Burned, Drained, Poisoned and Swallowed at
the start of each Declaration phase; Confused, Frightened and Unconscious during the
Resolution phase; conditions that do not Persist end with the combat.
"""

from __future__ import annotations

from companion.core.tables import Decision
from companion.games.hexplore.common import stacks
from companion.games.hexplore.events import ConditionChanged, ConditionLost, VitalsChanged
from companion.games.hexplore.state import (
    AllyState,
    HeroState,
    OpponentState,
    target_of,
)
from companion.games.hexplore.tables import AFFECTS_ANY, CONDITIONS, PERSISTS, STACKS

GROGGY = "groggy"  # the round after waking from Unconscious: -3 to every Ability rank
# Card effects kept as Conditions so they show on the mat and end with the combat.
WEAKENED = "weakened"  # deals `stacks` less damage until the end of combat
DECAYING = "decaying"  # suffers `damage` Health at the next Declaration phase
CAPPED = "capped"  # may deal at most their Attack rank in Health damage this round


def inflict(
    d: Decision,
    who: str,
    condition: str,
    rounds: int = 0,
    value: int = 0,
    damage: int = 0,
    to: str = "",
    add: int = 1,
) -> None:
    """Give a Condition: stacking ones gain `add` stacks, others are refreshed.  An ally
    takes only those that "Affect Any" (the others are the heroes' own)."""
    if who in d.state.allies and condition in CONDITIONS and condition not in AFFECTS_ANY:
        return
    target = target_of(d.state, who)
    old = target.conditions.get(condition)
    stacking = condition in STACKS or condition == WEAKENED
    n = (old.stacks + add) if (old and stacking) else add
    data: dict[str, int | str] = {"stacks": n, "rounds": rounds}
    if value:
        data["value"] = value
    if damage:
        data["damage"] = damage
    if to:
        data["to"] = to
    if condition == "poisoned" and old:
        data["successes"] = old.successes
    d.emit("ConditionGained", who=who, condition=condition, **data)


def upkeep(d: Decision, who: str) -> None:
    """Start of a Declaration phase: the Conditions that cost Vitals each round."""
    target = target_of(d.state, who)
    health = -stacks(target, "bleeding")
    if "burned" in target.conditions:
        health -= 3  # the Health damage does not stack
    foe = target if isinstance(target, OpponentState) else None
    if "poisoned" in target.conditions and foe is None:
        health -= 1
    for held in ("swallowed", DECAYING):
        if held in target.conditions:
            health -= target.conditions[held].damage
    energy = -3 if "drained" in target.conditions else 0
    if foe is not None and foe.regen:
        health += max(0, min(foe.regen, foe.max_health - foe.health))
    if health or energy:
        named: list[str] = [
            c
            for c in ("bleeding", "burned", "poisoned", "swallowed", "drained")
            if c in target.conditions
        ]
        if foe is not None and foe.regen:
            named.append("Regen")
        d.emit(
            VitalsChanged(
                who=who, health=health, energy=energy, why=f"start of round: {', '.join(named)}"
            )
        )


def heal_amount(target: HeroState | OpponentState | AllyState, vital: str, amount: int) -> int:
    """Healing after Burned (Health) or Drained (Energy) takes 3 less per stack."""
    cut = 3 * stacks(target, "burned" if vital == "health" else "drained")
    return max(0, amount - cut)


def note_survival(d: Decision, hid: str, succeeded: bool) -> None:
    """Poisoned ends after any 3 successful Survival rolls."""
    c = d.state.heroes[hid].conditions.get("poisoned")
    if c is None or not succeeded:
        return
    if c.successes + 1 >= 3:
        d.emit(ConditionLost(who=hid, condition="poisoned"))
    else:
        d.emit(
            ConditionChanged(who=hid, condition="poisoned", fields={"successes": c.successes + 1})
        )


def count_down(d: Decision, who: str, fresh: set[str]) -> None:
    """End of a round: timed Conditions lose a round; those gained this round do not."""
    for name, c in list(target_of(d.state, who).conditions.items()):
        if c.rounds <= 0 or name in fresh:
            continue
        if c.rounds == 1:
            d.emit(ConditionLost(who=who, condition=name))
        else:
            d.emit(ConditionChanged(who=who, condition=name, fields={"rounds": c.rounds - 1}))


def combat_over(d: Decision, who: str) -> None:
    """Conditions that do not Persist end with the combat."""
    for name in list(target_of(d.state, who).conditions):
        if name not in PERSISTS:
            d.emit(ConditionLost(who=who, condition=name))
