"""An in-memory dice source: the outside world (a radio, a serial tray) faked at the edge.

It implements the real `hardware.source.DiceSource` interface; tests push rolls into it
and set its status and battery as a device would.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator

from hardware.source import SETTLED, DeviceInfo, DiceSource, RollEvent


class MemorySource(DiceSource):
    def __init__(self, name: str = "test tray", battery: int | None = 80) -> None:
        self.name = name
        self.status = "connected"
        self._battery = battery
        self._queue: asyncio.Queue[RollEvent | None] = asyncio.Queue()
        self._seq = 0

    async def discover(self, timeout: float = 5.0) -> list[DeviceInfo]:
        return [DeviceInfo(self.name, self.name, "memory", self._battery, True, ["mem:1"])]

    async def connect(self, device_id: str | None = None) -> None:
        self.status = "connected"

    async def disconnect(self) -> None:
        self.status = "disconnected"
        self._queue.put_nowait(None)

    async def battery(self) -> int | None:
        return self._battery

    def event(self, face_index: int, die: str = "mem:1", state: str = SETTLED) -> RollEvent:
        self._seq += 1
        return RollEvent(die, face_index, state, time.monotonic(), self._seq, self.name)

    def push(self, face_index: int, die: str = "mem:1", state: str = SETTLED) -> None:
        self._queue.put_nowait(self.event(face_index, die, state))

    async def rolls(self) -> AsyncIterator[RollEvent]:
        while True:
            event = await self._queue.get()
            if event is None:
                return
            yield event
