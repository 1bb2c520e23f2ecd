"""The new-game wizard's choices for Direwild, as plain data (the app turns them into
touch choices; `chapters.initial_state` still checks whatever it is given).  Each chapter
is played on the first board of its land in the installed packs (a command line or
scenario can still name another with `board:`)."""

from __future__ import annotations

from typing import Any

from companion.games.direwild.chapters import AI_MODES, DEFAULT_PLAYERS
from companion.games.direwild.state import CLANS

SETUP_OPTIONS: list[dict[str, Any]] = [
    {
        "name": "players",
        "label": "Clans at the table (2 to 4)",
        "pick": list(CLANS),
        "default": list(DEFAULT_PLAYERS),
        "choice_labels": {clan: clan.capitalize() for clan in CLANS},
    },
    {
        "name": "chapter",
        "label": "Chapter",
        "choices": [1, 2, 3],
        "default": 1,
        "choice_labels": {str(n): f"Chapter {n}" for n in (1, 2, 3)},
    },
    {
        "name": "ai_deck",
        "label": "Enemy AI deck",
        "choices": list(AI_MODES),
        "default": "normal",
        "choice_labels": {mode: mode.capitalize() for mode in AI_MODES},
    },
]
