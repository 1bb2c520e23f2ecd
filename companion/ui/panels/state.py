"""The generic state view: every field of the game's state in words, for games with no
screens of their own yet.  It reads `session.to_json()`, and offers the game's commands
as buttons (run with no arguments: the rules refuse in words when they need more), so a
game is playable at the table before its own screens exist."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from kivy.app import App
from kivy.lang import Builder
from kivy.properties import ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.utils import escape_markup

from companion.ui.widgets import BigButton, clear_and_fill  # noqa: E402

if TYPE_CHECKING:
    from companion.core.session import Session

Builder.load_file(str(Path(__file__).with_suffix(".kv")))


def words(key: str) -> str:
    return key.replace("_", " ").capitalize()


def _key(key: object) -> str:
    return str(escape_markup(words(str(key))))


def render_value(value: object, depth: int = 0) -> list[str]:
    """Nested state as indented lines: dicts as 'Key: value', lists comma-joined if flat."""
    pad = "    " * depth
    if isinstance(value, dict):
        if not value:
            return [f"{pad}(none)"]
        lines = []
        for k, v in value.items():
            if isinstance(v, dict | list) and v and not _flat(v):
                lines.append(f"{pad}[b]{_key(k)}[/b]")
                lines.extend(render_value(v, depth + 1))
            else:
                lines.append(f"{pad}[b]{_key(k)}[/b]: {_scalar(v)}")
        return lines
    if isinstance(value, list):
        if _flat(value):
            return [f"{pad}{_scalar(value)}"]
        lines = []
        for i, item in enumerate(value, 1):
            lines.append(f"{pad}{i}.")
            lines.extend(render_value(item, depth + 1))
        return lines
    return [f"{pad}{_scalar(value)}"]


def _flat(value: object) -> bool:
    if isinstance(value, list):
        return all(not isinstance(v, dict | list) for v in value)
    return False


def _scalar(value: object) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ", ".join(_scalar(v) for v in value) if value else "(none)"
    if isinstance(value, dict):
        return "(none)"
    return str(escape_markup(str(value)))


class StateView(BoxLayout):
    session = ObjectProperty(None)
    text = StringProperty("")
    title = StringProperty("")

    def __init__(self, session: Session, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self.session = session
        self.refresh()

    def send(self, action: Mapping[str, object]) -> None:
        App.get_running_app().root.get_screen("session").do(action["do"], action["with"])

    def _fill_actions(self) -> None:
        """One button per action the rules list now (the game decides, this only shows)."""
        buttons = []
        for action in self.session.actions()["actions"]:
            if action["do"] == "answer":
                continue  # the Dice panel answers what is waiting
            button = BigButton(text=action.get("label") or words(action["do"]))
            button.action = action
            button.bind(on_release=lambda b: self.send(b.action))
            buttons.append(button)
        clear_and_fill(self.ids.commands, buttons)

    def refresh(self) -> None:
        self._fill_actions()
        state = self.session.to_json()
        state.pop("requests", None)
        game = self.session.game
        self.title = game.summary(self.session.state) or game.title
        self.text = "\n".join(render_value(state))
