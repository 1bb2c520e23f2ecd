"""The session's words: the log's rows told from the core's entries and the game's own
descriptions, for the result card, the action log and the CLI.

Why apart from the engine: nothing here changes the state or the file.  The narrator
reads the log's rows and the state the engine folded, and says them the way the rules
word them (`Game.describe`, `answer_words`, `headline`, `names`), so a screen, a phone
and the CLI say one thing in one way.

The action log is told here too, a line and its kind per row (`log_lines`): what a row
means (a step the table took, a heading the rules say opens a new part of the game, a
line of what followed, a row the log leaves out) is the session's and the rules' to say.
A screen that worked it out read meaning from event-type names ("...Started" made a
heading) and worded rows again; now the rules mark their headings (`Events.headings`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from companion.core import entries
from companion.core.checking import checked_words, unchecked
from companion.core.engine import Engine
from companion.core.entries import (
    CardChecked,
    CommandDone,
    CommandIssued,
    Corrected,
    Redone,
    RequestAnswered,
    RequestOpened,
    SessionStarted,
    Undone,
)
from companion.core.game import Game
from companion.core.headline import Headline, lead
from companion.core.log import Log
from companion.core.rules import Event
from companion.core.store import Row

UNCHECKED_STEPS = 40  # steps looked back over for cards brought into play, at most

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


@dataclass(frozen=True)
class LogLine:
    """One line of the action log: its words (plain text) and its kind."""

    text: str
    kind: LineKind


def by_words(by: str) -> str:
    """Who answered a roll or a draw, as the log says it ("on the keypad")."""
    return BY_WORDS.get(by, f"from {by}" if by else "")


class Narrator:
    """Words for one session, from its log and the engine's state and content."""

    def __init__(self, log: Log, engine: Engine) -> None:
        self.log = log
        self.engine = engine
        self._content_names: tuple[object, dict[str, str]] | None = None  # by content

    @property
    def game(self) -> Game:
        return self.engine.game

    def names(self) -> dict[str, str]:
        """What the table calls each id an event may hold: every card and board of the
        loaded packs by its name (what the packs hold, never guessed from the id), then
        the game's own names read off the state (heroes from a pack, combat roles)."""
        content = self.engine.content
        if self._content_names is None or self._content_names[0] is not content:
            self._content_names = (
                content,
                {
                    item_id: title
                    for items in content.items.values()
                    for item_id, item in items.items()
                    if isinstance(title := getattr(item, "title", None), str) and title
                },
            )
        return {**self._content_names[1], **self.game.names(self.engine.state)}

    def describe(self, row: Row, names: Mapping[str, str] | None = None) -> str:
        """One log row in words.  `names` (from `names()`): pass it when describing many
        rows, so the packs' and the state's names are gathered once, not once a row."""
        entry = entries.read(row.type, row.data)
        if entry is None:
            return self.game.describe(
                Event(row.type, row.data), self.names() if names is None else names
            )
        if isinstance(entry, SessionStarted):
            return f"New game of {self.game.title}"
        if isinstance(entry, CommandIssued):
            return str(entry.label or entry.name.replace("_", " "))
        if isinstance(entry, RequestOpened):
            return f"Waiting: {entry.asked.describe()}"
        if isinstance(entry, RequestAnswered):
            return self.answer_words(entry, names)
        if isinstance(entry, Corrected):
            return f"Corrected {entry.path}: {entry.previous} -> {entry.value}"
        if isinstance(entry, Undone):
            return "Undo"
        if isinstance(entry, Redone):
            return "Redo"
        if isinstance(entry, CardChecked):
            return checked_words(entry, self.names() if names is None else names, self.game)
        assert isinstance(entry, CommandDone)
        return ""

    def answer_words(self, answered: RequestAnswered, names: Mapping[str, str] | None) -> str:
        request = answered.asked
        names = self.names() if names is None else names
        values = answered.values
        # the game's own words for what the answer was (a target roll, a card revealed by
        # the Start Player, the Enemy AI card): who drew or rolled is the rules' to say
        if text := self.game.answer_words(request, values, names):
            return text
        who = f"{request.who_name}: " if request.for_ or request.who else ""
        if request.kind == "draw":
            return f"{who}drew {names.get(str(values), values)}"
        shown = ", ".join(str(v) for v in values) if isinstance(values, list) else str(values)
        return f"{who}rolled {shown} on the {request.die_name}"

    def headline(self, row: Row, names: Mapping[str, str] | None = None) -> Headline | None:
        """One log row as news for the result card's headline, if the rules say it is:
        a game event by the game's events table, a roll or card by the game's
        `answer_headline` (core/headline.py)."""
        names = self.names() if names is None else names
        entry = entries.read(row.type, row.data)
        if isinstance(entry, RequestAnswered):
            return self.game.answer_headline(entry.asked, entry.values, names)
        if entry is not None:
            return None
        return self.game.headline(Event(row.type, row.data), names)

    def last_step(self) -> dict[str, Any] | None:
        """What the last step of the game did, in the rules' words, for the result card.

        `title` says what was done, `lines` what followed from it (each event described by
        the game), `waiting` what the table must do next, if anything.  Steps the session
        took by itself after the table's step are on its card: their words follow its lines,
        and `then` names them alone, for a card with no room for every line.
        """
        alive = self.log.chain.alive
        if len(alive) <= 1:
            return None
        first = len(alive) - 1
        while first > 0 and self.engine.is_auto(alive[first]):
            first -= 1
        skip = ("RequestOpened", "CommandDone")
        names = self.names()
        # what the step just taken names by its role ("the opponent") is today's: the
        # game may name it so for the card (the Log keeps the words of every step)
        names = {**names, **self.game.step_names(self.engine.state)}
        lines: list[str] = []
        then: list[str] = []  # the steps taken by itself, for a card too short for all lines
        news: list[Headline] = []
        for n, tx in enumerate(alive[first:]):
            rows = self.log.rows(tx)
            if n:  # a step taken by itself: what it was, then what it did
                then.append(self.describe(rows[0], names))
                lines.append(then[-1])
            lines += [
                text for r in rows[1:] if r.type not in skip and (text := self.describe(r, names))
            ]
            news += [h for r in rows if (h := self.headline(r, names)) is not None]
        head = self.log.rows(alive[first])[0]
        title = self.describe(head, names)
        if head.type == "RequestAnswered":  # the dice or card: the step they answered leads
            asked = self._asking_step(alive[:first])
            if asked is not None:
                lines.insert(0, title)
                title = self.describe(asked, names)
        title = title[:1].upper() + title[1:]
        request = self.engine.request
        return {
            "tx": alive[-1],
            "title": title,
            "lines": lines,
            "then": then,
            "waiting": request.describe() if request else None,
            # the news, most important first; a step with none is its own headline
            "headlines": lead(news) or [Headline("step", "", title)],
        }

    def _asking_step(self, before: list[int]) -> Row | None:
        """The command whose request the answers at the end of `before` follow ("Boss
        attacks", an opponent's action), so a card titles a roll by what it was for."""
        for tx in reversed(before):
            head = self.log.head(tx)
            if isinstance(head, CommandIssued):
                return self.log.rows(tx)[0]
            if not isinstance(head, RequestAnswered):
                return None
        return None

    def unchecked(self) -> list[str]:
        """The cards brought into play since the table was last free (no roll or card
        asked for) whose numbers are still the demo's: the result card offers to check
        them against the group's printed cards once nothing is waited on."""
        alive = self.log.chain.alive
        first = len(alive) - 1
        while first > 0 and len(alive) - first < UNCHECKED_STEPS:
            head = self.log.head(alive[first])
            asked = self.log.rows(alive[first - 1])[-1].type == "RequestOpened"
            if not (
                asked
                or isinstance(head, CardChecked | RequestAnswered)
                or self.engine.is_auto(alive[first])
            ):
                break
            first -= 1
        rows = [row for tx in alive[first:] for row in self.log.rows(tx)]
        # what a request may be answered with is not in play yet: what answered it is
        skip = ("CardChecked", "RequestOpened")
        values: list[object] = [row.data for row in rows if row.type not in skip]
        if first == 0:  # the set-up: the cards it starts facing
            values.insert(0, self.game.faced(self.engine.state))
        return unchecked(self.engine.content, values, self.game.played_kinds)

    def history_of(self, tx: int) -> list[Row]:
        """One transaction's rows (what an undo took back)."""
        return list(self.log.rows(tx))

    def history(self) -> list[list[Row]]:
        """The transactions that make up the game now, oldest first (for the action log)."""
        return [self.log.rows(tx) for tx in self.log.chain.alive]

    # -- the action log ------------------------------------------------------------------

    def log_lines(self) -> list[LogLine]:
        """The game's history as the action log shows it, oldest first."""
        names = self.names()
        return [
            line
            for rows in self.history()
            for row in rows
            if (line := self.log_line(row, names)) is not None
        ]

    def log_line(self, row: Row, names: Mapping[str, str]) -> LogLine | None:
        """One row as a log line, or None for a row the log leaves out (what a request
        waits for is on the dice panel; the answer says what came).  `names` is
        `names()`, gathered once for the whole log."""
        entry = entries.read(row.type, row.data)
        if isinstance(entry, CommandIssued):  # the rules' label, as the result card says
            words = self.describe(row, names)
            return LogLine(words[:1].upper() + words[1:], "step")
        if isinstance(entry, RequestOpened):
            return None
        if isinstance(entry, RequestAnswered):
            return LogLine(self._answer_line(entry, names), "line")
        if isinstance(entry, Corrected):
            before = "-" if entry.previous is None else entry.previous
            return LogLine(f"Corrected {entry.path}: {before} to {entry.value}", "line")
        text = self.describe(row, names)
        if not text:
            return None
        heading = entry is None and self.game.heading(Event(row.type, row.data))
        return LogLine(text, "heading" if heading else "line")

    def _answer_line(self, answered: RequestAnswered, names: Mapping[str, str]) -> str:
        """A roll or a card in the log: the rules' own words for it (who flipped the card,
        a target roll) and who answered it, else what came up ("Rolled: 2 on the keypad",
        "Card: Silver tapped")."""
        request = answered.asked
        by = by_words(answered.by)
        text = self.game.answer_words(request, answered.values, names)
        if text:
            return f"{text} {by}".rstrip()
        values = answered.values
        what = ", ".join(str(v) for v in values) if isinstance(values, list) else str(values)
        if request.kind != "dice":
            what = names.get(what, what)
        verb = "Rolled" if request.kind == "dice" else "Card"
        return f"{verb}: {what} {by}".rstrip()
