"""The tray's aioble glue with aioble and bluetooth faked: a Pixels die and a GoDice are
found, connected, asked who they are, and their rolls reach the tray's serial port."""

import sys
import unittest

from firmware.common import godice, pixels, wire
from firmware.tests.fake_aioble import FakeAioble, FakeDie
from firmware.tests.fakes import FakeBluetooth, FakeMachine, FakeSerial

FAKE_AIOBLE = FakeAioble()
sys.modules["aioble"] = FAKE_AIOBLE  # type: ignore[assignment]  # a stand-in module
sys.modules["bluetooth"] = FakeBluetooth()  # type: ignore[assignment]

import asyncio  # noqa: E402

from firmware.tray import central  # noqa: E402
from firmware.tray.main import Tray  # noqa: E402

LEGACY_D6 = (
    bytes([2, 20, 1, 2])
    + b"\x00" * 4
    + b"\x01\x00\x00\x00"
    + b"\x00\x04"
    + (b"\x00\x00\x00\x70")
    + bytes([5, 0, 77, 0])
)


class TestCentral(unittest.TestCase):
    def setUp(self):
        self.serial = FakeSerial()
        self.tray = Tray(FakeMachine(), None, serial=self.serial)

    def test_pixels_die_found_connected_and_relayed(self):
        die = FakeDie(
            "Pixel01",
            [pixels.SERVICE],
            b"\x01" * 6,
            answers={pixels.WHO_ARE_YOU: [LEGACY_D6, bytes([3, 3, 1]), bytes([3, 1, 4])]},
        )
        asyncio.run(central._serve_die(self.tray.relay, 1, central_device(die), "pixels"))
        self.assertTrue(die.subscribed)
        self.assertEqual(die.written[0], pixels.who_are_you())
        kinds = self.serial.kinds()
        self.assertEqual(kinds, ["DIE", "BAT", "ROLL", "ROLL", "GONE"])
        rolls = [f.fields[:4] for f in self.serial.frames if f.kind == wire.ROLL]
        self.assertEqual(rolls, [("1", "1", "R", "-"), ("1", "1", "S", "4")])

    def test_godice_found_by_name_in_a_scan(self):
        die = FakeDie(
            "GoDice_12AB_K_v04",
            [godice.SERVICE],
            b"\x02" * 6,
            answers={
                godice.REQUEST_BATTERY: [b"Bat" + bytes([55]), b"R", b"S" + bytes([64, 0, 0])]
            },
        )
        FAKE_AIOBLE.air[:] = [die]

        still_scanning = []

        async def scan_once():
            task = asyncio.create_task(central.scan_forever(self.tray.relay))
            for _ in range(100):
                await asyncio.sleep(0.01)
                if "GONE" in self.serial.kinds():
                    break
            await asyncio.sleep(0.05)
            still_scanning.append(not task.done())  # the scan loop survived the die
            task.cancel()

        asyncio.run(scan_once())
        self.assertEqual(still_scanning, [True])
        frames = [(f.kind, f.fields[:4]) for f in self.serial.frames]
        self.assertEqual(frames[0], ("DIE", ("1", "godice", "6", "godice-1")))
        self.assertTrue(("ROLL", ("1", "1", "S", "5")) in frames)
        self.assertTrue(("BAT", ("1", "55")) in frames)


def central_device(die):
    from firmware.tests.fake_aioble import FakeDevice

    return FakeDevice(die, die.addr)
