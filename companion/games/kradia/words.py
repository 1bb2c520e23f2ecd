"""The table's words for the values of Kradia's state fields that are the rules' own
words ("heroes"), so a screen that shows the state (the Fix panel) says them as the
rulebook does ("Hero Action Phase"), never as the code spells them (issue 25)."""

from __future__ import annotations

VALUE_WORDS: dict[str, dict[str, str]] = {
    "phase": {
        "battlefield": "Battlefield Phase",
        "heroes": "Hero Action Phase",
        "boss": "Boss Attack Phase",
        "end": "End of the round (Boss Rage Phase done)",
        "over": "Game over",
    },
}

# The rulebook's names for the state's fields where the code's spelling would read wrong
# ("Hp", "Red"): a hero's Red and Blue Mana tracks, their maximum Mana, the HP track.
FIELD_WORDS: dict[str, str] = {
    "hp": "HP",
    "max_hp": "Max HP",
    "red": "Red Mana",
    "blue": "Blue Mana",
    "red_max": "Max Red Mana",
    "blue_max": "Max Blue Mana",
    "attack_buff": "Attack bonus",
    "level3_side": "Level 3 side",
}
