"""The arithmetic of the Resolution phase, on plain numbers.

"Effects that reduce damage are calculated first. Then all remaining damage and Healing
are calculated into one total."  Defend comes off each attack, Block off the total
(Energy first), Piercing passes both, and nothing here knows about events or dice.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from companion.games.hexplore.tables import half

DAMAGE_VITALS = ("health", "energy")


@dataclass
class Attack:
    """One hero's damaging action against the opponent."""

    hero: str
    vital: str
    amount: int
    piercing: int = 0
    name: str = ""  # the hero's name for the mat's lines (their id when not given)

    @property
    def who(self) -> str:
        return self.name or self.hero


@dataclass
class Taken:
    """Damage one target takes, split into what may be reduced and what pierces."""

    reducible: dict[str, int] = field(default_factory=lambda: {"health": 0, "energy": 0})
    piercing: dict[str, int] = field(default_factory=lambda: {"health": 0, "energy": 0})

    def add(self, vital: str, amount: int, piercing: int, defend: int) -> None:
        p = min(max(0, piercing), amount)
        self.piercing[vital] += p
        self.reducible[vital] += max(0, amount - p - max(0, defend))

    def block(self, amount: int) -> int:
        """Block comes off the total, beginning with Energy; returns what it stopped."""
        left = max(0, amount)
        for vital in ("energy", "health"):
            cut = min(left, self.reducible[vital])
            self.reducible[vital] -= cut
            left -= cut
        return max(0, amount) - left

    def total(self, vital: str) -> int:
        return self.reducible[vital] + self.piercing[vital]


@dataclass
class Outgoing:
    """What the heroes' attacks add up to against the opponent this round."""

    taken: Taken
    dealt: dict[str, dict[str, int]]  # hero -> vital -> damage landed
    negated: str = ""
    lines: list[str] = field(default_factory=list)


def heroes_attack(
    attacks: list[Attack],
    defend: int = 0,
    block: int = 0,
    negate: bool = False,
    halve_health: bool = False,
    vulnerable: int = 0,
) -> Outgoing:
    """The heroes' Health and Energy damage on the opponent after its reductions."""
    out = Outgoing(Taken(), {})
    live = [a for a in attacks if a.amount > 0 and a.vital in DAMAGE_VITALS]
    if negate and live:
        worst = max(live, key=lambda a: a.amount)
        out.negated = worst.hero
        out.lines.append(f"{worst.who}'s {worst.amount} {worst.vital} damage is Negated")
        live = [a for a in live if a is not worst]
    for a in live:
        amount, piercing = a.amount + vulnerable, a.piercing
        if halve_health and a.vital == "health":
            amount, piercing = half(amount), half(piercing)
            out.lines.append(f"{a.who} deals half Health damage: {amount}")
        before = out.taken.total(a.vital)
        out.taken.add(a.vital, amount, piercing, defend)
        landed = out.taken.total(a.vital) - before
        if defend:
            out.lines.append(f"{a.who}: {amount} {a.vital} less Defend {defend} = {landed}")
        out.dealt.setdefault(a.hero, {}).setdefault(a.vital, 0)
        out.dealt[a.hero][a.vital] += landed
    if block:
        stopped = out.taken.block(block)
        out.lines.append(f"Block {block} stops {stopped} damage, Energy first")
    return out


def hero_takes(
    damage: dict[str, int],
    piercing: int,
    hits: int,
    defend: int = 0,
    block: int = 0,
    vulnerable: int = 0,
    defend_per_attack: bool = False,
) -> Taken:
    """One target's damage from an opponent action that hits it `hits` times.

    Defend comes off each damaging Vital of each hit (Ruling 12), or, under the house rule
    `defend_each: attack`, once off each hit, Energy first as Block is."""
    taken = Taken()
    for _ in range(hits):
        left = defend
        for vital in ("energy", "health"):
            base = damage.get(vital, 0)
            if base <= 0:
                continue
            amount = base + vulnerable
            if not defend_per_attack:
                taken.add(vital, amount, piercing, defend)
                continue
            used = min(max(0, left), max(0, amount - min(max(0, piercing), amount)))
            taken.add(vital, amount, piercing, used)
            left -= used
    if block:
        taken.block(block)
    return taken


def soak_shield(shield: int, damage: int) -> tuple[int, int]:
    """Soul Shield takes Health, Energy and Favored damage; excess does not carry over.
    Returns (damage the shield took, damage wasted)."""
    took = min(max(0, shield), max(0, damage))
    return took, max(0, damage) - took


def nonlethal_loss(current: int, lethal: int, soft: int) -> int:
    """A Vital's loss when `soft` of it is Nonlethal ("cannot drop a Vital to 0, instead
    dropping it to a minimum of 1"): the lethal part alone may still take it to 0."""
    if current - lethal <= 0:
        return lethal + soft
    return lethal + min(soft, max(0, current - lethal - 1))
