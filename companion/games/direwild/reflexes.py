"""Heightened Reflexes: a wound to reroll a 1, in battle and out of it.

Book 2, Unlocked Hero Powers: "The Heightened Reflexes ability gives a player the option of
taking a wound to reroll any "1" they rolled! This applies to dice rolls outside of combat as
well. If there are no wound cards left in the wound pile, you may not use this ability."
The app asks, since it is the player's choice, as often as a 1 comes up.
"""

from __future__ import annotations

from companion.core.rules import Chance
from companion.core.tables import Decision
from companion.games.direwild import events as ev
from companion.games.direwild.state import has_power, wound_pile
from companion.games.direwild.units import wound_to

REFLEXES = ("keep the 1", "take a wound and reroll")


def reroll_ones(
    d: Decision, hero: str, chance: Chance, roll: int, profile: str, why: str, role: str
) -> int:
    """`roll`, or what the hero rolled again after taking a wound for each 1 they chose to
    reroll."""
    while roll == 1 and has_power(d.state, "reflexes"):
        if wound_pile(d.state) == 0:
            d.emit(
                ev.Noted(
                    actor=hero,
                    text=f"Heightened Reflexes: the wound pile is empty, so {hero.title()} "
                    "may not take a wound to reroll the 1",
                )
            )
            break
        choice = chance.choose(
            REFLEXES,
            for_=hero,
            why=f"Heightened Reflexes: {hero.title()} rolled a 1 - take a wound to reroll it?",
            role="reflexes",
            deck="reflexes",
        )
        if choice != REFLEXES[1]:
            break
        wound_to(d, hero, 1, "Heightened Reflexes")
        again = chance.roll(profile, 1, for_=hero, why=f"{why} (rerolled)", role=role)[0]
        d.emit(ev.RollRerolled(hero=hero, was=roll, roll=again))
        roll = again
    return roll
