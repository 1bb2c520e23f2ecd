"""The boss's HP track as the table reads it: each space's dice and whether it is in
overdrive.

Why here: the boss board on the screen shows the same numbers the attack rolls by, so
both read them from `dice_on_space` and `in_overdrive` (effects.py) through this module,
and the screen never works a number out of the HP itself.  Read off the boss card for an
HP, never stored, so a corrected HP shows its own space's dice.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.games.kradia.effects import dice_on_space, in_overdrive
from companion.games.kradia.schema import Boss


@dataclass(frozen=True)
class HpSpace:
    """One space of the HP track: its number, the dice printed on it, and whether the
    boss is in overdrive there."""

    hp: int
    dice: int
    overdrive: bool


def hp_space(boss: Boss, hp: int) -> HpSpace:
    """The space the boss stands on at `hp` (space 0 reads as the lowest band)."""
    return HpSpace(hp, dice_on_space(boss, hp), in_overdrive(boss, hp))


def hp_track(boss: Boss, max_hp: int) -> list[HpSpace]:
    """Every space of the track, from `max_hp` down to 1, as the board prints them."""
    return [hp_space(boss, hp) for hp in range(max_hp, 0, -1)]
