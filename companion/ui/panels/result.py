"""The result card: what the last step did, at the top of the game, in large type.

Why: after the boss attacks or the enemy moves, the whole table wants to read what just
happened without scrolling or opening the log.  The card shows the session's last step in
the rules' own words (`Session.last_step`), with Undo on it, until the next step replaces
it.  It renders; it never decides anything.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kivy.lang import Builder
from kivy.properties import BooleanProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.utils import escape_markup

from companion.ui.widgets import BigButton  # noqa: F401 - the card's Undo button

Builder.load_file(str(Path(__file__).with_suffix(".kv")))

MAX_LINES = 8  # beyond this the card says how many more the log holds


class ResultCard(BoxLayout):
    title = StringProperty("")
    text = StringProperty("")
    shown = BooleanProperty(False)
    # the most height the frame leaves the card (0: a third of the window); its lines
    # scroll inside it beyond that, so a game's board below it stays whole on screen
    most = NumericProperty(0)
    least = NumericProperty(0)  # the height of the title and the lines' least room

    def on_touch_down(self, touch: Any) -> bool:
        """A card put away has no height but its Undo keeps its size, and a disabled
        widget swallows the touches it covers: put away, it lets every touch through (to
        the top bar's Settings, which it sat under once it moved beside the game)."""
        return bool(self.shown and super().on_touch_down(touch))

    def on_touch_up(self, touch: Any) -> bool:
        return bool(self.shown and super().on_touch_up(touch))

    def refresh(self, session: Any) -> None:
        step = session.last_step() if session is not None else None
        if step is None:
            self.title, self.text, self.shown = "", "", False
            return
        lines = [escape_markup(line) for line in step["lines"]]
        if len(lines) > MAX_LINES:
            kept = lines[: MAX_LINES - 1]
            # the steps taken by themselves are named, so the card says the round moved on
            then = [
                escape_markup(t)
                for t in step.get("then", [])
                if t not in step["lines"][: len(kept)]
            ]
            more = f"Then: {'; '.join(then)} (the rest in the Log)" if then else ""
            lines = [*kept, more or f"... and {len(lines) - len(kept)} more in the Log"]
        self.title = escape_markup(step["title"])
        self.text = "\n".join(lines)
        self.shown = True
