"""The session's engine: the state folded from the log, and every call that extends it.

Each call a table makes is its own method: a game command (`do`), an answer to chance
(`answer`), a correction (`correct`), a card checked (`check_card`), `undo` and `redo`,
and the steps the rules mark auto (`take_auto_steps`).  Each decides one transaction as a
`Plan` (what to write, how memory follows) and hands it to `commit`, which the session
supplies: it owns the file's write lock, the caller's guard and the listeners.  The fold
keeps in-memory checkpoints for a fast undo; the log (core/log.py) holds the snapshots.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import msgspec

from companion.content.pack import Content
from companion.core import entries
from companion.core.actions import names_choice
from companion.core.arguments import check_command, check_inputs, unused_details
from companion.core.checking import base_content, checked_card, current_content
from companion.core.corrections import apply_correction, verify_correction
from companion.core.entries import (
    Asked,
    CardChecked,
    CommandDone,
    CommandIssued,
    Corrected,
    Entry,
    Redone,
    RequestAnswered,
    RequestOpened,
    SessionStarted,
    Undone,
)
from companion.core.fingerprint import rules_fingerprint
from companion.core.game import Game
from companion.core.log import Log
from companion.core.rules import Action, Chance, ChanceNeeded, Command, Event, Request, RuleError
from companion.core.shape import convert_state
from companion.core.store import Row, SessionDamaged, SessionFileError

log = logging.getLogger(__name__)

AUTO_MOST = 4  # steps taken by themselves in a row, at most (a rules bug cannot loop)
CHECKPOINT_EVERY = 20  # chain transactions between in-memory checkpoints (fast undo)


@dataclass
class Pending:
    """A command waiting on chance: what was asked, and the answers given so far."""

    command: Command
    request: Request
    answers: list[object] = field(default_factory=list)

    def entry(self) -> RequestOpened:
        return RequestOpened(
            command=Asked(self.command.name, self.command.args),
            request=self.request.to_json(),
            answers=self.answers,
        )

    def to_json(self) -> dict[str, object]:
        """As its `RequestOpened` row holds it (what a phone's view keys its waiting on)."""
        data: dict[str, object] = msgspec.to_builtins(self.entry())
        return data

    @classmethod
    def of(cls, opened: RequestOpened) -> Pending:
        asked = opened.command
        return cls(Command(asked.name, dict(asked.args)), opened.asked, list(opened.answers))


@dataclass(frozen=True)
class Result:
    """What an accepted command did: its transaction, events, and what is asked next."""

    tx: int
    events: list[Event]
    request: Request | None


@dataclass
class Plan:
    """One decided transaction: what to write, how memory follows, and what to report.

    `follow` reports whatever request is open afterwards (undo and redo bring one back)."""

    head: Entry
    body: list[tuple[str, dict[str, object]]]
    apply: Callable[[], None]
    events: list[Event]
    request: Request | None = None
    follow: bool = False

    def rows(self) -> list[tuple[str, dict[str, object]]]:
        return [entries.written(self.head), *self.body]


Commit = Callable[[Callable[[], Plan]], Result]


class Engine:
    """The rules applied to one session's log.  `commit` writes a decided plan (the
    session's, under its lock); the engine decides, folds and keeps memory in step."""

    def __init__(self, log: Log, game: Game, content: Content, commit: Commit) -> None:
        self.log = log
        self.game = game
        self.loaded = content  # the packs as they are on disk now
        self.base = content  # what the session started from (`checking.base_content`)
        self.checks: list[tuple[int, CardChecked]] = []  # every CardChecked, by tx
        self.content = content  # what the rules read now: the base and the cards checked
        self.state: Any = None
        self.pending: Pending | None = None
        self.auto_steps = False  # take the steps the rules mark auto (the app turns it on)
        self._commit = commit
        self._checkpoints: dict[int, bytes] = {}
        self._rules_version: str | None = None
        self._listed: tuple[int, list[Action]] | None = None  # `listed()`, and at which row

    @property
    def rules_version(self) -> str:
        """The fingerprint of the rules and content folding this session (snapshots)."""
        if self._rules_version is None:
            self._rules_version = rules_fingerprint(self.game, self.base)
        return self._rules_version

    @property
    def request(self) -> Request | None:
        return self.pending.request if self.pending else None

    # -- folding -------------------------------------------------------------------------

    def started(self, state: object) -> None:
        """A new session's state, as its first transaction left it."""
        self.state = state
        self.pending = None
        self._checkpoints[0] = self.freeze()

    def freeze(self) -> bytes:
        pending = msgspec.to_builtins(self.pending.entry()) if self.pending else None
        return msgspec.json.encode({"game": msgspec.to_builtins(self.state), "pending": pending})

    def _thaw(self, blob: bytes) -> None:
        data = msgspec.json.decode(blob)
        self.state = convert_state(data["game"], self.game.state_type)
        pending = data["pending"]
        self.pending = Pending.of(msgspec.convert(pending, RequestOpened)) if pending else None

    def _initial(self) -> None:
        rows = self.log.rows(0)
        head = entries.read(rows[0].type, rows[0].data) if rows else None
        if not isinstance(head, SessionStarted):
            raise SessionDamaged(self.log.path, "does not start with a new game", 0)
        self.state = self.game.initial_state(head.options, self.base)
        self.pending = None

    def load(self) -> None:
        """Fold the log into the state, starting from the newest snapshot that still fits.

        Everything is read in one read transaction: another program committing between
        reading the chain and noting the newest row would otherwise leave this one marked
        as having read a move it never folded, and it would answer a roll already answered.
        """
        with self.log.reading():
            self._fold_file()
        if self.log.stale:
            alive = self.log.chain.alive
            self.log.replace_snapshots(alive[-1], self.rules_version, self._checkpoints[alive[-1]])

    def _fold_file(self) -> None:
        self.checks = [(tx, head) for tx, head in self.log.heads() if isinstance(head, CardChecked)]
        self.base = base_content(self.loaded, self.game, self.checks)
        self._relayer()
        alive = self.log.chain.alive
        position = {tx: i for i, tx in enumerate(alive)}
        start = -1
        for tx, blob in self.log.snapshots(self.rules_version):
            try:
                self._thaw(blob)
            except (msgspec.DecodeError, msgspec.ValidationError, KeyError, TypeError):
                self.log.stale = True
                continue  # a bad snapshot is only a cache: fold instead
            start = position[tx]
            break
        if start < 0:
            self._initial()
            start = 0
        held = self.log.read_after(alive[start], set(alive[start + 1 :]))
        try:
            for tx in alive[start + 1 :]:
                for row in self.log.rows(tx):
                    self.apply(row)
        except (KeyError, TypeError, ValueError, RuleError) as exc:
            raise SessionDamaged(
                self.log.path, f"its events no longer fit the rules ({exc})", held
            ) from exc
        self._checkpoints = {alive[-1]: self.freeze()}

    def sync(self) -> None:
        """Catch up with transactions another process appended (a CLI beside the app).

        The session calls it inside the command's own write transaction, so nothing can
        be appended between catching up and writing: two programs never both answer one
        request.
        """
        if self.log.behind():
            self.log.forget()
            self._checkpoints.clear()
            self.load()

    def apply(self, row: Row) -> None:
        """Fold one row into the state: the core's entries by their kind, the rest by the
        game's events table."""
        entry = entries.read(row.type, row.data)
        if entry is None:
            self.game.evolve(self.state, Event(row.type, row.data))
        elif isinstance(entry, RequestOpened):
            self.pending = Pending.of(entry)
        elif isinstance(entry, CommandDone):
            self.pending = None
        elif isinstance(entry, Corrected):
            self.state = apply_correction(self.state, self.game.state_type, entry.path, entry.value)
        elif isinstance(entry, CardChecked):
            self._card_checked(entry)
        # the other entries say what a transaction is; the state follows from the rest
        # (a RequestAnswered's answers are carried in the next RequestOpened or the events)

    def refold_to(self, alive: list[int]) -> None:
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
            for row in self.log.rows(tx):
                self.apply(row)

    def committed(self, tx: int, rows: list[Row], plan: Plan) -> Result:
        """`plan` is written as transaction `tx`: the log, the layered content and the
        checkpoints follow it; what it did, for the listeners."""
        head = plan.head
        self.log.committed(tx, rows, head)
        if isinstance(head, CardChecked):
            self.checks.append((tx, head))
        if isinstance(head, CardChecked | Undone | Redone):
            self._relayer()
        if not isinstance(head, Undone | Redone):
            with contextlib.suppress(SessionFileError):  # a snapshot is only a cache
                self._maybe_checkpoint(tx)
        return Result(tx, plan.events, self.request if plan.follow else plan.request)

    def _maybe_checkpoint(self, tx: int) -> None:
        if len(self.log.chain.alive) % CHECKPOINT_EVERY == 0:
            self._checkpoints[tx] = self.freeze()
        if self.log.snapshot_due():
            blob = self._checkpoints.get(tx) or self.freeze()
            with self.log.transaction():
                self.log.put_snapshot(tx, self.rules_version, blob)

    def write_snapshot(self) -> None:
        """Store a snapshot of the state now (the engine also does so every SNAPSHOT_EVERY)."""
        with self.log.transaction():
            self.log.put_snapshot(self.log.chain.alive[-1], self.rules_version, self.freeze())

    def _card_checked(self, check: CardChecked) -> None:
        """What the state copied from a card (a boss's HP at set-up) follows its new
        numbers, where the game says how (its `card_checked` hook)."""
        schema = self.game.content_kinds[check.kind]
        before: object = msgspec.convert(check.before, schema, strict=True)
        after: object = msgspec.convert(check.after, schema, strict=True)
        self.game.card_checked(self.state, before, after)

    def _relayer(self) -> None:
        """The content the rules read now: the base with the checks still in play."""
        self.content = current_content(self.base, self.game, self.checks, self.log.chain.alive)

    # -- deciding ------------------------------------------------------------------------

    def _run(self, command: Command, answers: list[object]) -> tuple[list[Event], Request | None]:
        chance = Chance(answers)
        try:
            events = self.game.decide(self.state, command, chance, self.content)
        except ChanceNeeded as need:
            return [], need.request
        if chance.used < len(answers):
            raise RuleError("more answers were given than the rules asked for")
        for e in events:
            if entries.is_entry(e.type):
                raise RuleError(f"the rules emitted a reserved event name: {e.type}")
        return events, None

    def _carry_on(
        self,
        command: Command,
        events: list[Event],
        request: Request | None,
        answers: list[object],
    ) -> tuple[list[tuple[str, dict[str, object]]], Callable[[], None]]:
        """The rows a command's events end with (waiting on chance, or done) and how the
        state follows them."""
        following = Pending(command, request, answers) if request else None
        body: list[tuple[str, dict[str, object]]] = [(e.type, e.data) for e in events]
        body.append(entries.written(following.entry() if following else CommandDone()))

        def apply() -> None:
            for e in events:
                self.game.evolve(self.state, e)
            self.pending = following

        return body, apply

    def do(self, name: str, args: Mapping[str, object] | None = None) -> Result:
        """Run a game command, then the steps that take themselves after it.  RuleError
        leaves the log and the state exactly as they were."""
        return self._then_auto(self._command(name, given(name, args)))

    def _command(
        self, name: str, args: dict[str, object], auto: bool = False, label: str | None = None
    ) -> Result:
        """One game command as one transaction; `auto` marks a step the engine took by
        itself (see `take_auto_steps`), whose `label` the listing it came from already gave."""

        def decide() -> Plan:
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
            body, apply = self._carry_on(command, events, request, [])
            words = self._label_for(name, args) if label is None else label
            head = CommandIssued(name=name, args=args)
            if words:
                head.label = words
            if auto:
                head.auto = True
            return Plan(head, body, apply, events, request)

        return self._commit(decide)

    def answer(self, values: object, by: str = "keypad") -> Result:
        """Answer the pending request (dice values or a card id) and carry on the command."""

        def decide() -> Plan:
            if self.pending is None:
                raise RuleError("nothing is waiting for dice or a card right now")
            pending = self.pending
            try:
                value = pending.request.check(values)
            except (TypeError, ValueError, OverflowError):
                raise RuleError(f"that is not an answer to: {pending.request.describe()}") from None
            answers = [*pending.answers, value]
            events, request = self._run(pending.command, answers)
            body, apply = self._carry_on(pending.command, events, request, answers)
            head = RequestAnswered(values=value, by=str(by), request=pending.request.to_json())
            return Plan(head, body, apply, events, request)

        return self._then_auto(self._commit(decide))

    def correct(self, path: str, value: object) -> Result:
        """Set any state field to what the table shows, if the rules can still play on.

        Checked against the state's shape, the loaded content and the game's own
        invariants (see corrections.verify_correction) before anything is written.
        """

        def decide() -> Plan:
            previous = verify_correction(
                self.game, self.state, self.content, path, value, self._recent_commands()
            )
            head = Corrected(path=path, value=value, previous=previous)

            def apply() -> None:
                self.state = apply_correction(self.state, self.game.state_type, path, value)

            return Plan(head, [], apply, [Event(*entries.written(head))])

        return self._commit(decide)

    def check_card(
        self, card_id: str, card: Mapping[str, object] | None = None, pack: str = ""
    ) -> Result:
        """The table checked a card against the printed one: `card` holds its numbers
        (None: they match the demo's).  Logged as one step, so it applies from now on
        and one Undo takes it back; the caller writes it into the group's pack `pack`."""

        def decide() -> Plan:
            head = checked_card(self.game, self.content, card_id, card, pack)
            return Plan(head, [], lambda: self._card_checked(head), [Event(*entries.written(head))])

        return self._commit(decide)

    def undo(self) -> Result:
        """Take back the last step.  Steps the engine took by itself go back together,
        and first: the table is then where its own last tap left it, with that step (or
        the chance to do something else first) in front of it."""
        chain = self.log.chain
        result = self._undo_one()
        while chain.redo and self.is_auto(chain.redo[-1]):
            if len(chain.alive) <= 1 or not self.is_auto(chain.alive[-1]):
                break
            result = self._undo_one()
        return result

    def _undo_one(self) -> Result:
        def decide() -> Plan:
            alive = self.log.chain.alive
            if len(alive) <= 1:
                raise RuleError("there is nothing to undo")
            remaining = alive[:-1]
            head = Undone(tx=alive[-1])
            events = [Event(*entries.written(head))]
            return Plan(head, [], lambda: self.refold_to(remaining), events, follow=True)

        return self._commit(decide)

    def redo(self) -> Result:
        """Bring back the last step taken back; steps taken by themselves after it come
        back with it, as `undo` took them."""
        result = self._redo_one()
        while self.log.chain.redo and self.is_auto(self.log.chain.redo[-1]):
            result = self._redo_one()
        return result

    def _redo_one(self) -> Result:
        def decide() -> Plan:
            if not self.log.chain.redo:
                raise RuleError("there is nothing to redo")
            target = self.log.chain.redo[-1]

            def apply() -> None:
                for row in self.log.rows(target):
                    self.apply(row)

            head = Redone(tx=target)
            return Plan(head, [], apply, [Event(*entries.written(head))], follow=True)

        return self._commit(decide)

    def take_auto_steps(self) -> list[Result]:
        """Take the steps the rules mark `auto` while nothing waits, each its own transaction.

        Why: a step with no choice in it that only asks the table for dice or a card (the
        next round's card, the boss's attack roll) costs the table a tap and tells it
        nothing.  The rules say which steps those are (an action listed with `"auto":
        True`); the engine takes them only when `auto_steps` is on (the app's screens),
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
                step = self._command(
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

    def is_auto(self, tx: int) -> bool:
        """Whether transaction `tx` is a step the engine took by itself."""
        head = self.log.head(tx)
        return isinstance(head, CommandIssued) and bool(head.auto)

    def _recent_commands(self, most: int = 30) -> list[Command]:
        """The last distinct commands played in this game, newest first (to try a
        correction with what this table actually does)."""
        seen: dict[str, Command] = {}
        for tx in reversed(self.log.chain.alive):
            head = self.log.head(tx)
            if isinstance(head, CommandIssued):
                command = head.command
                seen.setdefault(
                    repr((command.name, sorted(command.args.items(), key=str))), command
                )
                if len(seen) >= most:
                    break
        return list(seen.values())

    def _listed_or_none(self) -> list[Action]:
        try:
            return self.listed()
        except Exception:  # a rules bug in listing must not block a command it does not list
            log.exception("legal_actions failed while checking a command's details")
            return []

    def _label_for(self, name: str, args: Mapping[str, object]) -> str:
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
            if action["do"] == name and names_choice(action, args):
                return action.get("label", "")
        return ""

    # -- reading -------------------------------------------------------------------------

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
                default: list[int] | str = [first] * request.count
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

        Why: after the table's step the engine lists them to find a step that takes
        itself, then the screen lists them for its buttons, the phone page for its own, and
        the next command for its label; a Direwild listing is some hundreds of actions.
        Every change to the state appends a row to the log, so the last row's number says
        when the list is stale.  The list is shared: a caller copies an action's `with`
        before changing it (as the screens do when they fill in a stepper's value).
        """
        if self._listed is None or self._listed[0] != self.log.last_seq:
            self._listed = (self.log.last_seq, self.game.legal_actions(self.state, self.content))
        return self._listed[1]


def given(name: object, args: object) -> dict[str, Any]:
    """A command's details as given from outside (a scenario, the CLI, a phone), refused
    in words unless it is a name with named values."""
    if not isinstance(name, str) or not name:
        raise RuleError("say which command to run, by its name")
    if args is not None and not isinstance(args, Mapping):
        raise RuleError(f"the details of '{name}' must be named values, e.g. {{\"n\": 1}}")
    return dict(args or {})
