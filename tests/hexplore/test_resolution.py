"""The Resolution phase's arithmetic on plain numbers."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from companion.games.hexplore.resolution import (
    Attack,
    Taken,
    hero_takes,
    heroes_attack,
    soak_shield,
)

small = st.integers(0, 30)


def test_block_starts_with_energy() -> None:
    t = Taken()
    t.add("health", 5, 0, 0)
    t.add("energy", 3, 0, 0)
    assert t.block(4) == 4
    assert (t.total("health"), t.total("energy")) == (4, 0)


@given(small, small, small, small)
def test_piercing_passes_defend_and_block(amount: int, piercing: int, defend: int, block: int):
    t = hero_takes({"health": amount}, piercing, 1, defend=defend, block=block)
    through = min(piercing, amount)
    assert t.total("health") >= through if amount else t.total("health") == 0
    assert t.total("health") <= amount


@given(small, small)
def test_defend_comes_off_each_hit(damage: int, defend: int) -> None:
    once = hero_takes({"energy": damage}, 0, 1, defend=defend).total("energy")
    twice = hero_takes({"energy": damage}, 0, 2, defend=defend).total("energy")
    assert twice == 2 * once == 2 * max(0, damage - defend)


def test_negate_drops_the_highest_attack_and_defend_each_other() -> None:
    out = heroes_attack(
        [Attack("a", "health", 5), Attack("b", "health", 7, 2), Attack("c", "energy", 3)],
        defend=1,
        negate=True,
    )
    assert out.negated == "b"
    assert (out.taken.total("health"), out.taken.total("energy")) == (4, 2)


def test_leaking_sap_halves_health_damage_and_its_piercing() -> None:
    out = heroes_attack([Attack("a", "health", 5, 4)], halve_health=True, block=10)
    assert out.taken.total("health") == 2  # 5 -> 2, Piercing 4 -> 2 passes the Block


@given(small, small)
def test_soul_shield_never_overflows(shield: int, damage: int) -> None:
    took, wasted = soak_shield(shield, damage)
    assert took + wasted == damage
    assert took <= shield
