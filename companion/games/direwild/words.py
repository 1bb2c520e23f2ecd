"""The table's words for the values of Direwild's state fields that are the rules' own
words ("adventure"), so a screen that shows the state (the Fix panel) says them as the
rulebook does ("Adventure Phase"), never as the code spells them (issue 25)."""

from __future__ import annotations

VALUE_WORDS: dict[str, dict[str, str]] = {
    "phase": {
        "setup": "Set-up",
        "game": "Game Phase (the Enemy AI's turn)",
        "turn_order": "Game Phase: choose the turn order",
        "adventure": "Adventure Phase (the heroes' turns)",
        "round_over": "Round over",
    },
    "outcome": {"chapter_won": "Chapter won", "won": "Won", "lost": "Lost"},
}
