"""The virtual roller as a dice source: dice rolled by the app for a table with no dice
to hand.

Each die lands on a face chosen at random, exactly as the core's virtual roller
(`companion.core.roller.virtual_answer`) chooses (a test holds the two to the same values
for the same generator).  Hardware imports nothing of the app, so the caller hands it the
faces of the die to roll (the rules' `DIE_FACES`), written once.  The table layer answers
the session with them
(`companion.table.dice_answers.roll_virtually`: stored as answers, so a replay never
rolls again), and this source shows each die on its `rolls()` stream like any source's.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import AsyncIterator, Sequence

from hardware.source import ROLLING, SETTLED, DeviceInfo, DiceSource, RollEvent

BY = "virtual roller"


class NoSuchDie(ValueError):
    """The virtual roller was asked for a die it does not know (the message says which)."""


class VirtualRoller(DiceSource):
    name = "virtual"
    status = "connected"

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng or random.SystemRandom()
        self._queue: asyncio.Queue[RollEvent] = asyncio.Queue()
        self._rolls = 0

    async def discover(self, timeout: float = 5.0) -> list[DeviceInfo]:
        return [DeviceInfo("virtual", "virtual roller", "virtual", None, True)]

    async def connect(self, device_id: str | None = None) -> None:
        self.status = "connected"

    async def disconnect(self) -> None:
        self.status = "disconnected"

    async def rolls(self) -> AsyncIterator[RollEvent]:
        while True:
            yield await self._queue.get()

    def roll(
        self, profile: str, faces: Sequence[tuple[str, int]], count: int = 1
    ) -> list[RollEvent]:
        """Roll `count` dice of `profile`, whose faces read `faces` (label, value) in
        face-index order; returns the settled events (values filled in)."""
        if not faces:
            raise NoSuchDie(f"the virtual roller has no {profile}")
        self._rolls += 1
        out = []
        for i in range(count):
            die = f"virtual:{profile}:{i + 1}"
            index = self.rng.randrange(len(faces))  # the face it lands on
            value = faces[index][1]
            now = time.monotonic()
            self._queue.put_nowait(RollEvent(die, -1, ROLLING, now, self._rolls, self.name))
            event = RollEvent(die, index, SETTLED, now, self._rolls, self.name, value)
            self._queue.put_nowait(event)
            out.append(event)
        return out
