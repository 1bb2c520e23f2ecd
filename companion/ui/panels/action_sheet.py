"""A small sheet for a listed action whose `inputs` are facts read off the table (Gold
found, Health healed, the condition inflicted): each by - and + within the rules' range,
or picked from the rules' choices, then sent as the listed command.

Why: the rules list such actions with a valid default in `with`, but the default is rarely
what happened at the table; a button that sends it unasked records the wrong number.
Nothing here checks a rule: the range and the choices are the rules' own, and a refusal
comes back in the rules' words, shown on the sheet, which stays open.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from kivy.lang import Builder
from kivy.properties import ListProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.modalview import ModalView

from companion.core.rules import Action
from companion.ui.widgets import BigToggle, clear_and_fill, fit_columns

Builder.load_file(str(Path(__file__).with_suffix(".kv")))

Send = Callable[[str, dict[str, object]], str]  # (do, with) -> "" or the refusal in words


def words(value: object) -> str:
    """A choice as the table says it ('knocked_down' -> 'knocked down')."""
    return str(value).replace("_", " ")


def _get(args: Mapping[str, object], path: str) -> object:
    node: object = args
    for key in path.split("."):
        node = node.get(key) if isinstance(node, dict) else None
    return node


def _set(args: dict[str, object], path: str, value: object) -> None:
    *parents, last = path.split(".")
    node = args
    for key in parents:
        child = node.setdefault(key, {})
        if not isinstance(child, dict):
            raise TypeError(f"{path}: {key} holds {child!r}, not the inputs inside it")
        node = child
    node[last] = value


class InputRow(BoxLayout):
    """One input: its name, then a stepper (a number) or a row of picks (a choice)."""

    title = StringProperty("")
    value = ObjectProperty(None, allownone=True)
    least = NumericProperty(0)
    most = NumericProperty(99)
    choices = ListProperty([])

    def __init__(self, path: str, spec: dict[str, Any], value: object, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self.path = path
        self.title = words(path.rsplit(".", 1)[-1]).capitalize()
        self.choices = list(spec.get("choices", ()))
        self.least = int(spec.get("min", 0))
        self.most = int(spec.get("max", 99))
        self.value = value
        picks = []
        for choice in self.choices:
            pick = BigToggle(text=words(choice), group=f"input-{id(self)}")
            pick.choice = choice
            pick.state = "down" if choice == value else "normal"
            pick.bind(on_release=lambda b: setattr(self, "value", b.choice))
            picks.append(pick)
        clear_and_fill(self.ids.picks, picks)
        fit_columns(self.ids.picks, 3 if len(self.choices) > 6 else 2)

    @property
    def numeric(self) -> bool:
        return not self.choices

    def step(self, delta: int) -> None:
        self.value = max(int(self.least), min(int(self.most), int(self.value or 0) + delta))


class ActionSheet(ModalView):
    """The inputs of one listed action, then "Do it"."""

    title = StringProperty("")
    error = StringProperty("")

    def __init__(self, action: Action, send: Send, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self.action = action
        self.title = action.get("label") or words(action["do"]).capitalize()
        self._send = send
        self.rows = [
            InputRow(path, spec, _get(action["with"], path))
            for path, spec in action.get("inputs", {}).items()
        ]
        clear_and_fill(self.ids.rows, self.rows)

    def args(self) -> dict[str, object]:
        out = copy.deepcopy(dict(self.action["with"]))
        for row in self.rows:
            _set(out, row.path, row.value)
        return out

    def row(self, path: str) -> InputRow:
        """The row for the input at `path` (for tests)."""
        return next(r for r in self.rows if r.path == path)

    def do(self) -> bool:
        error = self._send(self.action["do"], self.args())
        if error:
            self.error = error
            return False
        self.dismiss(animation=False)
        return True


def open_action(action: Action, send: Send) -> ActionSheet:
    sheet = ActionSheet(action, send)
    sheet.open(animation=False)
    return sheet
