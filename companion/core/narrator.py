"""The action log in words: each row of the game's history as one line, with what kind of
line it is, for a log to render as it is given.

Why here and not in the log panel: what a row means (a step the table took, a heading the
rules say opens a new part of the game, a line of what followed, a row the log leaves
out) and its words are the session's and the rules' to say.  A screen that worked them
out read meaning from event-type names ("...Started" made a heading) and worded rows
again; now the rules mark their headings (`Events.headings`) and the core words its own
records here, once, for every log.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from companion.core.game import Game
from companion.core.rules import Event, Request
from companion.core.store import Row

# What a log line is: the table's own step (a command), a heading (a new round, turn or
# chapter, as the rules mark it), or a line of what followed.
LineKind = Literal["step", "heading", "line"]

# The dice and card sources, as the log says who answered (`RequestAnswered.by`).
BY_WORDS = {
    "keypad": "on the keypad",
    "tap": "tapped",
    "camera": "seen by the camera",
    "cli": "from the command line",
    "virtual roller": "by the virtual roller",
}


class History(Protocol):
    """What the narrator reads of a session."""

    @property
    def game(self) -> Game: ...

    def history(self) -> Sequence[Sequence[Row]]: ...

    def names(self) -> dict[str, str]: ...

    def describe(self, row: Row, names: Mapping[str, str] | None = None) -> str: ...


@dataclass(frozen=True)
class LogLine:
    """One line of the log: its words (plain text) and its kind."""

    text: str
    kind: LineKind


def by_words(by: str) -> str:
    """Who answered a roll or a draw, as the log says it ("on the keypad")."""
    return BY_WORDS.get(by, f"from {by}" if by else "")


def _values(values: Any) -> str:
    if isinstance(values, list):
        return ", ".join(str(v) for v in values)
    return str(values)


def answer_line(session: History, data: Mapping[str, Any], names: Mapping[str, str]) -> str:
    """A roll or a card: the rules' own words for it (who flipped the card, a target roll)
    and who answered it, else what came up ("Rolled: 2 on the keypad", "Card: Silver
    tapped")."""
    request = Request.from_json(data.get("request", {"kind": "dice"}))
    by = by_words(data.get("by", ""))
    text = session.game.answer_words(request, data.get("values"), names)
    if text:
        return f"{text} {by}".rstrip()
    kind = data.get("request", {}).get("kind", "dice")
    what = _values(data.get("values"))
    if kind != "dice":
        what = names.get(what, what)
    verb = "Rolled" if kind == "dice" else "Card"
    return f"{verb}: {what} {by}".rstrip()


def log_line(session: History, row: Row, names: Mapping[str, str]) -> LogLine | None:
    """One row of the history as a log line, or None for a row the log leaves out (what a
    request waits for is on the dice panel; the answer says what came).  `names` is
    `session.names()`, gathered once for the whole log."""
    d = row.data
    if row.type == "CommandIssued":  # the rules' label for it, as the result card says
        words = session.describe(row, names)
        return LogLine(words[:1].upper() + words[1:], "step")
    if row.type == "RequestOpened":
        return None
    if row.type == "RequestAnswered":
        return LogLine(answer_line(session, d, names), "line")
    if row.type == "Corrected":
        before = "-" if d.get("previous") is None else d.get("previous")
        return LogLine(f"Corrected {d['path']}: {before} to {d['value']}", "line")
    text = session.describe(row, names)
    if not text:
        return None
    heading = session.game.heading(Event(row.type, d))
    return LogLine(text, "heading" if heading else "line")


def log_lines(session: History) -> list[LogLine]:
    """The game's history as the log shows it, oldest first."""
    names = session.names()
    return [
        line
        for rows in session.history()
        for row in rows
        if (line := log_line(session, row, names)) is not None
    ]
