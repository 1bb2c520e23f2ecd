"""Each game's own view, plugged into the session frame by the contract in the game brief.

`companion.ui.games.<game>.build_view(session)` returns a widget with `refresh()`; it is
imported only when a session of that game opens, so a game whose screens are unfinished
(or broken) falls back to the generic state view instead of stopping the app.
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from kivy.uix.widget import Widget

    from companion.core.session import Session
    from companion.ui.panels.correction_sheet import CorrectionSheet

log = logging.getLogger(__name__)


class SendsCommands:
    """For a game view (mixed in before its Kivy widget class, which declares `session`
    and a `message` StringProperty, and has `refresh()`): commands and answers go to the
    session, a refusal is shown in `message` in the rules' own words and changes nothing,
    and the view redraws either way."""

    session: Session
    message: str
    refresh: Callable[[], None]

    def send(self, name: str, args: Mapping[str, object] | None = None) -> bool:
        return self._attempt(lambda: self.session.do(name, args or {}))

    def answer(self, values: object) -> bool:
        """Answer the pending request with `values`, as `Session.answer` takes them."""
        return self._attempt(lambda: self.session.answer(values, by="screen"))

    def correct(self, path: str, value: object) -> str:
        """The Fix panel's correction of one value; '' or the refusal in words."""
        from companion.core.rules import RuleError

        try:
            self.session.correct(path, value)
        except RuleError as exc:
            return exc.message
        self.message = ""
        self.refresh()
        return ""

    def correct_value(
        self,
        title: str,
        path: str,
        value: object = None,
        least: int = 0,
        most: int = 99,
        choices: Sequence[tuple[object, str]] = (),
    ) -> CorrectionSheet:
        """Open the sheet correcting just the value at `path` (the thing the player
        tapped), starting from `value` (the space tapped on a track) or what the state
        holds; `least` and `most` bound a number, `choices` lists the values to pick from."""
        from companion.ui.panels.correction_sheet import CorrectionSheet

        if value is None:
            value = _at(self.session.to_json(), path)
        return CorrectionSheet(title, path, value, self.correct, least, most, choices).show()

    def _attempt(self, action: Callable[[], object]) -> bool:
        from companion.core.rules import RuleError

        try:
            action()
        except RuleError as exc:
            self.message = exc.message
            self.refresh()
            return False
        self.message = ""
        self.refresh()
        return True


def _at(state: object, path: str) -> object:
    """The value at a dotted `path` of the state's JSON (list entries by number)."""
    value = state
    for part in path.split("."):
        if isinstance(value, list):
            value = value[int(part)]
        elif isinstance(value, dict):
            value = value[part]
        else:
            raise TypeError(f"{path}: {part} is inside a {type(value).__name__}")
    return value


def view_for(session: Session) -> Widget:
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
