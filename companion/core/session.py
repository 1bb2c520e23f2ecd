"""A live session: the log, the state folded from it, and the commands that extend it.

Every accepted command is one transaction in the log.  Its first event says what kind of
transaction it is: `SessionStarted`, `CommandIssued` (a game command, perhaps left waiting
on a request), `RequestAnswered`, `Corrected`, `Undone` or `Redone`.  Undo and redo do not
delete anything; they choose which transactions make up the game's history (the
"chain"), so they survive a restart and can themselves be undone by redo.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import sqlite3
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import msgspec

from companion.content.pack import Content
from companion.content.yamlines import load_text
from companion.core import store as store_mod
from companion.core.arguments import check_command, check_inputs, unused_details
from companion.core.checking import (
    CARD_CHECKED,
    base_content,
    checked_card,
    checked_words,
    current_content,
    unchecked,
)
from companion.core.corrections import apply_correction, verify_correction
from companion.core.fingerprint import rules_fingerprint
from companion.core.game import Game
from companion.core.headline import Headline, lead
from companion.core.registry import UnknownGame, get_game, load_game_content
from companion.core.rules import (
    Action,
    Chance,
    ChanceNeeded,
    Command,
    Event,
    Request,
    RuleError,
)
from companion.core.shape import convert_state
from companion.core.store import Row, SessionDamaged, SessionFileError, Store

log = logging.getLogger(__name__)


def _digest(blob: bytes) -> str:
    return hashlib.blake2b(blob, digest_size=8).hexdigest()


SNAPSHOT_EVERY = 200  # chain transactions between snapshots written to the file
AUTO_MOST = 4  # steps taken by themselves in a row, at most (a rules bug cannot loop)
UNCHECKED_STEPS = 40  # steps looked back over for cards brought into play, at most
CHECKPOINT_EVERY = 20  # chain transactions between in-memory checkpoints (fast undo)

CORE_EVENTS = {
    "SessionStarted",
    "CommandIssued",
    "RequestOpened",
    "RequestAnswered",
    "CommandDone",
    "Corrected",
    "Undone",
    "Redone",
    CARD_CHECKED,
}


@dataclass
class Pending:
    """A command waiting on chance: what was asked, and the answers given so far."""

    command: Command
    request: Request
    answers: list[Any] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "command": {"name": self.command.name, "args": self.command.args},
            "request": self.request.to_json(),
            "answers": self.answers,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Pending:
        cmd = data["command"]
        return cls(
            Command(cmd["name"], cmd.get("args", {})),
            Request.from_json(data["request"]),
            list(data.get("answers", [])),
        )


@dataclass(frozen=True)
class Result:
    """What an accepted command did: its transaction, events, and what is asked next."""

    tx: int
    events: list[Event]
    request: Request | None


@dataclass
class _Plan:
    """One decided transaction: what to write, how memory follows, and what to report.

    `follow` reports whatever request is open afterwards (undo and redo bring one back)."""

    head: tuple[str, dict[str, Any]]
    body: list[tuple[str, dict[str, Any]]]
    apply: Callable[[], None]
    events: list[Event]
    request: Request | None = None
    follow: bool = False


@dataclass
class Chain:
    """Which transactions make up the history, worked out from undo and redo alone."""

    alive: list[int] = field(default_factory=list)
    redo: list[int] = field(default_factory=list)

    def add(self, tx: int, head: str, data: dict[str, Any]) -> None:
        if head == "Undone":
            if self.alive and self.alive[-1] == data.get("tx"):
                self.redo.append(self.alive.pop())
        elif head == "Redone":
            if self.redo and self.redo[-1] == data.get("tx"):
                self.alive.append(self.redo.pop())
        else:
            self.alive.append(tx)
            if head != "SessionStarted":
                self.redo.clear()


class Guard(Protocol):
    """A caller's condition on, and record in, one transaction (`Session.guarded`)."""

    def check(self) -> None:
        """Raise RuleError to refuse; runs after catching up, under the write lock."""

    def wrote(self, tx: int) -> None:
        """Write the caller's own record; runs inside the transaction that wrote `tx`."""


