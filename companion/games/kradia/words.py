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
