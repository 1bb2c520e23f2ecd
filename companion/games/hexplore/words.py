"""The table's words for the values of HEXplore's state fields that are the rules' own
words ("declare"), so a screen that shows the state (the Fix panel) says them as the
rulebook does ("Declaration phase"), never as the code spells them (issue 25)."""

from __future__ import annotations

VALUE_WORDS: dict[str, dict[str, str]] = {
    "phase": {
        "declare": "Declaration phase",
        "resolve": "Resolution phase",
        "over": "Combat over",
    },
}

# The rulebook's names for the state's fields where the code's spelling would read wrong.
FIELD_WORDS: dict[str, str] = {
    "power_ups": "Power-Ups",
    "upgrades": "Gear Upgrades",
    "spirit_tether": "Spirit Tether",
    "mindwiped": "Mindwiped",
    "mindwiped_turns": "Mindwiped turns",
}
