"""The virtual roller as a dice source: dice rolled by the app for a table with no dice
to hand.

Each die lands on a face chosen at random, exactly as the core's virtual roller
(`companion.core.roller.virtual_answer`) chooses (a test holds the two to the same values
for the same generator; hardware reads nothing of the core but its rules contract).  This
source answers the session with them (stored as answers, so a replay never rolls again)
and shows each die on its `rolls()` stream like any source's.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import AsyncIterator

from companion.core.rules import DIE_FACES, RuleError
from hardware.answering import DiceSession
from hardware.source import ROLLING, SETTLED, DeviceInfo, DiceSource, RollEvent

BY = "virtual roller"


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

    def roll(self, profile: str, count: int = 1) -> list[RollEvent]:
        """Roll `count` dice of `profile`; returns the settled events (values filled in)."""
        faces = DIE_FACES.get(profile)
        if faces is None:
            raise RuleError(f"the virtual roller has no {profile}")
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

    def answer(self, session: DiceSession) -> str:
        """Roll what the session's pending request asks for and answer it."""
        request = session.request
        if request is None or request.kind != "dice":
            raise RuleError("nothing is waiting for dice right now")
        events = self.roll(request.profile, request.count)
        faces = [DIE_FACES[request.profile][e.face_index] for e in events]
        session.answer([value for _label, value in faces], by=BY)
        shown = ", ".join(label for label, _value in faces)
        return f"{request.describe()}: rolled {shown}"
