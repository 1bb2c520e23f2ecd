"""What every Bluetooth LE source shares: finding the device, connecting through
bleak-retry-connector (which rides out BlueZ's transient errors with backoff), noticing
a dropped link and getting it back, and turning a die's states into roll events once.

`client_backend`, `scanner_backend` and `radio_options` are handed to bleak's public
`backend=` arguments: the app leaves them empty (the platform's Bluetooth); tests and
the benchmark pass the in-memory radio of hardware/fake_radio.py.
"""

from __future__ import annotations

import contextlib
import logging
import time
from typing import Any, TypedDict, Unpack

from bleak import BleakClient, BleakScanner
from bleak.backends.client import BaseBleakClient
from bleak.backends.device import BLEDevice
from bleak.backends.scanner import AdvertisementData, BaseBleakScanner
from bleak.exc import BleakError
from bleak_retry_connector import establish_connection

from hardware.linked import Backoff, DiceSourceError, LinkedSource
from hardware.source import ROLLING, DeviceInfo, RollEvent

RESTED = "rested"  # a die's state after lying still unrolled: never delivered

log = logging.getLogger("hardware.ble")


class RollTracker:
    """One die's rolls without sequence numbers of its own: a roll number goes up when
    the die starts rolling (or reports a result it was not seen rolling for), repeated
    states collapse, and a resync that repeats the last result delivers nothing."""

    def __init__(self, source: str, die_id: str) -> None:
        self.source = source
        self.die_id = die_id
        self.rollno = 0
        self.state: str | None = None
        self.face = -1

    def prime(self, state: str, face: int) -> None:
        """The die's state when the app first met it: known, never delivered."""
        if self.state is None:
            self.state, self.face = state, face

    def rest(self, face: int) -> None:
        """The die lies on `face` without having been rolled (a Pixels die's onFace: set
        down or turned by hand).  Nothing is delivered: a roll it was seen starting ends
        without a result, and the face it lies on is not news when asked for again."""
        self.state, self.face = RESTED, face

    def update(self, state: str, face: int, now: float | None = None) -> RollEvent | None:
        now = time.monotonic() if now is None else now
        if state == ROLLING:
            if self.state == ROLLING:
                return None
            self.rollno += 1
        else:
            if self.state == state and self.face == face:
                return None  # the same result again (a repeat, or a resync)
            if self.state != ROLLING:
                self.rollno += 1  # a result the die was not seen rolling for
        self.state, self.face = state, face
        return RollEvent(
            self.die_id, face if state != ROLLING else -1, state, now, self.rollno, self.source
        )


class BleOptions(TypedDict, total=False):
    """How a BLE source is reached: its name (default: its kind), and bleak's `backend=`
    classes with their options (the tests' and the benchmark's in-memory radio)."""

    name: str
    client_backend: type[BaseBleakClient] | None
    scanner_backend: type[BaseBleakScanner] | None
    radio_options: dict[str, Any] | None  # bleak's backend keywords (air=...)
    backoff: Backoff | None


class BleSource(LinkedSource):
    """One BLE device.  Subclasses say which adverts they want (`matches`) and what to do
    once connected (`_start`), and call `_deliver` with what the device reports."""

    kind = "ble"
    scan_timeout = 10.0

    def __init__(self, address: str | None = None, **options: Unpack[BleOptions]) -> None:
        super().__init__(options.get("name") or self.kind, options.get("backoff"))
        self.address = address
        self.client_backend = options.get("client_backend")
        self.scanner_backend = options.get("scanner_backend")
        self.radio_options = dict(options.get("radio_options") or {})
        self.client: BleakClient | None = None
        self.battery_level: int | None = None
        self.rejected = 0

    # -- what subclasses provide ---------------------------------------------------------

    def matches(self, device: BLEDevice, adv: AdvertisementData) -> bool:
        raise NotImplementedError

    async def _start(self, client: BleakClient) -> None:
        raise NotImplementedError

    # -- bleak -------------------------------------------------------------------------

    def _scanner_kwargs(self) -> dict[str, Any]:
        if self.scanner_backend is None:
            return {}
        return {"backend": self.scanner_backend, **self.radio_options}

    def _client_kwargs(self) -> dict[str, Any]:
        if self.client_backend is None:
            return {}
        return {"backend": self.client_backend, **self.radio_options}

    def reject(self, reason: str) -> None:
        self.rejected += 1
        log.warning("%s: ignored a message: %s", self.name, reason)

    async def discover(self, timeout: float = 5.0) -> list[DeviceInfo]:
        found = await BleakScanner.discover(timeout, return_adv=True, **self._scanner_kwargs())
        return [
            DeviceInfo(
                d.address,
                adv.local_name or d.name or d.address,
                self.kind,
                self.advertised_battery(adv),
            )
            for d, adv in found.values()
            if self.matches(d, adv)
        ]

    def advertised_battery(self, adv: AdvertisementData) -> int | None:
        """The battery level a device puts in its adverts, where it does."""
        return None

    async def connect(self, device_id: str | None = None) -> None:
        if device_id:
            self.address = device_id
        self._closing = False
        try:
            await self._open()
        except BaseException:
            await self._close()
            raise
        self.status = "connected"

    async def _open(self) -> None:
        wanted = self.address

        def chosen(d: BLEDevice, adv: AdvertisementData) -> bool:
            return (wanted is None or d.address == wanted) and self.matches(d, adv)

        device = await BleakScanner.find_device_by_filter(
            chosen, timeout=self.scan_timeout, **self._scanner_kwargs()
        )
        if device is None:
            where = wanted or f"any {self.kind} device"
            raise DiceSourceError(f"{where} is not in range (is it switched on and charged?)")
        self.address = device.address
        try:
            client = await establish_connection(
                BleakClient,
                device,
                self.name,
                disconnected_callback=self._on_disconnect,
                max_attempts=3,
                **self._client_kwargs(),
            )
        except (BleakError, TimeoutError) as exc:
            raise DiceSourceError(f"could not connect to {device.address}: {exc}") from None
        self.client = client
        try:
            await self._start(client)
        except (BleakError, TimeoutError) as exc:
            raise DiceSourceError(f"{device.address} did not answer: {exc}") from None

    def _on_disconnect(self, client: BleakClient) -> None:
        if client is self.client:
            self.client = None
            self._lost("the device disconnected")

    async def _close(self) -> None:
        client, self.client = self.client, None
        if client is not None:
            with contextlib.suppress(BleakError, OSError):
                await client.disconnect()

    async def battery(self) -> int | None:
        return self.battery_level

    def _deliver_state(self, tracker: RollTracker, state: str | None, face: int) -> None:
        if state is None:
            return
        event = tracker.update(state, face if state != ROLLING else -1)
        if event is not None:
            self._deliver(event)
