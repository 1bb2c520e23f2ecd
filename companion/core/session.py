"""A live session: the one object the screens, the CLI, the host and the table hold.

It is made of three parts, each with its own module: the log (`session.log`,
core/log.py: the file's transactions, the chain undo and redo choose, snapshots), the
engine (`session.engine`, core/engine.py: deciding each call and folding the state) and
the narrator (`session.narrator`, core/narrator.py: the words).  The session itself only
wires them: it opens and creates the file, writes each decided transaction under the
file's write lock with the caller's guard, and tells its listeners.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any, Protocol

from companion.content.pack import Content
from companion.content.yamlines import load_text
from companion.core.engine import Engine, Pending, Plan, Result, given
from companion.core.entries import SessionStarted
from companion.core.game import Game
from companion.core.headline import Headline
from companion.core.log import Chain, Log
from companion.core.narrator import Narrator
from companion.core.registry import UnknownGame, get_game, load_game_content
from companion.core.rules import Action, Request, RuleError
from companion.core.store import Row, SessionFileError, Store

# `Result` is what each call returns and each listener hears: part of the session's API
__all__ = ["Guard", "Listener", "Result", "Session"]

Listener = Callable[["Session", Result | None], None]


class Guard(Protocol):
    """A caller's condition on, and record in, one transaction (`Session.guarded`)."""

    def check(self) -> None:
        """Raise RuleError to refuse; runs after catching up, under the write lock."""

    def wrote(self, tx: int) -> None:
        """Write the caller's own record; runs inside the transaction that wrote `tx`."""