class Session:
    """One game at the table.  Not thread-safe: drive it from one thread or event loop."""

    def __init__(self, store: Store, game: Game, content: Content, meta: dict[str, Any]) -> None:
        self.store = store
        self.game = game
        self.loaded = content  # the packs as they are on disk now
        self._base = content  # what the session started from (`checking.base_content`)
        self._checks: list[tuple[int, dict[str, Any]]] = []  # every CardChecked, by tx
        self.content = content  # what the rules read now: the base and the cards checked
        self.meta = meta
        self.state: Any = None
        self.pending: Pending | None = None
        self.chain = Chain()
        self._events: dict[int, list[Row]] = {}
        self._checkpoints: dict[int, bytes] = {}
        self._last_seq = -1
        self._rules_version: str | None = None
        self._listeners: list[Callable[[Session, Result | None], None]] = []
        self.auto_steps = False  # take the steps the rules mark auto (the app turns it on)
        self._content_names: dict[str, str] | None = None  # the packs' names, by id (`names`)
        self._listed: tuple[int, list[Action]] | None = None  # `listed()`, and at which row
        self._guard: Guard | None = None  # see `guarded`

    # -- creating and opening ------------------------------------------------------------

    @property
    def path(self) -> Path:
        return self.store.path

    @property
    def id(self) -> str:
        return self.path.stem

    @property
    def rules_version(self) -> str:
        """The fingerprint of the rules and content folding this session (snapshots)."""
        if self._rules_version is None:
            self._rules_version = rules_fingerprint(self.game, self._base)
        return self._rules_version

    @classmethod
    def create(
        cls,
        path: Path,
        game: Game,
        options: dict[str, Any] | None = None,
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
        store = Store.create(path, meta)
        session = cls(store, game, content, meta)
        with store.transaction():
            rows = store.append(0, [("SessionStarted", {"game": game.id, "options": options})])
            session._write_summary(state)
        session.state = state
        session.chain.add(0, "SessionStarted", {})
        session._events[0] = rows
        session._last_seq = rows[-1].seq
        session._checkpoints[0] = session._freeze()
        return session

    @classmethod
    def open(cls, path: Path) -> Session:
        store = Store.open(path)
        try:
            meta = store.meta()
            if "game" not in meta:
                raise SessionDamaged(path, "has no game record", store_mod.count_recoverable(path))
            try:
                game = get_game(meta["game"])
            except UnknownGame as exc:
                raise store_mod.SessionFileError(path, str(exc)) from exc
            define = meta.get("define") or None
            content = load_game_content(
                game, meta.get("packs", ["demo"]), load_text(define, "define") if define else None
            )
            session = cls(store, game, content, meta)
            session._load()
        except BaseException:
            store.close()
            raise
        return session

    def close(self) -> None:
        self.store.close()

    def __enter__(self) -> Session:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    # -- folding -----------------------------------------------------------------------

    def _freeze(self) -> bytes:
        return msgspec.json.encode(
            {
                "game": msgspec.to_builtins(self.state),
                "pending": self.pending.to_json() if self.pending else None,
            }
        )

    def _thaw(self, blob: bytes) -> None:
        data = msgspec.json.decode(blob)
        self.state = convert_state(data["game"], self.game.state_type)
        self.pending = Pending.from_json(data["pending"]) if data["pending"] else None

    def _initial(self) -> None:
        rows = self._rows(0)
        if not rows or rows[0].type != "SessionStarted":
            raise SessionDamaged(self.path, "does not start with a new game", 0)
        self.state = self.game.initial_state(rows[0].data.get("options", {}), self._base)
        self.pending = None

    def _rows(self, tx: int) -> list[Row]:
        rows = self._events.get(tx)
        if rows is None:
            rows = self.store.tx_rows(tx)
            self._events[tx] = rows
        return rows

    def _load(self) -> None:
        """Fold the log into the state, starting from the newest snapshot that still fits."""
        self.chain = Chain()
        self._checks = []
        for tx, head, data in self.store.tx_heads():
            self.chain.add(tx, head, data)
            if head == CARD_CHECKED:
                self._checks.append((tx, data))
        self._base = base_content(self.loaded, self.game, self._checks)
        self._relayer()
        alive = self.chain.alive
        position = {tx: i for i, tx in enumerate(alive)}
        start = -1
        stale = False
        for tx, key in self.store.snapshots():
            rules, _, digest = key.partition("#")
            if rules != self.rules_version or tx not in position:
                stale = stale or rules != self.rules_version
                continue
            blob = self.store.snapshot(tx) or b""
            if digest != _digest(blob):
                stale = True
                continue  # a changed snapshot is only a damaged cache: fold instead
            try:
                self._thaw(blob)
            except (msgspec.DecodeError, msgspec.ValidationError, KeyError, TypeError):
                stale = True
                continue  # a bad snapshot is only a cache: fold instead
            start = position[tx]
            break
        if start < 0:
            self._initial()
            start = 0
        first_tx = alive[start]
        wanted = set(alive[start + 1 :])
        for row in self.store.rows(after_tx=first_tx):
            self._last_seq = row.seq
            if row.tx in wanted:
                self._events.setdefault(row.tx, []).append(row)
        try:
            for tx in alive[start + 1 :]:
                for row in self._events.get(tx, []):
                    self._apply(row)
        except (KeyError, TypeError, ValueError, RuleError) as exc:
            raise SessionDamaged(
                self.path, f"its events no longer fit the rules ({exc})", len(self._events)
            ) from exc
        self._last_seq = max(self._last_seq, self.store.last_seq())
        self._checkpoints = {alive[-1]: self._freeze()}
        if stale:
            self._replace_stale_snapshots(alive[-1])

    def write_snapshot(self) -> None:
        """Store a snapshot of the state now (the core also does so every SNAPSHOT_EVERY)."""
        tx = self.chain.alive[-1]
        with self.store.transaction():
            self._put_snapshot(tx, self._freeze())

    def _put_snapshot(self, tx: int, blob: bytes) -> None:
        """Stored with the rules' fingerprint and the blob's own digest, so a snapshot of
        other rules, or one changed on disk, is never trusted."""
        self.store.put_snapshot(tx, f"{self.rules_version}#{_digest(blob)}", blob)

    def _replace_stale_snapshots(self, tx: int) -> None:
        """Snapshots other rules wrote are dropped and one of today's state written.

        A file opened read-only keeps its old snapshots: they are never used anyway.
        """
        try:
            with self.store.transaction():
                self.store.db.execute("DELETE FROM snapshots")
                self._put_snapshot(tx, self._checkpoints[tx])
        except (sqlite3.Error, SessionFileError):
            pass  # read-only or locked: the stale snapshots are never used anyway

    def _apply(self, row: Row) -> None:
        etype, data = row.type, row.data
        if etype in ("SessionStarted", "CommandIssued", "Undone", "Redone"):
            return  # they say what a transaction is; the state follows from the rest
        if etype == "RequestOpened":
            self.pending = Pending.from_json(data)
        elif etype == "RequestAnswered":
            pass  # the answers are carried in the next RequestOpened or used by the events
        elif etype == "CommandDone":
            self.pending = None
        elif etype == "Corrected":
            self.state = apply_correction(
                self.state, self.game.state_type, data["path"], data["value"]
            )
        elif etype == CARD_CHECKED:
            self._card_checked(data)
        else:
            self.game.evolve(self.state, Event(etype, data))

    def _refold_to(self, alive: list[int]) -> None:
        """Rebuild the state for `alive` from the nearest in-memory checkpoint or snapshot."""
        for i in range(len(alive) - 1, -1, -1):
            blob = self._checkpoints.get(alive[i])
            if blob is not None:
                self._thaw(blob)
                start = i
                break
        else:
            self._initial()
            start = 0
        for tx in alive[start + 1 :]:
            for row in self._rows(tx):
                self._apply(row)

    # -- listening -----------------------------------------------------------------------

    def subscribe(self, listener: Callable[[Session, Result | None], None]) -> None:
        self._listeners.append(listener)

    def unsubscribe(self, listener: Callable[[Session, Result | None], None]) -> None:
        if listener in self._listeners:
            self._listeners.remove(listener)

    def _notify(self, result: Result | None) -> None:
        for listener in list(self._listeners):
            listener(self, result)

    # -- writing -----------------------------------------------------------------------

    def _write_summary(self, state: Any) -> None:
        self.store.set_meta("summary", self.game.summary(state) or "")

    def _sync(self) -> None:
        """Catch up with transactions another process appended (a CLI beside the app).

        Called inside the command's own write transaction, so nothing can be appended
        between catching up and writing: two programs never both answer one request.
        """
        if self.store.last_seq() != self._last_seq:
            self._events.clear()
            self._checkpoints.clear()
            self._load()

    def refresh(self) -> bool:
        """Take in what other programs wrote since; True if anything changed."""
        before = self._last_seq
        with self.store.reading():
            self._sync()
        return self._last_seq != before

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

    def _commit(self, decide: Callable[[], _Plan]) -> Result:
        """Decide and write one transaction under the file's write lock, then tell listeners.

        `decide` runs after catching up with other writers, inside the transaction; if it
        refuses, or writing fails (locked, read-only, full), the file and the state in
        memory are exactly as they were.
        """
        changed = False
        guard, self._guard = self._guard, None
        try:
            with self.store.transaction():
                self._sync()
                if guard is not None:
                    guard.check()
                plan = decide()
                tx = self.store.last_tx() + 1
                rows = self.store.append(tx, [plan.head, *plan.body])
                changed = True
                plan.apply()
                self._write_summary(self.state)
                if guard is not None:
                    guard.wrote(tx)
        except BaseException:
            if changed:
                self._refold_to(self.chain.alive)  # the transaction rolled back; so does memory
            raise
        self._events[tx] = rows
        self._last_seq = rows[-1].seq
        self.chain.add(tx, plan.head[0], plan.head[1])
        if plan.head[0] == CARD_CHECKED:
            self._checks.append((tx, plan.head[1]))
        if plan.head[0] in (CARD_CHECKED, "Undone", "Redone"):
            self._relayer()
        if plan.head[0] not in ("Undone", "Redone"):
            with contextlib.suppress(SessionFileError):  # a snapshot is only a cache
                self._maybe_checkpoint(tx)
        result = Result(tx, plan.events, self.request if plan.follow else plan.request)
        self._notify(result)
        return result

    def _maybe_checkpoint(self, tx: int) -> None:
        n = len(self.chain.alive)
        if n % CHECKPOINT_EVERY == 0:
            self._checkpoints[tx] = self._freeze()
        if n % SNAPSHOT_EVERY == 0:
            blob = self._checkpoints.get(tx) or self._freeze()
            with self.store.transaction():
                self._put_snapshot(tx, blob)

    def _run(self, command: Command, answers: list[Any]) -> tuple[list[Event], Request | None]:
        chance = Chance(answers)
        try:
            events = self.game.decide(self.state, command, chance, self.content)
        except ChanceNeeded as need:
            return [], need.request
        if chance.used < len(answers):
            raise RuleError("more answers were given than the rules asked for")
        for e in events:
            if e.type in CORE_EVENTS:
                raise RuleError(f"the rules emitted a reserved event name: {e.type}")
        return events, None

    def do(self, name: str, args: Mapping[str, Any] | None = None) -> Result:
        """Run a command.  RuleError leaves the log and the state exactly as they were."""
        if not isinstance(name, str) or not name:
            raise RuleError("say which command to run, by its name")
        if args is not None and not isinstance(args, Mapping):
            raise RuleError(f"the details of '{name}' must be named values, e.g. {{\"n\": 1}}")
        args = dict(args or {})
        if name == "correct":
            return self.correct(args.get("path", ""), args.get("value"))
        if name == "check_card":  # a scenario's or the shell's word for the table's check
            numbers = args.get("numbers")
            if numbers is not None and not isinstance(numbers, Mapping):
                raise RuleError("check_card's numbers are the card's fields, e.g. {attack: 9}")
            return self.check_card(str(args.get("card", "")), numbers, str(args.get("pack", "")))
        if name == "undo":
            return self.undo()
        if name == "redo":
            return self.redo()
        if name == "answer":
            return self.answer(args.get("values"), by=args.get("by", "cli"))
        return self._then_auto(self._do(name, args))

    def _do(
        self, name: str, args: dict[str, Any], auto: bool = False, label: str | None = None
    ) -> Result:
        """One game command as one transaction; `auto` marks a step the session took by
        itself (see `take_auto_steps`), whose `label` the listing it came from already gave."""

        def decide() -> _Plan:
            if self.pending is not None:
                raise RuleError(
                    f"waiting for: {self.pending.request.describe()}. Answer it, or undo to "
                    f"cancel '{self.pending.command.name}'"
                )
            listed = [] if auto else self._listed_or_none()
            check_command(name, args, listed)  # the details as given, once at the edge
            command = Command(name, args)
            events, request = self._run(command, [])
            check_inputs(name, args, listed)  # facts off the table in the range listed
            if not auto:
                unused_details(self.game, self.state, self.content, name, args, listed)
            body = [(e.type, e.data) for e in events]
            if request is not None:
                body.append(("RequestOpened", Pending(command, request, []).to_json()))
            else:
                body.append(("CommandDone", {}))

            def apply() -> None:
                for e in events:
                    self.game.evolve(self.state, e)
                self.pending = Pending(command, request, []) if request else None

            words = self._label_for(name, args) if label is None else label
            head = (
                "CommandIssued",
                {
                    "name": name,
                    "args": args,
                    **({"label": words} if words else {}),
                    **({"auto": True} if auto else {}),
                },
            )
            return _Plan(head, body, apply, events, request)

        return self._commit(decide)

    def take_auto_steps(self) -> list[Result]:
        """Take the steps the rules mark `auto` while nothing waits, each its own transaction.

        Why: a step with no choice in it that only asks the table for dice or a card (the
        next round's card, the boss's attack roll) costs the table a tap and tells it
        nothing.  The rules say which steps those are (an action listed with `"auto":
        True`); the session takes them only when `auto_steps` is on (the app's screens),
        so scenarios and the CLI still play every step by name.  Undo takes them back
        together, before the table's own last step (`undo`).
        """
        taken: list[Result] = []
        while self.auto_steps and self.pending is None and len(taken) < AUTO_MOST:
            try:
                listed = self.listed()
            except Exception:  # a rules bug must not block the step the table took
                log.exception("legal_actions failed while looking for a step to take")
                break
            action = next((a for a in listed if a.get("auto")), None)
            if action is None:
                break
            try:
                step = self._do(
                    action["do"], dict(action["with"]), auto=True, label=action.get("label", "")
                )
                taken.append(step)
            except RuleError:  # listed but refused: a rules bug; the table takes it by hand
                log.exception("the step '%s' the rules marked auto was refused", action["do"])
                break
        return taken

    def _then_auto(self, result: Result) -> Result:
        """`result`, and what the steps taken by themselves after it did and asked."""
        taken = self.take_auto_steps()
        if not taken:
            return result
        events = [*result.events, *(e for r in taken for e in r.events)]
        return Result(taken[-1].tx, events, taken[-1].request)

    def _is_auto(self, tx: int) -> bool:
        head = self._rows(tx)[0]
        return head.type == "CommandIssued" and bool(head.data.get("auto"))

    def _listed_or_none(self) -> list[Action]:
        try:
            return self.listed()
        except Exception:  # a rules bug in listing must not block a command it does not list
            log.exception("legal_actions failed while checking a command's details")
            return []

    def _label_for(self, name: str, args: Mapping[str, Any]) -> str:
        """The rules' own words for the command about to run (the label of the listed
        action it is), kept in the log so the result card and the log say "Reveal the
        Enemy AI card", not "reveal ai card".  '' when no listed action matches (a
        scenario or the CLI may send what the screens never offer)."""
        try:
            listed = self.listed()
        except Exception:  # the words are a nicety: a rules bug must not block the command
            log.exception("legal_actions failed while naming '%s'", name)
            return ""
        for action in listed:
            if action["do"] == name and _same_choice(action, args):
                return action.get("label", "")
        return ""

    def answer(self, values: Any, by: str = "keypad") -> Result:
        """Answer the pending request (dice values or a card id) and carry on the command."""

        def decide() -> _Plan:
            if self.pending is None:
                raise RuleError("nothing is waiting for dice or a card right now")
            pending = self.pending
            try:
                value = pending.request.check(values)
            except (TypeError, ValueError, OverflowError):
                raise RuleError(f"that is not an answer to: {pending.request.describe()}") from None
            answers = [*pending.answers, value]
            events, request = self._run(pending.command, answers)
            body = [(e.type, e.data) for e in events]
            following = Pending(pending.command, request, answers) if request else None
            body.append(
                ("RequestOpened", following.to_json()) if following else ("CommandDone", {})
            )

            def apply() -> None:
                for e in events:
                    self.game.evolve(self.state, e)
                self.pending = following

            head = (
                "RequestAnswered",
                {"values": value, "by": str(by), "request": pending.request.to_json()},
            )
            return _Plan(head, body, apply, events, request)

        return self._then_auto(self._commit(decide))

    def correct(self, path: str, value: Any) -> Result:
        """Set any state field to what the table shows, if the rules can still play on.

        Checked against the state's shape, the loaded content and the game's own
        invariants (see corrections.verify_correction) before anything is written.
        """

        def decide() -> _Plan:
            previous = verify_correction(
                self.game, self.state, self.content, path, value, self._recent_commands()
            )
            data = {"path": path, "value": value, "previous": previous}

            def apply() -> None:
                self.state = apply_correction(self.state, self.game.state_type, path, value)

            return _Plan(("Corrected", data), [], apply, [Event("Corrected", data)])

        return self._commit(decide)

    def check_card(
        self, card_id: str, card: Mapping[str, Any] | None = None, pack: str = ""
    ) -> Result:
        """The table checked a card against the printed one: `card` holds its numbers
        (None: they match the demo's).  Logged as one step, so it applies from now on
        and one Undo takes it back; the caller writes it into the group's pack `pack`."""

        def decide() -> _Plan:
            data = checked_card(self.game, self.content, card_id, card, pack)
            event = Event(CARD_CHECKED, data)

            def apply() -> None:
                self._card_checked(data)

            return _Plan((CARD_CHECKED, data), [], apply, [event])

        return self._commit(decide)

    def _card_checked(self, data: Mapping[str, Any]) -> None:
        """What the state copied from a card (a boss's HP at set-up) follows its new
        numbers, where the game says how (its `card_checked` hook)."""
        schema = self.game.content_kinds[data["kind"]]
        before: Any = msgspec.convert(data["before"], schema, strict=True)
        after: Any = msgspec.convert(data["after"], schema, strict=True)
        self.game.card_checked(self.state, before, after)

    def _relayer(self) -> None:
        """The content the rules read now: the base with the checks still in play."""
        self.content = current_content(self._base, self.game, self._checks, self.chain.alive)
        self._content_names = None

    def unchecked(self) -> list[str]:
        """The cards brought into play since the table was last free (no roll or card
        asked for) whose numbers are still the demo's: the result card offers to check
        them against the group's printed cards once nothing is waited on."""
        alive = self.chain.alive
        first = len(alive) - 1
        while first > 0 and len(alive) - first < UNCHECKED_STEPS:
            head = self._rows(alive[first])[0].type
            asked = self._rows(alive[first - 1])[-1].type == "RequestOpened"
            if not (
                asked or head in (CARD_CHECKED, "RequestAnswered") or self._is_auto(alive[first])
            ):
                break
            first -= 1
        rows = [row for tx in alive[first:] for row in self._rows(tx)]
        # what a request may be answered with is not in play yet: what answered it is
        skip = (CARD_CHECKED, "RequestOpened")
        values: list[Any] = [row.data for row in rows if row.type not in skip]
        if first == 0:  # the set-up: the cards it starts facing
            values.insert(0, self.game.faced(self.state))
        return unchecked(self.content, values, self.game.played_kinds)

    def _recent_commands(self, most: int = 30) -> list[Command]:
        """The last distinct commands played in this game, newest first (to try a
        correction with what this table actually does)."""
        seen: dict[str, Command] = {}
        for tx in reversed(self.chain.alive):
            head = self._rows(tx)[0]
            if head.type == "CommandIssued":
                command = Command(head.data["name"], dict(head.data.get("args") or {}))
                seen.setdefault(
                    repr((command.name, sorted(command.args.items(), key=str))), command
                )
                if len(seen) >= most:
                    break
        return list(seen.values())

    def undo(self) -> Result:
        """Take back the last step.  Steps the session took by itself go back together,
        and first: the table is then where its own last tap left it, with that step (or
        the chance to do something else first) in front of it."""
        result = self._undo_one()
        while self.chain.redo and self._is_auto(self.chain.redo[-1]):
            if len(self.chain.alive) <= 1 or not self._is_auto(self.chain.alive[-1]):
                break
            result = self._undo_one()
        return result

    def _undo_one(self) -> Result:
        def decide() -> _Plan:
            if len(self.chain.alive) <= 1:
                raise RuleError("there is nothing to undo")
            target = self.chain.alive[-1]
            remaining = self.chain.alive[:-1]
            head = ("Undone", {"tx": target})
            return _Plan(head, [], lambda: self._refold_to(remaining), [Event(*head)], follow=True)

        return self._commit(decide)

    def redo(self) -> Result:
        """Bring back the last step taken back; steps taken by themselves after it come
        back with it, as `undo` took them."""
        result = self._redo_one()
        while self.chain.redo and self._is_auto(self.chain.redo[-1]):
            result = self._redo_one()
        return result

    def _redo_one(self) -> Result:
        def decide() -> _Plan:
            if not self.chain.redo:
                raise RuleError("there is nothing to redo")
            target = self.chain.redo[-1]

            def apply() -> None:
                for row in self._rows(target):
                    self._apply(row)

            head = ("Redone", {"tx": target})
            return _Plan(head, [], apply, [Event(*head)], follow=True)

        return self._commit(decide)

    # -- reading -----------------------------------------------------------------------

    @property
    def request(self) -> Request | None:
        return self.pending.request if self.pending else None

    def to_json(self) -> dict[str, Any]:
        """The state as `companion state --json` prints it and scenarios' `expect` reads it."""
        out: dict[str, Any] = msgspec.to_builtins(self.state)
        out["requests"] = [self.pending.request.to_json()] if self.pending else []
        return out

    def actions(self) -> dict[str, Any]:
        """What may be done now, as `companion actions --json` prints it and screens render it.

        While a roll or draw waits, answering it is the only legal move: the request itself
        says what answers it (its `faces` and `count`, or its `options`).
        """
        outcome = self.game.outcome(self.state)
        request = self.request
        if request is not None:
            waiting = request.to_json()
            if request.kind == "dice":
                first = request.faces[0] if request.faces else 1
                inputs = {"values": {"faces": list(request.faces), "count": request.count}}
                default: Any = [first] * request.count
            else:
                inputs = {"values": {"choices": list(request.options)}}
                default = request.options[0] if request.options else ""
            answer: Action = {
                "do": "answer",
                "with": {"values": default},
                "label": request.describe(),
                "inputs": inputs,
                "primary": True,
            }
            return {"actions": [answer], "waiting": waiting, "outcome": outcome}
        return {"actions": self.listed(), "waiting": None, "outcome": outcome}

    def listed(self) -> list[Action]:
        """The game's legal actions for the state as it stands, listed once per change.

        Why: after the table's step the session lists them to find a step that takes
        itself, then the screen lists them for its buttons, the phone page for its own, and
        the next command for its label; a Direwild listing is some hundreds of actions.
        Every change to the state appends a row to the log, so the last row's number says
        when the list is stale.  The list is shared: a caller copies an action's `with`
        before changing it (as the screens do when they fill in a stepper's value).
        """
        if self._listed is None or self._listed[0] != self._last_seq:
            self._listed = (self._last_seq, self.game.legal_actions(self.state, self.content))
        return self._listed[1]

    def _answer_words(self, data: dict[str, Any], names: Mapping[str, str] | None) -> str:
        request = Request.from_json(data.get("request", {"kind": "dice"}))
        names = self.names() if names is None else names
        values = data.get("values")
        # the game's own words for what the answer was (a target roll, a card revealed by
        # the Start Player, the Enemy AI card): who drew or rolled is the rules' to say
        if text := self.game.answer_words(request, values, names):
            return text
        who = f"{request.who_name}: " if request.for_ or request.who else ""
        if request.kind == "draw":
            return f"{who}drew {names.get(str(values), values)}"
        shown = ", ".join(str(v) for v in values) if isinstance(values, list) else str(values)
        return f"{who}rolled {shown} on the {request.die_name}"

    def last_step(self) -> dict[str, Any] | None:
        """What the last step of the game did, in the rules' words, for the result card.

        `title` says what was done, `lines` what followed from it (each event described by
        the game), `waiting` what the table must do next, if anything.  Steps the session
        took by itself after the table's step are on its card: their words follow its lines,
        and `then` names them alone, for a card with no room for every line.
        """
        alive = self.chain.alive
        if len(alive) <= 1:
            return None
        first = len(alive) - 1
        while first > 0 and self._is_auto(alive[first]):
            first -= 1
        skip = ("RequestOpened", "CommandDone")
        names = self.names()
        # what the step just taken names by its role ("the opponent") is today's: the
        # game may name it so for the card (the Log keeps the words of every step)
        names = {**names, **self.game.step_names(self.state)}
        lines: list[str] = []
        then: list[str] = []  # the steps taken by itself, for a card too short for all lines
        news: list[Headline] = []
        for n, tx in enumerate(alive[first:]):
            rows = self._rows(tx)
            if n:  # a step taken by itself: what it was, then what it did
                then.append(self.describe(rows[0], names))
                lines.append(then[-1])
            lines += [
                text for r in rows[1:] if r.type not in skip and (text := self.describe(r, names))
            ]
            news += [h for r in rows if (h := self.headline(r, names)) is not None]
        head = self._rows(alive[first])[0]
        title = self.describe(head, names)
        if head.type == "RequestAnswered":  # the dice or card: the step they answered leads
            asked = self._asking_step(alive[:first])
            if asked is not None:
                lines.insert(0, title)
                title = self.describe(asked, names)
        title = title[:1].upper() + title[1:]
        return {
            "tx": alive[-1],
            "title": title,
            "lines": lines,
            "then": then,
            "waiting": self.request.describe() if self.request else None,
            # the news, most important first; a step with none is its own headline
            "headlines": lead(news) or [Headline("step", "", title)],
        }

    def headline(self, row: Row, names: Mapping[str, str] | None = None) -> Headline | None:
        """One log row as news for the result card's headline, if the rules say it is:
        a game event by the game's events table, a roll or card by the game's
        `answer_headline` (core/headline.py)."""
        names = self.names() if names is None else names
        if row.type == "RequestAnswered":
            request = Request.from_json(row.data.get("request", {"kind": "dice"}))
            return self.game.answer_headline(request, row.data.get("values"), names)
        if row.type in CORE_EVENTS:
            return None
        return self.game.headline(Event(row.type, row.data), names)

    def _asking_step(self, before: list[int]) -> Row | None:
        """The command whose request the answers at the end of `before` follow ("Boss
        attacks", an opponent's action), so a card titles a roll by what it was for."""
        for tx in reversed(before):
            head = self._rows(tx)[0]
            if head.type == "CommandIssued":
                return head
            if head.type != "RequestAnswered":
                return None
        return None

    def history_of(self, tx: int) -> list[Row]:
        """One transaction's rows (what an undo took back)."""
        return list(self._rows(tx))

    def history(self) -> list[list[Row]]:
        """The transactions that make up the game now, oldest first (for the action log)."""
        return [self._rows(tx) for tx in self.chain.alive]

    def describe(self, row: Row, names: Mapping[str, str] | None = None) -> str:
        """One log row in words.  `names` (from `names()`): pass it when describing many
        rows, so the packs' and the state's names are gathered once, not once a row."""
        d = row.data
        if row.type == "SessionStarted":
            return f"New game of {self.game.title}"
        if row.type == "CommandIssued":
            return str(d.get("label") or d["name"].replace("_", " "))
        if row.type == "RequestOpened":
            return f"Waiting: {Request.from_json(d['request']).describe()}"
        if row.type == "RequestAnswered":
            return self._answer_words(d, names)
        if row.type == "CommandDone":
            return ""
        if row.type == "Corrected":
            return f"Corrected {d['path']}: {d['previous']} -> {d['value']}"
        if row.type == "Undone":
            return "Undo"
        if row.type == "Redone":
            return "Redo"
        if row.type == CARD_CHECKED:
            return checked_words(d, self.names() if names is None else names, self.game)
        return self.game.describe(Event(row.type, d), self.names() if names is None else names)

    def names(self) -> dict[str, str]:
        """What the table calls each id an event may hold: every card and board of the
        loaded packs by its name (what the packs hold, never guessed from the id), then
        the game's own names read off the state (heroes from a pack, combat roles)."""
        if self._content_names is None:
            self._content_names = {
                item_id: title
                for items in self.content.items.values()
                for item_id, item in items.items()
                if isinstance(title := getattr(item, "title", None), str) and title
            }
        return {**self._content_names, **self.game.names(self.state)}


def _same_choice(action: Mapping[str, Any], args: Mapping[str, Any]) -> bool:
    """Whether `args` is the choice `action` lists: every listed value the same, except
    the table facts (`inputs`), which the table sets."""
    facts = set(action.get("inputs", {}))

    def walk(listed: Mapping[str, Any], given: Mapping[str, Any], prefix: str) -> bool:
        for key, value in listed.items():
            path = f"{prefix}{key}"
            if path in facts:
                continue
            other = given.get(key) if isinstance(given, Mapping) else None
            if isinstance(value, Mapping):
                if not walk(value, other if isinstance(other, Mapping) else {}, f"{path}."):
                    return False
            elif other != value:
                return False
        return True

    return walk(action["with"], args, "")
