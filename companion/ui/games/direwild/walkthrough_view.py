"""The AI card walk-through, one action at a time, with the action's path highlighted.

Why it starts put away: the result card already lists every action of the card revealed,
beside the board (above it in portrait), and the board draws each enemy's path in its
colour, so the table reads the whole card at once with no tap; stepping through one
action at a time cost three "Next" taps a round and covered the board's top rows, where the
minions walk (issue 12).  A table that wants to move its standees one action at a time opens
it ("Step through the Enemy AI card"); it is drawn over the board on the half away from the
highlighted path, so the path never scrolls away while its words are read.  "Done" puts it
away; it can be opened again while the round lasts.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kivy.lang import Builder
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout

from companion.games.direwild.view import DirewildState, game_phase, happened_words

Builder.load_file(__file__.replace(".py", ".kv"))


class WalkthroughView(BoxLayout):
    step = NumericProperty(0)
    total = NumericProperty(0)
    text = StringProperty("")
    heading = StringProperty("")
    current_path = ListProperty([])  # the squares of the step on show, for the board
    hidden = BooleanProperty(False)  # put away by the players ("Done")
    shown = BooleanProperty(False)  # steps to show and not put away
    pinned = BooleanProperty(False)  # shown again by the players after the AI's turn

    def show(self, state: DirewildState, names: Mapping[str, str] | None = None) -> None:
        """`names`: the session's names of the packs' ids, so each step says them."""
        steps = [(happened_words(s.action, s.data, names), list(s.path)) for s in state.walkthrough]
        if steps != self._steps:
            self.step, self.hidden, self.pinned = 0, True, False  # a new card: on the result card
        if not game_phase(state) and not self.pinned:
            self.hidden = True  # the heroes' turns: the board is theirs, the steps put away
        self.total = len(steps)
        self._steps = steps
        self._render()

    _steps: list[tuple[str, list[str]]] = []

    def _render(self) -> None:
        self.shown = bool(self.total) and not self.hidden
        if not self.shown:
            self.heading, self.text = "Enemy AI", ""
            self.current_path = []
            return
        self.heading = f"Enemy AI: step {self.step + 1} of {self.total}"
        self.text, self.current_path = self._steps[self.step]

    def next(self) -> None:
        if self.step + 1 < self.total:
            self.step += 1
        else:
            self.hidden, self.pinned = True, False
        self._render()

    def back(self) -> None:
        if self.step > 0:
            self.step -= 1
            self._render()

    def reopen(self) -> None:
        self.hidden, self.step, self.pinned = False, 0, True
        self._render()

    def on_touch_down(self, touch: Any) -> bool:
        """Taps on the panel stay on it: the board square under it is not tapped."""
        if self.shown and self.collide_point(*touch.pos):
            super().on_touch_down(touch)
            return True
        return False
