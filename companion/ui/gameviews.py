"""Each game's own view, plugged into the session frame by the contract in the game brief.

`companion.ui.games.<game>.build_view(session)` returns a widget with `refresh()`; it is
imported only when a session of that game opens, so a game whose screens are unfinished
(or broken) falls back to the generic state view instead of stopping the app.
"""

from __future__ import annotations

import importlib
import logging
from typing import Any

log = logging.getLogger(__name__)


def view_for(session: Any) -> Any:
    from companion.ui.panels.state import StateView

    try:
        module = importlib.import_module(f"companion.ui.games.{session.game.id}")
    except ModuleNotFoundError as exc:
        if exc.name and not f"companion.ui.games.{session.game.id}".startswith(exc.name):
            log.warning("the %s view could not load: %s", session.game.id, exc)
        return StateView(session)
    build = getattr(module, "build_view", None)
    if build is None:
        return StateView(session)
    try:
        return build(session)
    except Exception:  # a broken game view must not take the table's session down
        log.exception("the %s view failed to build; showing the plain state", session.game.id)
        return StateView(session)
