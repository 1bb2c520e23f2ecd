"""Before the first Game Turn: the start-of-game rolls that depend on the group.

Set-up, Starting Equipment: "Each hero rolls their ten-sided dice a set number of times
based on how many heroes are in the game, and consults the Searching For Gear section on
the Enthralled Cities placard for what you found."  The app rolls the dice and says how
many; what each result finds is on the placard, so it is the players' to read.  Quick
Play: "Before the game begins, the group draws 3 Power Up cards and gains their bonus."
"""

from __future__ import annotations

from typing import Any

from companion.core.rules import Chance, Decision, RuleError
from companion.games.hexplore.common import hero_id, in_combat, in_play
from companion.games.hexplore.events import PowerUpsGained, StartingGearRolled
from companion.games.hexplore.hexcontent import HexContent
from companion.games.hexplore.keywords import movement_phase
from companion.games.hexplore.state import HexploreState
from companion.games.hexplore.tables import QUICK_PLAY_POWER_UPS, starting_gear_rolls


def before_the_game(s: HexploreState) -> bool:
    """Nothing of the first Game Turn has been played yet."""
    return s.turn == 1 and movement_phase(s) and s.combat is None and s.fate.tracker == 0


def search_starting_gear(
    d: Decision, args: dict[str, Any], chance: Chance, content: HexContent
) -> None:
    s: HexploreState = d.state
    hid = hero_id(s, args)
    h = s.heroes[hid]
    if not before_the_game(s) or in_combat(s):
        raise RuleError("the starting rolls for gear are made before the game begins")
    if hid in s.starting_gear:
        raise RuleError(f"{h.name} has already searched for starting gear")
    if not in_play(h):
        raise RuleError(f"{h.name} is out of the game")
    gear_n, item_n = starting_gear_rolls(len(s.heroes))
    rolls: dict[str, list[int]] = {}
    for kind, n in (("gear", gear_n), ("items", item_n)):
        rolls[kind] = [
            chance.roll(
                "skill_d10",
                for_=hid,
                why=f"Searching for Gear, {'Gear Upgrade' if kind == 'gear' else 'Item'} "
                f"roll {i + 1} of {n} (read the Enthralled Cities placard)",
                role=f"starting_{kind}",
                who=h.name,
            )[0]
            for i in range(n)
        ]
    d.emit(StartingGearRolled(hero=hid, gear=rolls["gear"], items=rolls["items"]))


def quick_play_power_ups(
    d: Decision, args: dict[str, Any], chance: Chance, content: HexContent
) -> None:
    s: HexploreState = d.state
    if s.play_style != "quick_play":
        raise RuleError("only Quick Play starts with 3 Power Up cards for the group")
    if s.starting_power_ups:
        raise RuleError("the group has already drawn its 3 starting Power Up cards")
    if not before_the_game(s):
        raise RuleError("the 3 starting Power Up cards are drawn before the game begins")
    d.emit(PowerUpsGained(heroes=[], count=QUICK_PLAY_POWER_UPS, before_game=True))
