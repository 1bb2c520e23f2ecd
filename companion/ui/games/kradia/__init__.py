"""Kradia's table view: the boss board, the heroes strip, the action picker and the boss
attack walk-through.  It reads the session and sends commands; no rule lives here."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from companion.core.session import Session
    from companion.ui.games.kradia.view import KradiaView


def build_view(session: Session) -> KradiaView:
    from companion.ui.games.kradia.view import KradiaView

    return KradiaView(session)
