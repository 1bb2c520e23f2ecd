"""Pixels dice (GameWithPixels) read directly over BLE, both firmware generations."""

from __future__ import annotations

import asyncio
import logging
from typing import Unpack

from bleak import BleakClient
from bleak.backends.characteristic import BleakGATTCharacteristic
from bleak.backends.device import BLEDevice
from bleak.backends.scanner import AdvertisementData

from firmware.common import pixels as px
from hardware.ble import BleOptions, BleSource, RollTracker
from hardware.linked import DiceSourceError
from hardware.source import DeviceInfo

log = logging.getLogger("hardware.pixels")

# What only the app says to a die or reads from its adverts (the tray's part, and the
# decoding both share, is firmware/common/pixels.py)
COMPANY_IDS = (0x0D39, 0xFFFF)
REQUEST_ROLL_STATE = 23
BLINK = 29
BLINK_ACK = 30
REQUEST_BATTERY = 33
BLINK_ID = 65
BLINK_ID_ACK = 66


def request_roll_state() -> bytes:
    return bytes([REQUEST_ROLL_STATE])


def request_battery() -> bytes:
    return bytes([REQUEST_BATTERY])


def blink_id(brightness: int = 255, loops: int = 3) -> bytes:
    return bytes([BLINK_ID, brightness, loops])


def advertises(service_uuids: list[str], manufacturer_data: dict[int, bytes]) -> bool:
    """A Pixels die by its advert: today's service, or the old one (Nordic UART's, which
    GoDice and others use too) with a Pixels company id in the manufacturer data."""
    uuids = {u.lower() for u in service_uuids}
    if px.SERVICE in uuids:
        return True
    return px.LEGACY_SERVICE in uuids and any(c in manufacturer_data for c in COMPANY_IDS)


class PixelsSource(BleSource):
    kind = "pixels"

    def __init__(self, address: str | None = None, **options: Unpack[BleOptions]) -> None:
        super().__init__(address, **options)
        self.die_info: px.DieInfo | None = None
        self.tracker: RollTracker | None = None
        self._write_uuid = px.WRITE
        self._hello: asyncio.Event = asyncio.Event()
        self._blinked: asyncio.Event = asyncio.Event()

    def matches(self, device: BLEDevice, adv: AdvertisementData) -> bool:
        return advertises(adv.service_uuids, adv.manufacturer_data)

    def advertised_battery(self, adv: AdvertisementData) -> int | None:
        # manufacturer data: ledCount, design, rollState, faceIndex, battery (bit 7: charging)
        for company in COMPANY_IDS:
            data = adv.manufacturer_data.get(company)
            if data is not None and len(data) >= 5:
                return data[4] & 0x7F
        return None

    @property
    def die_id(self) -> str:
        if self.die_info is not None:
            return f"pixels:{self.die_info.pixel_id:08x}"
        return f"pixels:{self.address}"

    async def _start(self, client: BleakClient) -> None:
        if client.services.get_service(px.SERVICE) is not None:
            notify, self._write_uuid = px.NOTIFY, px.WRITE
        elif client.services.get_service(px.LEGACY_SERVICE) is not None:
            notify, self._write_uuid = px.LEGACY_NOTIFY, px.LEGACY_WRITE
        else:
            raise DiceSourceError(f"{self.address} has no Pixels service")
        self._hello = asyncio.Event()
        await client.start_notify(notify, self._on_notify)
        await self._write(px.who_are_you())
        try:
            await asyncio.wait_for(self._hello.wait(), 3.0)
        except TimeoutError:
            raise DiceSourceError(f"{self.address} did not say which die it is") from None
        await self._write(request_roll_state())

    async def _write(self, data: bytes) -> None:
        if self.client is not None:
            await self.client.write_gatt_char(self._write_uuid, data, response=False)

    def _on_notify(self, _char: BleakGATTCharacteristic | None, data: bytearray) -> None:
        kind = data[0] if data else None
        try:
            if kind == px.I_AM_A_DIE:
                self._met(px.parse_i_am_a_die(bytes(data)))
            elif kind == px.ROLL_STATE:
                self._roll(bytes(data))
            elif kind == px.BATTERY_LEVEL:
                self.battery_level = px.parse_battery(bytes(data))[0]
            elif kind in (BLINK_ID_ACK, BLINK_ACK):
                self._blinked.set()
            else:
                log.debug("%s: message type %s not used here", self.name, kind)
        except ValueError as exc:
            self.reject(str(exc))

    def _met(self, info: px.DieInfo) -> None:
        first = self.die_info is None
        self.die_info = info
        self.battery_level = info.battery
        if self.tracker is None:
            self.tracker = RollTracker(self.name, self.die_id)
        if first:
            try:
                state, face = px.reading(info, info.roll_state, info.face_index)
            except ValueError:
                state, face = None, -1  # no face it has: nothing known yet
            if state is not None:  # "rested" too: the face it lies on is not news
                self.tracker.prime(state, face)
        self._hello.set()

    def _roll(self, data: bytes) -> None:
        if self.tracker is None or self.die_info is None:
            self.reject("a roll came before the die said which die it is")
            return
        state, face = px.roll_result(self.die_info, data)
        if state == px.RESTED:
            # onFace: lying still without a roll (the vendor counts a roll on "rolled"
            # alone): not a result, and not crooked either (docs/dice.md)
            self.tracker.rest(face)
            return
        self._deliver_state(self.tracker, state, face)

    async def identify(self, die_id: str) -> bool:
        if self.client is None:
            return False
        self._blinked = asyncio.Event()
        await self._write(blink_id())
        try:
            await asyncio.wait_for(self._blinked.wait(), 1.0)
        except TimeoutError:
            return False
        return True

    def info(self) -> DeviceInfo:
        info = self.die_info
        name = f"Pixels {info.die_type if info else 'die'}"
        own = info.name if info and info.name else name  # the name its owner gave it
        return DeviceInfo(
            self.die_id,
            name,
            self.kind,
            self.battery_level,
            self.status == "connected",
            [self.die_id],
            {self.die_id: own},
        )
