"""A small sheet correcting one value the player tapped (a hero's Health bar, the boss's
HP track, a rage cell, the fate wheel), by - and + or by picking, never by typing.

Why: when the table and the app disagree about one thing, the player touches that thing;
opening the Fix tab and finding its row among a hundred is for experts.  The sheet sends
the very correction command the Fix panel sends (`Session.correct` through `correct`),
so the rules check it the same way; a refusal is shown on the sheet in the rules' words
and the sheet stays open with nothing changed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from kivy.lang import Builder
from kivy.properties import ListProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.modalview import ModalView

from companion.ui.widgets import BigToggle, clear_and_fill

Builder.load_file(str(Path(__file__).with_suffix(".kv")))

Correct = Callable[[str, object], str]  # (path, value) -> "" or the refusal in words


class CorrectionSheet(ModalView):
    """Edit the value at `path`: a number by steppers (within `least`..`most`), or one of
    `choices` (value, words) by tapping it."""

    title = StringProperty("")
    value = ObjectProperty(None, allownone=True)
    least = NumericProperty(0)
    most = NumericProperty(99)
    choices = ListProperty([])
    error = StringProperty("")

    def __init__(
        self,
        title: str,
        path: str,
        value: object,
        correct: Correct,
        least: int = 0,
        most: int = 99,
        choices: Sequence[tuple[object, str]] = (),
        **kwargs: object,
    ) -> None:
        super().__init__(**kwargs)
        self.title, self.path, self.value = title, path, value
        self.least, self.most = least, most
        self._correct = correct
        self.choices = list(choices)
        picks = []
        for choice, words in self.choices:
            pick = BigToggle(text=words, group=f"sheet-{id(self)}")
            pick.choice = choice
            pick.state = "down" if choice == value else "normal"
            pick.bind(on_release=lambda b: setattr(self, "value", b.choice))
            picks.append(pick)
        clear_and_fill(self.ids.picks, picks)

    @property
    def numeric(self) -> bool:
        return not self.choices

    def step(self, delta: int) -> None:
        self.value = max(int(self.least), min(int(self.most), int(self.value) + delta))

    def show(self) -> CorrectionSheet:
        """Open over the screen at once (no animation: a tap must find it there)."""
        self.open(animation=False)
        return self

    def save(self) -> bool:
        error = self._correct(self.path, self.value)
        if error:
            self.error = error
            return False
        self.dismiss(animation=False)
        return True
