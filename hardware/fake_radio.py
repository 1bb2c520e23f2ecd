"""An in-memory radio for bleak: peripherals that live in this process, reached through
the real `BleakClient` and `BleakScanner` by passing `backend=MemoryClient` /
`backend=MemoryScanner` (and `air=` to say which radio).

It fakes only the outside world (the air and the devices in it): bleak's own client,
scanner, characteristic resolution and notification wiring all run for real.  Tests and
the benchmark play Pixels dice, GoDice and the tray on it byte for byte.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bleak.args import SizedBuffer
from bleak.assigned_numbers import CharacteristicPropertyName
from bleak.backends.characteristic import BleakGATTCharacteristic
from bleak.backends.client import BaseBleakClient, NotifyCallback
from bleak.backends.descriptor import BleakGATTDescriptor
from bleak.backends.device import BLEDevice
from bleak.backends.scanner import (
    AdvertisementData,
    AdvertisementDataCallback,
    BaseBleakScanner,
)
from bleak.backends.service import BleakGATTService, BleakGATTServiceCollection
from bleak.exc import BleakDeviceNotFoundError, BleakError

DEFAULT_MTU = 23


@dataclass
class FakePeripheral:
    """A device in the air: its adverts, its GATT table and what it does with writes.

    `services` maps a service UUID to {characteristic UUID: properties}.  `on_write(uuid,
    data)` is the device's firmware reacting to the host; it answers with `notify()`.
    """

    address: str
    name: str
    services: dict[str, dict[str, list[CharacteristicPropertyName]]]
    manufacturer_data: dict[int, bytes] = field(default_factory=dict)
    service_data: dict[str, bytes] = field(default_factory=dict)
    on_write: Callable[[str, bytes], None] | None = None
    fail_connects: int = 0  # transient errors to raise before a connect succeeds
    connectable: bool = True
    client: MemoryClient | None = None
    writes: list[tuple[str, bytes]] = field(default_factory=list)
    connects: int = 0

    @property
    def advert_uuids(self) -> list[str]:
        return list(self.services)

    def notify(self, char_uuid: str, data: bytes) -> bool:
        """Send one notification to the connected host; False when none listens."""
        client = self.client
        if client is None:
            return False
        return client._notify(char_uuid.lower(), bytes(data))

    def drop(self) -> None:
        """The link breaks (out of range, battery out): the host is told it was lost."""
        client = self.client
        if client is not None:
            client._link_lost()


@dataclass
class Air:
    """The radio around the table: which peripherals are in range."""

    peripherals: dict[str, FakePeripheral] = field(default_factory=dict)

    def add(self, peripheral: FakePeripheral) -> FakePeripheral:
        self.peripherals[peripheral.address] = peripheral
        return peripheral

    def remove(self, address: str) -> None:
        peripheral = self.peripherals.pop(address, None)
        if peripheral is not None:
            peripheral.drop()


DEFAULT_AIR = Air()


class MemoryScanner(BaseBleakScanner):
    def __init__(
        self,
        detection_callback: AdvertisementDataCallback | None,
        service_uuids: list[str] | None,
        scanning_mode: str = "active",
        *,
        air: Air | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(detection_callback, service_uuids)
        self.air = air or DEFAULT_AIR
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        self.seen_devices = {}
        self._task = asyncio.get_running_loop().create_task(self._advertise())

    async def _advertise(self) -> None:
        """Every peripheral in range advertises every 20 ms, as real ones do."""
        while True:
            for p in list(self.air.peripherals.values()):
                if not self.is_allowed_uuid(p.advert_uuids) or not p.connectable:
                    continue
                adv = AdvertisementData(
                    local_name=p.name,
                    manufacturer_data=dict(p.manufacturer_data),
                    service_data=dict(p.service_data),
                    service_uuids=p.advert_uuids,
                    tx_power=None,
                    rssi=-50,
                    platform_data=(),
                )
                device = self.create_or_update_device(p.address, p.address, p.name, {}, adv)
                self.call_detection_callbacks(device, adv)
            await asyncio.sleep(0.02)

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            self._task = None


_handles = itertools.count(1)


class MemoryClient(BaseBleakClient):
    def __init__(
        self, address_or_ble_device: BLEDevice | str, *, air: Air | None = None, **kwargs: Any
    ) -> None:
        super().__init__(
            address_or_ble_device,
            disconnected_callback=kwargs.pop("disconnected_callback", None),
            timeout=kwargs.pop("timeout", 10.0),
        )
        self.air = air or DEFAULT_AIR
        self._peripheral: FakePeripheral | None = None
        self._callbacks: dict[str, Callable[[bytearray], None]] = {}

    @property
    def name(self) -> str:
        return self._peripheral.name if self._peripheral else self.address

    @property
    def mtu_size(self) -> int:
        return DEFAULT_MTU

    @property
    def is_connected(self) -> bool:
        return self._peripheral is not None

    async def connect(self, pair: bool = False, **kwargs: Any) -> None:
        await asyncio.sleep(0)
        p = self.air.peripherals.get(self.address)
        if p is None or not p.connectable:
            raise BleakDeviceNotFoundError(
                self.address, f"Device with address {self.address} was not found"
            )
        if p.fail_connects > 0:
            p.fail_connects -= 1
            raise BleakError("le-connection-abort-by-local")
        if p.client is not None:
            raise BleakError("the device accepts one host at a time and has one")
        collection = BleakGATTServiceCollection()
        for s_uuid, chars in p.services.items():
            service = BleakGATTService(None, next(_handles), s_uuid.lower())
            collection.add_service(service)
            for c_uuid, props in chars.items():
                char = BleakGATTCharacteristic(
                    None,
                    next(_handles),
                    c_uuid.lower(),
                    list(props),
                    lambda: DEFAULT_MTU - 3,
                    service,
                )
                collection.add_characteristic(char)
        self.services = collection
        self._peripheral = p
        p.client = self
        p.connects += 1

    async def disconnect(self) -> None:
        p, self._peripheral = self._peripheral, None
        self._callbacks.clear()
        if p is not None and p.client is self:
            p.client = None

    def _link_lost(self) -> None:
        p, self._peripheral = self._peripheral, None
        self._callbacks.clear()
        if p is not None:
            p.client = None
        if self._disconnected_callback is not None:
            asyncio.get_running_loop().call_soon(self._disconnected_callback)

    def _notify(self, char_uuid: str, data: bytes) -> bool:
        """A notification arrives as the platform's radio events do: from the event
        loop, after whatever the loop is doing now."""
        callback = self._callbacks.get(char_uuid)
        if callback is None:
            return False
        asyncio.get_running_loop().call_soon(callback, bytearray(data))
        return True

    async def pair(self, *args: Any, **kwargs: Any) -> None:
        return None

    async def unpair(self) -> None:
        return None

    async def read_gatt_char(
        self, characteristic: BleakGATTCharacteristic, **kwargs: Any
    ) -> bytearray:
        raise BleakError(f"{characteristic.uuid} cannot be read on this device")

    async def read_gatt_descriptor(
        self, descriptor: BleakGATTDescriptor, **kwargs: Any
    ) -> bytearray:
        raise BleakError("no descriptors on this device")

    async def write_gatt_char(
        self, characteristic: BleakGATTCharacteristic, data: SizedBuffer, response: bool
    ) -> None:
        p = self._peripheral
        if p is None:
            raise BleakError("Not connected")
        if "write" not in characteristic.properties and (
            "write-without-response" not in characteristic.properties
        ):
            raise BleakError(f"{characteristic.uuid} is not writable")
        payload = bytes(data)
        p.writes.append((characteristic.uuid, payload))
        if p.on_write is not None:
            # the device answers later, from its own radio event
            asyncio.get_running_loop().call_soon(p.on_write, characteristic.uuid, payload)

    async def write_gatt_descriptor(
        self, descriptor: BleakGATTDescriptor, data: SizedBuffer
    ) -> None:
        raise BleakError("no descriptors on this device")

    async def start_notify(
        self, characteristic: BleakGATTCharacteristic, callback: NotifyCallback, **kwargs: Any
    ) -> None:
        if "notify" not in characteristic.properties and (
            "indicate" not in characteristic.properties
        ):
            raise BleakError(f"{characteristic.uuid} does not notify")
        self._callbacks[characteristic.uuid] = callback

    async def stop_notify(self, characteristic: BleakGATTCharacteristic) -> None:
        self._callbacks.pop(characteristic.uuid, None)
