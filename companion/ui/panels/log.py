"""The action log: every event in words, oldest first, with a heading at each new round.

A RecycleView keeps it quick after an evening's play (hundreds of lines); undo and redo
sit under it because that is where players look when something went wrong.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kivy.lang import Builder
from kivy.properties import BooleanProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label

Builder.load_file(str(Path(__file__).with_suffix(".kv")))

HEADING_WORDS = ("Round", "Chapter", "Turn", "Level")


def is_heading(event_type: str) -> bool:
    return event_type.endswith("Started") and any(w in event_type for w in HEADING_WORDS)


def log_lines(session: Any) -> list[dict[str, Any]]:
    """The RecycleView's data: one dict per line in words, headings flagged."""
    lines = []
    for rows in session.history():
        for row in rows:
            text = session.describe(row)
            if text:
                lines.append({"text": text, "heading": is_heading(row.type)})
    return lines


class LogLine(Label):
    heading = BooleanProperty(False)


class LogPanel(BoxLayout):
    def refresh(self, session: Any) -> None:
        self.ids.lines.data = log_lines(session) if session is not None else []
        self.ids.undo.disabled = session is None or len(session.chain.alive) <= 1
        self.ids.redo.disabled = session is None or not session.chain.redo
        self.ids.lines.scroll_y = 0
