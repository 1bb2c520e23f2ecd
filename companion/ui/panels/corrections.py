"""Corrections: when the table and the app disagree, set any tracked value by touch.

The list shows every value in the state; tapping one opens a small editor (- and + for
numbers, yes/no for flags, and for a position, a card or a hero a list to pick from by
name).  Positions are never typed; only a game's own word with nothing in the state or
content to pick it from is, by an expert.  The session core checks the new value against
the state's shape, and its refusal is shown in words.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from kivy.app import App
from kivy.lang import Builder
from kivy.properties import ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.utils import escape_markup

from companion.ui.panels.choices import text_choices, value_name
from companion.ui.panels.state import words
from companion.ui.widgets import BigButton, BigToggle, clear_and_fill

if TYPE_CHECKING:
    from companion.content.pack import Content
    from companion.core.game import Game
    from companion.core.session import Session

Builder.load_file(str(Path(__file__).with_suffix(".kv")))


def leaves(value: object, prefix: str = "") -> list[tuple[str, object]]:
    """Every correctable (path, value) pair: the scalars, reached through dicts and lists."""
    out: list[tuple[str, object]] = []
    items: Iterable[tuple[object, object]]
    if isinstance(value, dict):
        items = value.items()
    elif isinstance(value, list):
        items = enumerate(value)
    else:
        return [(prefix, value)]
    for key, child in items:
        path = f"{prefix}.{key}" if prefix else str(key)
        out.extend(leaves(child, path))
    return out


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th ... 11th, 12th, 13th, 21st."""
    end = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{end}"


def path_words(path: str, names: dict[str, str] | None = None) -> str:
    """Where a value sits, as the table says it: each key by the name the rules give it
    (`Session.names`: a hero by name, not its id), else in words; a place in a list as
    an ordinal ("Players > 1st", never "#1")."""
    names = names or {}
    return " > ".join(
        ordinal(int(p) + 1) if p.isdigit() else names.get(p) or words(p) for p in path.split(".")
    )


class CorrectionRow(BigButton):
    """One value in the list (a RecycleView row, so a large game state stays quick)."""

    value_path = StringProperty("")
    current = ObjectProperty(None, allownone=True)
    panel = ObjectProperty(None, allownone=True)

    def on_release(self) -> None:
        if self.panel is not None:
            self.panel.edit(self.value_path, self.current)


class CorrectionsPanel(BoxLayout):
    path = StringProperty("")
    path_text = StringProperty("")
    value = ObjectProperty(None, allownone=True)
    kind = StringProperty("")  # "int" | "bool" | "pick" | "text" while editing
    _state: object = None
    _content: Content | None = None
    _game: Game | None = None
    _names: dict[str, str] = {}  # noqa: RUF012 - replaced whole on every refresh
    _where: dict[str, str] = {}  # noqa: RUF012 - replaced whole on every refresh

    def refresh(self, session: Session) -> None:
        if session is None:
            self.ids.value_list.data = []
            return
        state = session.to_json()
        state.pop("requests", None)
        self._state, self._content, self._game = state, session.content, session.game
        self._names = dict(session.names())
        # where a value sits: a field by the rulebook's word for it ("HP"), an id by its name
        self._where = {**session.game.field_words, **self._names}
        self.ids.value_list.data = [
            {
                "text": f"{escape_markup(path_words(path, self._where))}: "
                f"[b]{escape_markup(self._show(path, value))}[/b]",
                "value_path": path,
                "current": value,
                "panel": self,
            }
            for path, value in leaves(state)
            if not isinstance(value, float)  # no game state uses floats; they need a keyboard
        ]
        if self.path and self.path not in dict(leaves(state)):
            self.cancel()

    def _show(self, path: str, value: object) -> str:
        if isinstance(value, bool):
            return "yes" if value else "no"
        if isinstance(value, str):  # names and the rulebook's words, never ids
            return value_name(value, path, self._state, self._content, self._names, self._game)
        return "-" if value is None else str(value)

    def edit(self, path: str, value: object) -> None:
        self.path, self.value = path, value
        self.path_text = path_words(path, self._where)
        if isinstance(value, bool):
            self.kind = "bool"
        elif isinstance(value, int):
            self.kind = "int"
        else:
            choices = text_choices(self._state, path, self._content, self._game, self._names)
            if len([c for c, _n in choices if c is not None]) < 2:
                # nothing in the state or the content to pick from (a game's own word,
                # such as an outcome): for experts, typed, as the Fix tab always allowed
                self.kind = "text"
                self.ids.text_value.text = "" if value is None else str(value)
                self.ids.notice.text = ""
                return
            self.kind = "pick"
            picks = []
            for choice, name in choices:
                pick = BigToggle(text=name, group="correct-pick")
                pick.state = "down" if choice == value else "normal"
                pick.choice = choice
                pick.bind(on_release=lambda b: setattr(self, "value", b.choice))
                picks.append(pick)
            clear_and_fill(self.ids.picks, picks)
        self.ids.notice.text = ""

    def step(self, delta: int) -> None:
        self.value = int(self.value) + delta

    def set_flag(self, flag: bool) -> None:
        self.value = flag

    def save(self) -> None:
        value = self.value
        if self.kind == "text":
            text = self.ids.text_value.text.strip()
            value = None if text == "" and self.value is None else text
        screen = App.get_running_app().root.get_screen("session")
        error = screen.correct(self.path, value)
        if error:
            self.ids.notice.text = error
        else:
            self.cancel()

    def cancel(self) -> None:
        self.path, self.value, self.kind = "", None, ""
        clear_and_fill(self.ids.picks, [])