class Session:
    """One game at the table.  Not thread-safe: drive it from one thread or event loop."""

    def __init__(self, log: Log, game: Game, content: Content) -> None:
        self.log = log
        self.engine = Engine(log, game, content, self._commit)
        self.narrator = Narrator(log, self.engine)
        self._listeners: list[Listener] = []
        self._guard: Guard | None = None  # see `guarded`

    # -- creating and opening ------------------------------------------------------------

    @classmethod
    def create(
        cls,
        path: Path,
        game: Game,
        options: Mapping[str, object] | None = None,
        packs: Iterable[str] = ("demo",),
        define: str | None = None,
        content: Content | None = None,
    ) -> Session:
        """Start a new session file.  Bad set-up options raise RuleError and write nothing."""
        options = dict(options or {})
        packs = list(packs)
        if content is None:
            define_doc = load_text(define, "define") if define else None
            content = load_game_content(game, packs, define_doc)
        state = game.initial_state(options, content)
        meta = {"game": game.id, "packs": packs, "define": define or "", "options": options}
        started = SessionStarted(game=game.id, options=options)
        session = cls(Log.create(path, meta, started, game.summary(state) or ""), game, content)
        session.engine.started(state)
        return session

    @classmethod
    def open(cls, path: Path) -> Session:
        log = Log.open(path)
        try:
            meta = log.meta
            try:
                game = get_game(meta["game"])
            except UnknownGame as exc:
                raise SessionFileError(path, str(exc)) from exc
            define = meta.get("define") or None
            content = load_game_content(
                game, meta.get("packs", ["demo"]), load_text(define, "define") if define else None
            )
            session = cls(log, game, content)
            session.engine.load()
        except BaseException:
            log.close()
            raise
        return session

    def close(self) -> None:
        self.log.close()

    def __enter__(self) -> Session:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the parts, as the callers have always read them ---------------------------------

    @property
    def game(self) -> Game:
        return self.engine.game

    @game.setter
    def game(self, game: Game) -> None:
        """Another game's rules for this file (a test's stand-in for the table's)."""
        self.engine.game = game

    @property
    def store(self) -> Store:
        return self.log.store

    @property
    def path(self) -> Path:
        return self.log.path

    @property
    def id(self) -> str:
        return self.path.stem

    @property
    def meta(self) -> dict[str, Any]:
        return self.log.meta

    @property
    def last_seq(self) -> int:
        """The newest row this session has taken in, its own or another program's."""
        return self.log.last_seq

    @property
    def chain(self) -> Chain:
        return self.log.chain

    @property
    def state(self) -> Any:
        return self.engine.state

    @property
    def pending(self) -> Pending | None:
        return self.engine.pending

    @property
    def request(self) -> Request | None:
        return self.engine.request

    @property
    def content(self) -> Content:
        return self.engine.content

    @property
    def loaded(self) -> Content:
        return self.engine.loaded

    @property
    def rules_version(self) -> str:
        return self.engine.rules_version

    @property
    def auto_steps(self) -> bool:
        return self.engine.auto_steps

    @auto_steps.setter
    def auto_steps(self, on: bool) -> None:
        self.engine.auto_steps = on

    # -- listening -----------------------------------------------------------------------

    def subscribe(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def unsubscribe(self, listener: Listener) -> None:
        if listener in self._listeners:
            self._listeners.remove(listener)

    def _notify(self, result: Result | None) -> None:
        for listener in list(self._listeners):
            listener(self, result)

    # -- writing -------------------------------------------------------------------------

    def refresh(self) -> bool:
        """Take in what other programs wrote since; True if anything changed."""
        before = self.log.last_seq
        with self.log.reading():
            self.engine.sync()
        return self.log.last_seq != before

    @contextlib.contextmanager
    def guarded(self, guard: Guard) -> Iterator[None]:
        """Run the next transaction (only that one, not the steps taken by themselves after
        it) with `guard`: its `check()` runs after catching up with other writers, inside the
        write lock, so a caller's own condition (a phone's answer is to the roll waiting now)
        holds when the transaction is decided; its `wrote(tx)` writes the caller's own record
        (a phone's command number) in the same transaction, so both land or neither."""
        self._guard = guard
        try:
            yield
        finally:
            self._guard = None

    def _commit(self, decide: Callable[[], Plan]) -> Result:
        """Decide and write one transaction under the file's write lock, then tell listeners.

        `decide` runs after catching up with other writers, inside the transaction; if it
        refuses, or writing fails (locked, read-only, full), the file and the state in
        memory are exactly as they were.
        """
        changed = False
        guard, self._guard = self._guard, None
        try:
            with self.log.transaction():
                self.engine.sync()
                if guard is not None:
                    guard.check()
                plan = decide()
                tx, rows = self.log.append(plan.rows())
                changed = True
                plan.apply()
                self.log.write_summary(self.game.summary(self.engine.state) or "")
                if guard is not None:
                    guard.wrote(tx)
        except BaseException:
            if changed:  # the transaction rolled back; so does memory
                self.engine.refold_to(self.log.chain.alive)
            raise
        result = self.engine.committed(tx, rows, plan)
        self._notify(result)
        return result

    def write_snapshot(self) -> None:
        self.engine.write_snapshot()

    def do(self, name: str, args: Mapping[str, object] | None = None) -> Result:
        """Run a command by name, as scenarios, the CLI and the shell say it: a game
        command, or one of the table's own (`answer`, `correct`, `check_card`, `undo`,
        `redo`).  RuleError leaves the log and the state exactly as they were."""
        details = given(name, args)
        if name == "correct":
            return self.correct(details.get("path", ""), details.get("value"))
        if name == "check_card":  # a scenario's or the shell's word for the table's check
            numbers = details.get("numbers")
            if numbers is not None and not isinstance(numbers, Mapping):
                raise RuleError("check_card's numbers are the card's fields, e.g. {attack: 9}")
            card = str(details.get("card", ""))
            return self.check_card(card, numbers, str(details.get("pack", "")))
        if name == "undo":
            return self.undo()
        if name == "redo":
            return self.redo()
        if name == "answer":
            return self.answer(details.get("values"), by=details.get("by", "cli"))
        return self.engine.do(name, details)

    def answer(self, values: object, by: str = "keypad") -> Result:
        return self.engine.answer(values, by)

    def correct(self, path: str, value: object) -> Result:
        return self.engine.correct(path, value)

    def check_card(
        self, card_id: str, card: Mapping[str, object] | None = None, pack: str = ""
    ) -> Result:
        return self.engine.check_card(card_id, card, pack)

    def undo(self) -> Result:
        return self.engine.undo()

    def redo(self) -> Result:
        return self.engine.redo()

    def take_auto_steps(self) -> list[Result]:
        return self.engine.take_auto_steps()

    # -- reading -------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        return self.engine.to_json()

    def actions(self) -> dict[str, Any]:
        return self.engine.actions()

    def listed(self) -> list[Action]:
        return self.engine.listed()

    def names(self) -> dict[str, str]:
        return self.narrator.names()

    def describe(self, row: Row, names: Mapping[str, str] | None = None) -> str:
        return self.narrator.describe(row, names)

    def headline(self, row: Row, names: Mapping[str, str] | None = None) -> Headline | None:
        return self.narrator.headline(row, names)

    def last_step(self) -> dict[str, Any] | None:
        return self.narrator.last_step()

    def unchecked(self) -> list[str]:
        return self.narrator.unchecked()

    def history_of(self, tx: int) -> list[Row]:
        return self.narrator.history_of(tx)

    def history(self) -> list[list[Row]]:
        return self.narrator.history()
