"""HEXplore's screens for the app shell: `build_view(session)` returns the table view."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from companion.core.session import Session
    from companion.ui.games.hexplore.hexplore_view import HexploreView


def build_view(session: Session) -> HexploreView:
    """The HEXplore view for `session`; the app calls its `refresh()` after every change."""
    from companion.ui.games.hexplore.hexplore_view import HexploreView

    return HexploreView(session=session)


__all__ = ["build_view"]
