"""Kradia's table view: the boss board, the heroes strip, the action picker and the boss
attack walk-through.  It reads the session and sends commands; no rule lives here."""

from __future__ import annotations

from typing import Any


def build_view(session: Any) -> Any:
    from companion.ui.games.kradia.view import KradiaView

    return KradiaView(session)
