"""The dice tray over BLE: the same messages as the serial protocol, one 20-byte packet
per notification (hardware/PROTOCOL.md, "BLE service")."""

from __future__ import annotations

import asyncio
from typing import Unpack

from bleak import BleakClient
from bleak.backends.characteristic import BleakGATTCharacteristic
from bleak.backends.device import BLEDevice
from bleak.backends.scanner import AdvertisementData

from firmware.common import gatt, wire
from hardware.ble import BleOptions, BleSource
from hardware.source import DeviceInfo
from hardware.tray_link import TrayLink


def advertises(service_uuids: list[str], name: str) -> bool:
    """A dice tray (or a home-made die) by its advert: its service or its name."""
    return gatt.SERVICE in {u.lower() for u in service_uuids} or name.startswith(gatt.NAME_PREFIX)


class BleTraySource(BleSource):
    kind = "tray-ble"

    def __init__(
        self,
        address: str | None = None,
        *,
        hello_timeout: float = 2.0,
        **options: Unpack[BleOptions],
    ) -> None:
        super().__init__(address, **options)
        self.hello_timeout = hello_timeout
        self.link = TrayLink(self.name, self._send)
        self._host_seq = 0
        self._writes: set[asyncio.Task[None]] = set()

    def matches(self, device: BLEDevice, adv: AdvertisementData) -> bool:
        return advertises(adv.service_uuids, adv.local_name or device.name or "")

    async def _start(self, client: BleakClient) -> None:
        await client.start_notify(gatt.NOTIFY, self._on_notify)
        await self.link.handshake(self.hello_timeout, self.address or "BLE")

    def _send(self, kind: str, fields: tuple[str, ...]) -> int:
        seq = self._host_seq
        self._host_seq = (seq + 1) % wire.SEQ_MOD
        client = self.client
        if client is not None:
            packet = gatt.encode(seq, kind, fields)
            write = client.write_gatt_char(gatt.WRITE, packet, response=False)
            task = asyncio.get_running_loop().create_task(write)
            self._writes.add(task)  # keep it alive until sent, in order
            task.add_done_callback(self._writes.discard)
        return seq

    def _on_notify(self, _char: BleakGATTCharacteristic, data: bytearray) -> None:
        event = self.link.handle(gatt.decode(data))
        if event is not None:
            self._deliver(event)

    async def identify(self, die_id: str) -> bool:
        if self.client is None:
            return False
        return await self.link.blink(die_id.split(":", 1)[-1])

    async def battery(self) -> int | None:
        return self.link.state.battery

    def info(self) -> DeviceInfo:
        return self.link.device_info(self.address or "", self.kind, self.status == "connected")
