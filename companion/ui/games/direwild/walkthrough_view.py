"""The AI card walk-through, one action at a time, so the players can move the standees."""

from __future__ import annotations

from typing import Any

from kivy.lang import Builder
from kivy.properties import ListProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout

Builder.load_file(__file__.replace(".py", ".kv"))


class WalkthroughView(BoxLayout):
    step = NumericProperty(0)
    total = NumericProperty(0)
    text = StringProperty("")
    heading = StringProperty("")
    current_path = ListProperty([])  # the squares of the step on show, for the board

    def show(self, state: Any) -> None:
        steps = state.walkthrough
        if len(steps) != self.total:
            self.step = 0
        self.total = len(steps)
        self._steps = [(s.text, list(s.path)) for s in steps]
        self._render()

    def _render(self) -> None:
        if not self.total:
            self.heading, self.text = "Enemy AI", "No AI card revealed this round yet."
            self.current_path = []
            return
        self.heading = f"Enemy AI: step {self.step + 1} of {self.total}"
        self.text, self.current_path = self._steps[self.step]

    def next(self) -> None:
        if self.step + 1 < self.total:
            self.step += 1
            self._render()

    def back(self) -> None:
        if self.step > 0:
            self.step -= 1
            self._render()
