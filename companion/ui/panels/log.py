"""The action log: every event in words, oldest first, with a heading at each new round.

A RecycleView keeps it quick after an evening's play (hundreds of lines); undo and redo
sit under it because that is where players look when something went wrong.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from kivy.lang import Builder
from kivy.properties import BooleanProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.utils import escape_markup

if TYPE_CHECKING:
    from companion.core.session import Session

Builder.load_file(str(Path(__file__).with_suffix(".kv")))


def log_lines(session: Session) -> list[dict[str, str | bool]]:
    """The RecycleView's data: one dict per line of the narrator's log (core/narrator.py),
    its words as they are, a step the table took in bold, headings flagged."""
    lines: list[dict[str, str | bool]] = []
    for line in session.narrator.log_lines():
        text = escape_markup(line.text)
        if line.kind == "step":
            text = f"[b]{text}[/b]"
        lines.append({"text": text, "heading": line.kind == "heading"})
    return lines


class LogLine(Label):
    heading = BooleanProperty(False)


class LogPanel(BoxLayout):
    def refresh(self, session: Session | None) -> None:
        self.ids.lines.data = log_lines(session) if session is not None else []
        self.ids.undo.disabled = session is None or len(session.chain.alive) <= 1
        self.ids.redo.disabled = session is None or not session.chain.redo
        self.ids.lines.scroll_y = 0
