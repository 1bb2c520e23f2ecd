"""Smart dice and the tray, played on the in-memory radio byte for byte from their
documented formats.  These are the outside world; everything they talk to is ours."""

from __future__ import annotations

import struct

from bleak.assigned_numbers import CharacteristicPropertyName

from firmware.common import gatt, godice, pixels
from firmware.tray.app import TrayApp
from hardware import godice as app_godice
from hardware import pixels as app_pixels
from hardware.fake_radio import Air, FakePeripheral

NOTIFY_WRITE: list[CharacteristicPropertyName] = ["write", "write-without-response"]
NOTIFY_ONLY: list[CharacteristicPropertyName] = ["notify"]
# pixels-js DiceUtils.getLEDCount by die type code (unknown, d4, d6, d8, d10, d00, d12,
# d20, d6pipped, d6fudge)
LEDS_BY_TYPE = (0, 6, 6, 8, 10, 10, 12, 20, 21, 6)


class FakePixelsDie:
    """A Pixels die: answers whoAreYou, requestRollState, requestBatteryLevel, blinkId."""

    def __init__(
        self,
        air: Air,
        address: str,
        die_type: int = 7,
        legacy: bool = False,
        pixel_id: int = 0x5F3A0001,
        build_s: int = 1730000000,
        battery: int = 87,
        led_count: int | None = None,
    ):
        self.legacy = legacy
        self.die_type = die_type
        # DiceUtils.getLEDCount: a die's LEDs follow from its type (a type 0 die says how
        # many it has, and that is all it says)
        self.led_count = LEDS_BY_TYPE[die_type] if led_count is None else led_count
        self.pixel_id = pixel_id
        self.build_s = build_s
        self.battery = battery
        self.state, self.face = 1, 0  # at rest after a roll
        if legacy:
            self.notify_uuid = pixels.LEGACY_NOTIFY
            services = {pixels.LEGACY_SERVICE: {pixels.LEGACY_WRITE: NOTIFY_WRITE}}
            # the legacy notify characteristic shares the service's UUID
            services[pixels.LEGACY_SERVICE][pixels.LEGACY_NOTIFY] = NOTIFY_ONLY
        else:
            self.notify_uuid = pixels.NOTIFY
            services = {pixels.SERVICE: {pixels.NOTIFY: NOTIFY_ONLY, pixels.WRITE: NOTIFY_WRITE}}
        self.peripheral = air.add(
            FakePeripheral(
                address,
                f"Pixel{pixel_id:08X}",
                services,
                manufacturer_data={
                    0xFFFF if legacy else 0x0D39: bytes(
                        [self.led_count, 1, self.state, self.face, battery]
                    )
                },
                on_write=self._on_write,
            )
        )

    def i_am_a_die(self) -> bytes:
        if self.legacy:
            return struct.pack(
                "<BBBBIIHIBBBB",
                pixels.I_AM_A_DIE,
                self.led_count,
                1,
                self.die_type,
                0xABCD,
                self.pixel_id,
                1024,
                self.build_s,
                self.state,
                self.face,
                self.battery,
                0,
            )
        version = struct.pack("<BHIHHHH", 15, 0x0100, self.build_s, 1, 1, 1, 1)
        info = struct.pack("<BIBBBBB", 10, self.pixel_id, 1, self.die_type, self.led_count, 1, 0)
        design = bytes([2, 0])
        name = b"Red d20\x00"
        name_chunk = bytes([1 + len(name)]) + name
        settings = struct.pack("<BIII", 13, 0x1234, 4096, 8192)
        status = bytes([5, self.battery, 0, self.state, self.face])
        return bytes([pixels.I_AM_A_DIE]) + version + info + design + name_chunk + settings + status

    def _on_write(self, _uuid: str, data: bytes) -> None:
        t = data[0]
        if t == pixels.WHO_ARE_YOU:
            self.send(self.i_am_a_die())
        elif t == app_pixels.REQUEST_ROLL_STATE:
            self.send(bytes([pixels.ROLL_STATE, self.state, self.face]))
        elif t == app_pixels.REQUEST_BATTERY:
            self.send(bytes([pixels.BATTERY_LEVEL, self.battery, 0]))
        elif t == app_pixels.BLINK_ID:
            self.send(bytes([app_pixels.BLINK_ID_ACK]))

    def send(self, data: bytes) -> bool:
        return self.peripheral.notify(self.notify_uuid, data)

    def roll(self, face: int, crooked: bool = False) -> None:
        self.send(bytes([pixels.ROLL_STATE, 3, (face + 3) % 20]))  # rolling, faces flicker
        self.send(bytes([pixels.ROLL_STATE, 3, (face + 7) % 20]))
        self.land(face, 4 if crooked else 1)

    def land(self, face: int, state: int = 1) -> None:
        """Come to rest: 1 rolled, 4 crooked, 5 on a face without a roll (set down by
        hand; firmware from November 2024 on)."""
        self.state, self.face = state, face
        self.send(bytes([pixels.ROLL_STATE, state, face]))


class FakeGoDice:
    def __init__(self, air: Air, address: str, colour: int = 2, battery: int = 64):
        self.colour, self.battery = colour, battery
        self.pulses: list[bytes] = []
        self.peripheral = air.add(
            FakePeripheral(
                address,
                "GoDice_AB12_G_v03",
                {godice.SERVICE: {godice.NOTIFY: NOTIFY_ONLY, godice.WRITE: NOTIFY_WRITE}},
                on_write=self._on_write,
            )
        )

    def _on_write(self, _uuid: str, data: bytes) -> None:
        if data[0] == app_godice.REQUEST_COLOUR:
            self.send(b"Col" + bytes([self.colour]))
        elif data[0] == godice.REQUEST_BATTERY:
            self.send(b"Bat" + bytes([self.battery]))
        elif data[0] == app_godice.PULSE:
            self.pulses.append(data)

    def send(self, data: bytes) -> bool:
        return self.peripheral.notify(godice.NOTIFY, data)

    def roll(self, xyz: tuple[int, int, int], prefix: bytes = b"S") -> None:
        self.send(b"R")
        self.send(prefix + bytes(v & 0xFF for v in xyz))


class FakeBleTray:
    """The tray firmware's own TrayApp behind the tray's GATT service."""

    def __init__(self, air: Air, address: str = "AA:00:00:00:00:01", boot_id: int = 0x0B0B):
        self.blinked: list[str] = []
        self.peripheral = air.add(
            FakePeripheral(
                address,
                "DiceTray-1",
                {gatt.SERVICE: {gatt.NOTIFY: NOTIFY_ONLY, gatt.WRITE: NOTIFY_WRITE}},
                on_write=lambda _u, data: self.app.host_packet(data),
            )
        )
        self.app = TrayApp(None, boot_id, notify=self._notify, blink=self._blink)
        self.app.die_joined("1", "pixels", 20, "p1")
        self.app.die_joined("2", "godice", 6, "g2")

    def _blink(self, die: str) -> bool:
        self.blinked.append(die)
        return True

    def _notify(self, packet: bytes) -> None:
        assert len(packet) <= 20
        self.peripheral.notify(gatt.NOTIFY, packet)
