"""The dice sources the app knows about, and where their rolls go.

Each source runs as one asyncio task on the app's single loop (Kivy's `async_run`), so a
roll never blocks the screen.  Rolls are routed through the dice helper's
`hardware.answering.RequestAnswerer` when it is installed; until then a minimal router
turns settled faces into game values with the requested profile (DIE_FACES) and answers.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from companion.core.rules import DIE_FACES, RuleError
from hardware.source import SETTLED, DiceSource, RollEvent

BATTERY_EVERY = 60.0  # seconds between battery readings: radios are slow and batteries slow


@dataclass
class SourceView:
    """What the dice panel shows for one source."""

    name: str
    status: str
    battery: int | None

    @property
    def alarming(self) -> bool:
        return self.status in ("lost", "reconnecting")


@dataclass
class _FallbackRouter:
    """Collects settled dice until the pending request has enough, then answers it."""

    session: Any
    held: list[int] = field(default_factory=list)

    def feed(self, event: RollEvent) -> str | None:
        request = self.session.request
        if event.state != SETTLED or request is None or request.kind != "dice":
            return None
        value = event.value
        if value is None:
            faces = DIE_FACES.get(request.profile, ())
            if not 0 <= event.face_index < len(faces):
                return f"{event.die_id} showed a face the {request.profile} does not have"
            value = faces[event.face_index][1]
        self.held.append(value)
        if len(self.held) < request.count:
            return f"{len(self.held)} of {request.count} dice read"
        values, self.held = self.held[: request.count], []
        try:
            self.session.answer(values, by=event.source)
        except RuleError as exc:
            return exc.message
        return f"{event.source} answered {', '.join(map(str, values))}"


def make_answerer(session: Any, assignments: dict[str, list[str]]) -> Any:
    try:
        from hardware.answering import RequestAnswerer
    except ImportError:
        return _FallbackRouter(session)
    return RequestAnswerer(session, assignments)


class DiceHub:
    """The app's registry of dice sources; tells the screen when anything changes."""

    def __init__(self, on_change: Callable[[], None] | None = None) -> None:
        self.sources: list[DiceSource] = []
        self.batteries: dict[str, int | None] = {}
        self.message = ""
        self.answerer: Any = None
        self.seen_dice: list[str] = []  # die ids seen rolling, offered in dice assignments
        self._tasks: list[asyncio.Task] = []
        self._on_change = on_change or (lambda: None)

    def attach(self, session: Any, assignments: dict[str, list[str]]) -> None:
        self.answerer = make_answerer(session, assignments) if session is not None else None

    def views(self) -> list[SourceView]:
        return [SourceView(s.name, s.status, self.batteries.get(s.name)) for s in self.sources]

    @property
    def alarm(self) -> str:
        """A sentence for the banner when a device is lost or reconnecting, else ''."""
        bad = [v for v in self.views() if v.alarming]
        return "; ".join(f"{v.name} {v.status}" for v in bad)

    def add(self, source: DiceSource) -> None:
        """Register a source and, when a loop is running, start reading it."""
        self.sources.append(source)
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            loop = None
        if loop is not None:
            self._tasks.append(loop.create_task(self._pump(source)))
            self._tasks.append(loop.create_task(self._watch_battery(source)))
        self._on_change()

    def feed(self, event: RollEvent) -> str | None:
        if event.die_id not in self.seen_dice:
            self.seen_dice.append(event.die_id)
            self._on_change()
        if self.answerer is None:
            return None
        message = self.answerer.feed(event)
        if message:
            self.message = message
            self._on_change()
        return message

    async def _pump(self, source: DiceSource) -> None:
        try:
            async for event in source.rolls():
                self.feed(event)
        except Exception as exc:  # a broken radio must not take the app down
            self.message = f"{source.name} stopped: {exc}"
            source.status = "lost"
        self._on_change()

    async def _watch_battery(self, source: DiceSource) -> None:
        while True:
            with contextlib.suppress(Exception):
                self.batteries[source.name] = await source.battery()
            self._on_change()
            await asyncio.sleep(BATTERY_EVERY)

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._tasks.clear()
        for source in self.sources:
            with contextlib.suppress(Exception):
                await source.disconnect()
