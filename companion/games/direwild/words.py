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

# The rulebook's names for the state's fields where the code's spelling would read wrong:
# a hero's active magic gems and the inactive ones beside the board, Karn's Hunting Track.
FIELD_WORDS: dict[str, str] = {
    "magic": "Active magic",
    "inactive": "Inactive magic gems",
    "fatal": "Fatal Wounds",
    "fatal_wounds": "Fatal Wounds left",
    "eaten_by": "Eaten by",
    "track": "Hunting Track",
    "track_length": "Hunting Track length",
    "ai_card": "Enemy AI card",
    "ai_deck": "Enemy AI deck",
    "ai_discard": "Enemy AI discard",
    "ai_mode": "Enemy AI mode",
    "wilds_slots": "Wilds slots",
}
