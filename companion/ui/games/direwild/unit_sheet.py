"""The sheet for correcting one unit, opened by tapping its piece (or its row in the key).

Why: when the app and the table disagree ("Shadowleaf really has +2 stamina", "the red minion
is on C4"), the players tap the thing that is wrong and fix just that, by steppers and by
tapping its square, never a keyboard (issue 12).  Each change goes through the session's one
correction command (`Session.correct`, as the Fix panel's), so it is checked, logged and
undoable like any other; the full list of values stays behind the Fix tab for experts.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from kivy.lang import Builder
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout

from companion.games.direwild.view import STAGING, DirewildState

Builder.load_file(__file__.replace(".py", ".kv"))


@dataclass(frozen=True)
class Field:
    """One value of a unit the sheet offers: its words, its state path, number or flag."""

    words: str
    path: str
    value: int  # a number, or a flag (a bool)


def fields_of(state: DirewildState, unit: str) -> list[Field]:
    """The values of `unit` a table corrects most: numbers, then its conditions."""
    if unit in state.heroes:
        h = state.heroes[unit]
        base = f"heroes.{unit}"
        return [
            Field("Stamina", f"{base}.stamina", h.stamina),
            Field("Active magic", f"{base}.magic", h.magic),
            Field("Treasures", f"{base}.treasures", h.treasures),
            Field("Has moved", f"{base}.moved", h.moved),
            Field("Has battled", f"{base}.battled", h.battled),
        ]
    if unit == "karn":
        k = state.karn
        return [
            Field("Stamina", "karn.stamina", k.stamina),
            Field("Space on the Hunting Track", "karn.track", k.track),
            Field("Defeated", "karn.defeated", k.defeated),
        ]
    e = state.enemies[unit]
    base = f"enemies.{unit}"
    return [
        Field("Stamina", f"{base}.stamina", e.stamina),
        Field("Damage", f"{base}.damage", e.damage),
        Field("Face up (active)", f"{base}.active", e.active),
        Field("Defeated", f"{base}.defeated", e.defeated),
    ]


class FieldRow(BoxLayout):
    """- value + for a number, a Yes/No toggle for a flag; each tap is one correction."""

    words = StringProperty("")
    shown = StringProperty("")
    flag = BooleanProperty(False)

    def __init__(self, field: Field, correct: Callable[[str, object], bool], **kw: object) -> None:
        super().__init__(**kw)
        self.field, self.correct = field, correct
        self.words = field.words
        self.flag = isinstance(field.value, bool)
        self.shown = self.words_for(field.value)

    @staticmethod
    def words_for(value: object) -> str:
        if isinstance(value, bool):
            return "Yes" if value else "No"
        return f"{value:+d}" if isinstance(value, int) else str(value)

    def step(self, by: int) -> None:
        self.correct(self.field.path, int(self.field.value) + by)

    def toggle(self) -> None:
        self.correct(self.field.path, not self.field.value)


class UnitSheet(BoxLayout):
    """Opened on one unit; `picking` while the next board tap is its new square."""

    unit = StringProperty("")
    title = StringProperty("")
    picking = BooleanProperty(False)
    can_stage = BooleanProperty(False)

    def __init__(self, **kw: object) -> None:
        super().__init__(**kw)
        self.correct: Callable[[str, object], bool] = lambda _p, _v: False
        self._shape: list[str] = []

    def open(self, unit: str, title: str, state: DirewildState) -> None:
        self.unit, self.title, self.picking = unit, title, False
        self.show(state)

    def close(self) -> None:
        self.unit, self.picking = "", False
        self.ids.rows.clear_widgets()
        self._shape = []

    def show(self, state: DirewildState) -> None:
        """The unit's values as they stand now (after each correction, or an undo)."""
        if not self.unit:
            return
        rows = self.ids.rows
        rows.clear_widgets()
        for field in fields_of(state, self.unit):
            rows.add_widget(FieldRow(field, self.correct))
        self.can_stage = self.unit in state.heroes and state.heroes[self.unit].position != STAGING

    def where_path(self, state: DirewildState) -> str:
        """The state path of the unit's square."""
        if self.unit in state.heroes:
            return f"heroes.{self.unit}.position"
        if self.unit == "karn":
            return "karn.position"
        return f"enemies.{self.unit}.position"

    def stage(self) -> None:
        """A hero taken back off the board, as the rules' staging area."""
        self.picking = False
        self.correct(f"heroes.{self.unit}.position", STAGING)

    def place(self, state: DirewildState, square: str) -> bool:
        """The tapped square becomes the unit's: one correction."""
        self.picking = False
        return self.correct(self.where_path(state), square)
