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
from kivy.utils import escape_markup

from companion.core.rules import Request

Builder.load_file(str(Path(__file__).with_suffix(".kv")))

HEADING_WORDS = ("Round", "Chapter", "Turn", "Level")


def is_heading(event_type: str) -> bool:
    return event_type.endswith("Started") and any(w in event_type for w in HEADING_WORDS)


def _values(values: Any) -> str:
    if isinstance(values, list):
        return ", ".join(str(v) for v in values)
    return str(values)


def _by(by: str) -> str:
    return {
        "keypad": "on the keypad",
        "tap": "tapped",
        "camera": "seen by the camera",
        "cli": "from the command line",
        "virtual roller": "by the virtual roller",
    }.get(by, f"from {by}" if by else "")


def line_for(session: Any, row: Any, names: dict[str, str]) -> str:
    """One log row in words for the table; the core's records get friendlier wording.
    `names` is `session.names()`, gathered once for the whole log."""
    d = row.data
    if row.type == "CommandIssued":  # the rules' label for it, as the result card says
        words = session.describe(row, names)
        return f"[b]{escape_markup(words[:1].upper() + words[1:])}[/b]"
    if row.type == "RequestOpened":
        return ""  # the dice panel shows what is waiting; the answer says what came
    if row.type == "RequestAnswered":
        # the rules' own words for it: who flipped the card, a target roll
        request = Request.from_json(d.get("request", {"kind": "dice"}))
        text = session.game.answer_words(request, d.get("values"), names)
        if text:
            return str(escape_markup(f"{text} {_by(d.get('by', ''))}".rstrip()))
        kind = d.get("request", {}).get("kind", "dice")
        what = _values(d.get("values"))
        if kind != "dice":
            what = names.get(what, what)
        verb = "Rolled" if kind == "dice" else "Card"
        return str(escape_markup(f"{verb}: {what} {_by(d.get('by', ''))}".rstrip()))
    if row.type == "Corrected":
        before = "-" if d.get("previous") is None else d.get("previous")
        return str(escape_markup(f"Corrected {d['path']}: {before} to {d['value']}"))
    return str(escape_markup(session.describe(row, names)))


def log_lines(session: Any) -> list[dict[str, Any]]:
    """The RecycleView's data: one dict per line in words, headings flagged."""
    lines = []
    names = session.names()
    for rows in session.history():
        for row in rows:
            text = line_for(session, row, names)
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
