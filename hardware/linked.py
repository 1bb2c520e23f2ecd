"""What every connected source shares: a queue of roll events, a status for the dice
panel, and reconnection with backoff that never blocks the game."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass

from hardware.source import DiceSource, RollEvent

log = logging.getLogger("hardware")


class DiceSourceError(Exception):
    """A source could not do what was asked; the message is for the player."""


@dataclass
class Backoff:
    """Waits between reconnection attempts: first, doubling, capped."""

    first: float = 0.2
    factor: float = 2.0
    cap: float = 5.0

    def delays(self) -> Iterator[float]:
        delay = self.first
        while True:
            yield delay
            delay = min(self.cap, delay * self.factor)


class LinkedSource(DiceSource):
    """A source with a live link.  Subclasses implement `_open()` and `_close()` and call
    `_deliver(event)` and `_lost(reason)`; reconnection, status and the queue live here."""

    lost_after = 5  # failed attempts before the panel says "lost" (it keeps trying)

    def __init__(self, name: str, backoff: Backoff | None = None) -> None:
        self.name = name
        self.status = "disconnected"
        self.backoff = backoff or Backoff()
        self._queue: asyncio.Queue[RollEvent] = asyncio.Queue()
        self._reconnect_task: asyncio.Task[None] | None = None
        self._closing = False
        self.listeners: list[Callable[[RollEvent], None]] = []
        self.reconnects = 0

    async def _open(self) -> None:
        raise NotImplementedError

    async def _close(self) -> None:
        raise NotImplementedError

    def _deliver(self, event: RollEvent) -> None:
        for listener in list(self.listeners):
            listener(event)
        self._queue.put_nowait(event)

    async def rolls(self) -> AsyncIterator[RollEvent]:
        while True:
            yield await self._queue.get()

    def _lost(self, reason: str) -> None:
        """The link broke: say so, then keep trying to get it back."""
        if self._closing or self.status == "reconnecting":
            return
        log.warning("%s: connection lost (%s); reconnecting", self.name, reason)
        self.status = "reconnecting"
        self._reconnect_task = asyncio.get_running_loop().create_task(self._reconnect())

    async def _reconnect(self) -> None:
        await self._close()
        for attempt, delay in enumerate(self.backoff.delays(), start=1):
            await asyncio.sleep(delay)
            if self._closing:
                return
            try:
                await self._open()
            except (TimeoutError, DiceSourceError, OSError) as exc:
                log.info("%s: reconnection attempt %d failed: %s", self.name, attempt, exc)
                await self._close()
                if attempt >= self.lost_after:
                    self.status = "lost"
                continue
            self.status = "connected"
            self.reconnects += 1
            log.info("%s: reconnected after %d attempt(s)", self.name, attempt)
            return

    async def disconnect(self) -> None:
        self._closing = True
        task = self._reconnect_task
        if task is not None and task is not asyncio.current_task():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        await self._close()
        self.status = "disconnected"
