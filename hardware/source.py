"""The one interface every dice source implements (tray over serial or BLE, smart dice,
the simulated tray, on-screen entry, the virtual roller).

Sources speak asyncio and yield `RollEvent`s; they know faces, not games.  The die's
*profile* (companion.core.rules.DIE_FACES) turns a face index into a game value once the
player has said which physical die plays which role; that is the table layer's
(`companion.table.dice_answers`), and a source imports nothing of the app.
"""

from __future__ import annotations

import abc
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

ROLLING, SETTLED, CROOKED = "rolling", "settled", "crooked"


@dataclass(frozen=True)
class RollEvent:
    die_id: str  # stable per physical die within its source ("tray:2", "pixels:5f3a...")
    face_index: int  # 0-based face the die reports
    state: str  # ROLLING | SETTLED | CROOKED
    timestamp: float  # monotonic seconds when the host received it
    seq: int  # the device's sequence number (duplicates are suppressed by it)
    source: str  # the source's name
    value: int | None = None  # game value through the die's profile, once assigned


@dataclass
class DeviceInfo:
    id: str
    name: str
    kind: str  # "tray-serial" | "tray-ble" | "pixels" | "godice" | "simulated" | ...
    battery: int | None = None
    connected: bool = False
    dice: list[str] = field(default_factory=list)
    die_names: dict[str, str] = field(default_factory=dict)  # a die's id -> its own name


class DiceSource(abc.ABC):
    """A place rolls come from.  `status` is shown in the dice panel."""

    name: str = "dice"
    status: str = "disconnected"  # "connected" | "reconnecting" | "lost" | "disconnected"

    @abc.abstractmethod
    async def discover(self, timeout: float = 5.0) -> list[DeviceInfo]: ...

    @abc.abstractmethod
    async def connect(self, device_id: str | None = None) -> None: ...

    @abc.abstractmethod
    async def disconnect(self) -> None: ...

    @abc.abstractmethod
    def rolls(self) -> AsyncIterator[RollEvent]: ...

    async def battery(self) -> int | None:
        return None

    async def identify(self, die_id: str) -> bool:
        """Blink the die so the player can tell which one it is; False where it cannot."""
        return False
