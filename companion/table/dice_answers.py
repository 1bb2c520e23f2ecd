"""Turning settled dice into answers for the session's dice request (the table layer:
the dice adapters in `hardware/` report faces and know no session; here a face becomes
the game value the session's request asks for).

Every source's rolls go through one `RequestAnswerer`, so the tray, a Pixels die and the
virtual roller all answer the same way: the requested dice (by the player's assignments,
matched on the request's player, role and die profile, never its words) settle, their
faces become game values through the request's profile, and
`session.answer(values, by=<source>)` records them.  A crooked die or a face the profile
does not have gives the player a message instead, and nothing is recorded.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from typing import Protocol

from companion.core.rules import DIE_FACES, Request, RuleError
from companion.table.assignments import Assignments
from hardware.source import CROOKED, ROLLING, SETTLED, RollEvent
from hardware.virtual import BY as VIRTUAL_BY
from hardware.virtual import VirtualRoller

ANSWER_TIMEOUT = 20.0  # seconds before the screen offers on-screen entry


class DiceSession(Protocol):
    """What answering needs of a session (companion.core.session.Session is one): the
    pending command (a new one starts a new collection of dice) and its request, and a
    way to answer it."""

    @property
    def pending(self) -> object: ...

    @property
    def request(self) -> Request | None: ...

    def answer(self, values: list[int], by: str) -> object: ...


class RequestAnswerer:
    def __init__(
        self,
        session: DiceSession,
        assignments: Assignments | None = None,
        die_faces: dict[str, int] | None = None,
        timeout: float = ANSWER_TIMEOUT,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.session = session
        self.assignments = assignments or Assignments()
        self.die_faces = die_faces if die_faces is not None else {}
        self.timeout = timeout
        self.clock = clock
        self._pending: object = None  # the session's pending command the values are for
        self._opened = 0.0
        self._values: list[tuple[str, int, str]] = []  # (die, value, face label)
        self._seen: set[tuple[str, int, str]] = set()
        self._timed_out = False
        self.last: RollEvent | None = None  # the last result taken, with its game value

    # -- which dice answer what ------------------------------------------------------------

    def eligible(self, request: Request) -> list[str] | None:
        """The dice that may answer `request`, by its fields (`Assignments.claiming`);
        None means any die no role has claimed."""
        return self.assignments.claiming(request)

    def _may_answer(self, die: str, request: Request, pool: list[str] | None) -> bool:
        if pool is not None:
            return die in pool
        if self.assignments.role_of(die) is not None:
            return False  # it plays another role
        faces = self.die_faces.get(die)
        return faces is None or faces == len(DIE_FACES.get(request.profile, ()))

    # -- feeding -------------------------------------------------------------------------

    def _current(self) -> Request | None:
        pending = self.session.pending
        if pending is not self._pending:
            self._pending = pending
            self._values = []
            self._opened = self.clock()
            self._timed_out = False
        request = self.session.request
        return request if request is not None and request.kind == "dice" else None

    def feed(self, event: RollEvent) -> str | None:
        """One roll event; returns what to tell the player, if anything."""
        request = self._current()
        if request is None:
            return None
        key = (event.die_id, event.seq, event.state)
        if key in self._seen:
            return None
        self._seen.add(key)
        pool = self.eligible(request)
        if not self._may_answer(event.die_id, request, pool):
            return None
        name = event.die_id
        # One value per die when there are enough dice (a re-roll replaces that die's
        # value); otherwise the one die is rolled again and again, and every result counts.
        one_each = pool is None or len(pool) >= request.count
        if event.state == ROLLING:
            if one_each:
                self._drop(name)
            return None
        if event.state == CROOKED:
            if one_each:
                self._drop(name)
            return f"{name} landed crooked or was set down by hand: roll it again"
        if event.state != SETTLED:
            return None
        faces = DIE_FACES.get(request.profile)
        if faces is None:
            return f"the game asked for a '{request.profile}' die, which no die here can answer"
        if not 0 <= event.face_index < len(faces):
            self._drop(name)
            return (
                f"{name} reported face {event.face_index + 1}, but the {request.profile} has "
                f"only {len(faces)} faces: check which die this is and roll it again"
            )
        label, value = faces[event.face_index]
        self.last = replace(event, value=value)
        if one_each:
            self._drop(name)
        self._values.append((name, value, label))
        if len(self._values) < request.count:
            return None
        return self._answer(request, event.source)

    def _drop(self, die: str) -> None:
        self._values = [v for v in self._values if v[0] != die]

    def _answer(self, request: Request, by: str) -> str:
        taken = self._values[: request.count]
        values = [v for _, v, _ in taken]
        shown = ", ".join(label for _, _, label in taken)
        try:
            self.session.answer(values, by=by)
        except RuleError as exc:
            self._values = []
            return f"the roll was not accepted: {exc.message}"
        return f"{request.describe()}: rolled {shown}"

    def overdue(self) -> str | None:
        """Once per request, when no die answered in time: offer on-screen entry."""
        request = self._current()
        if request is None or self._timed_out:
            return None
        if self.clock() - self._opened < self.timeout:
            return None
        self._timed_out = True
        return (
            f"no dice answered for {self.timeout:g} s: enter the roll on screen "
            f"({request.describe()})"
        )


def roll_virtually(session: DiceSession, roller: VirtualRoller | None = None) -> str:
    """The virtual roller (`hardware.virtual`) rolls what the session's pending request
    asks for, and its values answer it, stored `by="virtual roller"` like any source's;
    returns what was rolled, in words."""
    request = session.request
    if request is None or request.kind != "dice":
        raise RuleError("nothing is waiting for dice right now")
    roller = roller or VirtualRoller()
    events = roller.roll(request.profile, DIE_FACES.get(request.profile, ()), request.count)
    faces = [DIE_FACES[request.profile][e.face_index] for e in events]
    session.answer([value for _label, value in faces], by=VIRTUAL_BY)
    shown = ", ".join(label for label, _value in faces)
    return f"{request.describe()}: rolled {shown}"
