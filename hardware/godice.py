"""GoDice read directly over BLE (Nordic UART), implemented from the protocol facts.

GoDice has no roll numbers and no way to ask for the current face, so after a
reconnection the next roll is the first news; a die picked up and turned by hand ("fake",
"moved") or leaning ("tilt") is reported crooked so the player rolls again.
"""

from __future__ import annotations

import logging
from typing import Unpack

from bleak import BleakClient
from bleak.backends.characteristic import BleakGATTCharacteristic
from bleak.backends.device import BLEDevice
from bleak.backends.scanner import AdvertisementData

from firmware.common import godice as gd
from hardware.ble import BleOptions, BleSource, RollTracker
from hardware.source import CROOKED, ROLLING, SETTLED, DeviceInfo

log = logging.getLogger("hardware.godice")

# Host to die, what only the app asks (the tray's part is in firmware/common/godice.py)
REQUEST_COLOUR = 0x17
SET_LEDS = 0x08
PULSE = 0x10
STOP_PULSE = 0x14


def pulse(
    count: int = 3, on: int = 10, off: int = 10, rgb: tuple[int, int, int] = (255,) * 3
) -> bytes:
    """Blink the die: pulse count, on and off time in 10 ms units, then the colour."""
    return bytes([PULSE, count, on, off, rgb[0], rgb[1], rgb[2], 1, 0])


def advertises(name: str) -> bool:
    """A GoDice is known by its advertised name."""
    return name.startswith(gd.NAME_PREFIX)


class GoDiceSource(BleSource):
    kind = "godice"

    def __init__(
        self, address: str | None = None, *, shell: str = "d6", **options: Unpack[BleOptions]
    ) -> None:
        if shell not in gd.SHELLS:
            raise ValueError(f"'{shell}' is not a GoDice shell (d4, d6, d8, d10, d10X, d12, d20)")
        super().__init__(address, **options)
        self.shell = shell
        self.colour: str | None = None
        self.tracker: RollTracker | None = None

    def matches(self, device: BLEDevice, adv: AdvertisementData) -> bool:
        return advertises(adv.local_name or device.name or "")

    @property
    def die_id(self) -> str:
        return f"godice:{self.address}"

    async def _start(self, client: BleakClient) -> None:
        if self.tracker is None:
            self.tracker = RollTracker(self.name, self.die_id)
        await client.start_notify(gd.NOTIFY, self._on_notify)
        await client.write_gatt_char(gd.WRITE, bytes([REQUEST_COLOUR]), response=False)
        await client.write_gatt_char(gd.WRITE, bytes([gd.REQUEST_BATTERY]), response=False)

    def _on_notify(self, _char: BleakGATTCharacteristic | None, data: bytearray) -> None:
        try:
            kind, value = gd.parse(data)
        except ValueError as exc:
            self.reject(str(exc))
            return
        tracker = self.tracker
        if tracker is None:
            self.reject("a message came before the die was connected")
        elif kind == "rolling":
            self._deliver_state(tracker, ROLLING, -1)
        elif kind in ("stable", "tilt", "fake", "moved") and isinstance(value, tuple):
            # turned, slid or leaning: not a roll (docs/dice.md, "Decisions")
            state = SETTLED if kind == "stable" else CROOKED
            self._deliver_state(tracker, state, gd.face_index(self.shell, *value))
        elif kind == "battery" and isinstance(value, int):
            self.battery_level = value
        elif kind == "colour" and isinstance(value, str):
            self.colour = value
        else:
            log.debug("%s: %s", self.name, kind)

    async def identify(self, die_id: str) -> bool:
        if self.client is None:
            return False
        await self.client.write_gatt_char(gd.WRITE, pulse(), response=False)
        return True

    def info(self) -> DeviceInfo:
        name = f"GoDice {self.colour or ''} ({self.shell})".replace("  ", " ")
        return DeviceInfo(
            self.die_id,
            name,
            self.kind,
            self.battery_level,
            self.status == "connected",
            [self.die_id],
            {self.die_id: name},
        )
