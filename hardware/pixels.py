"""Pixels dice (GameWithPixels) read directly over BLE, both firmware generations."""

from __future__ import annotations

import asyncio
import logging

from bleak import BleakClient
from bleak.backends.device import BLEDevice
from bleak.backends.scanner import AdvertisementData

from firmware.common import pixels as px
from hardware.ble import BleSource, RollTracker
from hardware.linked import DiceSourceError
from hardware.source import DeviceInfo

log = logging.getLogger("hardware.pixels")


class PixelsSource(BleSource):
    kind = "pixels"

    def __init__(self, address: str | None = None, **kwargs) -> None:
        kwargs.setdefault("name", "pixels")
        super().__init__(address, **kwargs)
        self.die_info: px.DieInfo | None = None
        self.tracker: RollTracker | None = None
        self._write_uuid = px.WRITE
        self._hello: asyncio.Event = asyncio.Event()
        self._blinked: asyncio.Event = asyncio.Event()

    def matches(self, device: BLEDevice, adv: AdvertisementData) -> bool:
        uuids = {u.lower() for u in adv.service_uuids}
        if px.SERVICE in uuids:
            return True
        # the old service is Nordic UART's, which GoDice and others use too: a Pixels
        # die also carries its manufacturer data
        return px.LEGACY_SERVICE in uuids and any(
            c in adv.manufacturer_data for c in px.COMPANY_IDS
        )

    def advertised_battery(self, adv: AdvertisementData) -> int | None:
        # manufacturer data: ledCount, design, rollState, faceIndex, battery (bit 7: charging)
        for company in px.COMPANY_IDS:
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
        await self._write(px.request_roll_state())

    async def _write(self, data: bytes) -> None:
        if self.client is not None:
            await self.client.write_gatt_char(self._write_uuid, data, response=False)

    def _on_notify(self, _char, data: bytearray) -> None:
        kind = data[0] if data else None
        try:
            if kind == px.I_AM_A_DIE:
                self._met(px.parse_i_am_a_die(bytes(data)))
            elif kind == px.ROLL_STATE:
                state, index = px.parse_roll_state(bytes(data))
                self._roll(state, index)
            elif kind == px.BATTERY_LEVEL:
                self.battery_level = px.parse_battery(bytes(data))[0]
            elif kind in (px.BLINK_ID_ACK, px.BLINK_ACK):
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
        state = px.ROLL_STATES.get(info.roll_state)
        if first and state is not None:
            self.tracker.prime(state, self._face(info.face_index))
        self._hello.set()

    def _face(self, index: int) -> int:
        info = self.die_info
        if info is None:
            return index
        return px.face_index(info.die_type, index, info.build_timestamp)

    def _roll(self, state: str | None, index: int) -> None:
        if self.tracker is None or self.die_info is None:
            self.reject("a roll came before the die said which die it is")
            return
        face = self._face(index)
        if state != "rolling" and not 0 <= face < max(self.die_info.faces, 1):
            self.reject(f"face index {index} is not on a {self.die_info.die_type}")
            return
        self._deliver_state(self.tracker, state, face)

    async def identify(self, die_id: str) -> bool:
        if self.client is None:
            return False
        self._blinked = asyncio.Event()
        await self._write(px.blink_id())
        try:
            await asyncio.wait_for(self._blinked.wait(), 1.0)
        except TimeoutError:
            return False
        return True

    def info(self) -> DeviceInfo:
        faces = self.die_info.die_type if self.die_info else "die"
        return DeviceInfo(
            self.die_id,
            f"Pixels {faces}",
            self.kind,
            self.battery_level,
            self.status == "connected",
            [self.die_id],
        )
