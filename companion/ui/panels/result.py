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


class CheckRow(BoxLayout):
    """The offer to check a card.  Hidden, it has no height but its buttons keep theirs:
    it lets every touch through then (a disabled row would swallow them, Undo's too)."""

    offered = BooleanProperty(False)

    def on_touch_down(self, touch: Any) -> bool:
        return bool(self.offered and super().on_touch_down(touch))

    def on_touch_up(self, touch: Any) -> bool:
        return bool(self.offered and super().on_touch_up(touch))


class ResultCard(BoxLayout):
    title = StringProperty("")
    text = StringProperty("")
    shown = BooleanProperty(False)
    # the most height the frame leaves the card (0: a third of the window); its lines
    # scroll inside it beyond that, so a game's board below it stays whole on screen
    most = NumericProperty(0)
    least = NumericProperty(0)  # the height of the title and the lines' least room
    # the first card of the step whose numbers are still the demo's (none: "")
    check_id = StringProperty("")
    check_words = StringProperty("")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._later: set[str] = set()  # cards the table put off checking, this session
        self._session: Any = None

    def on_touch_down(self, touch: Any) -> bool:
        """A card put away has no height but its Undo keeps its size, and a disabled
        widget swallows the touches it covers: put away, it lets every touch through (to
        the top bar's Settings, which it sat under once it moved beside the game)."""
        return bool(self.shown and super().on_touch_down(touch))

    def on_touch_up(self, touch: Any) -> bool:
        return bool(self.shown and super().on_touch_up(touch))

    def later(self) -> None:
        """Put this card off: play goes on, and it is offered again next session."""
        self._later.add(self.check_id)
        self._offer(self._session)

    def _offer(self, session: Any) -> None:
        cards = [c for c in session.unchecked() if c not in self._later] if session else []
        self.check_id = cards[0] if cards else ""
        name = session.names().get(self.check_id, self.check_id) if cards else ""
        self.check_words = f"{escape_markup(name)}: numbers still the demo's" if cards else ""

    def refresh(self, session: Any) -> None:
        if session is not self._session:
            self._later = set()
            self._session = session
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
        self._offer(session)
