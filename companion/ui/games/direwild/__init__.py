"""Direwild's screens for the app shell: `build_view(session)` returns the table view."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from companion.core.session import Session
    from companion.ui.games.direwild.table_view import DirewildView


def build_view(session: Session) -> DirewildView:
    """The Direwild view for `session`; the app calls its `refresh()` after every change."""
    from companion.ui.games.direwild.table_view import DirewildView

    return DirewildView(session=session)


__all__ = ["build_view"]
