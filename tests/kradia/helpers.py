"""Shared set-up for the Kradia unit tests: real content, real sessions."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from companion.core.session import Session
from companion.games import get_game, load_game_content

GAME = get_game("kradia")
CONTENT = load_game_content(GAME)
HEROES = ["oakla", "warden", "archer", "mystic"]


def options(**extra: Any) -> dict[str, Any]:
    return {"mode": "story", "heroes": list(HEROES), "sequence": 1, **extra}


def new_session(tmp: Path, **extra: Any) -> Session:
    return Session.create(tmp / "game.session", GAME, options(**extra), content=CONTENT)
