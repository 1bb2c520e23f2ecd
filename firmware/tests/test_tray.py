"""The tray's logic with a fake serial port (a list of written frames)."""

import unittest

from firmware.common import gatt, wire
from firmware.common.settle import SettleDetector
from firmware.tray.app import TrayApp


class Wire:
    def __init__(self):
        self.dec = wire.LineDecoder()
        self.frames = []
        self.packets = []

    def write(self, data):
        self.frames += self.dec.feed(data)

    def notify(self, data):
        self.packets.append(gatt.decode(data))

    def kinds(self):
        return [f.kind for f in self.frames]


def host(kind, fields=(), seq=0):
    return wire.encode(seq, kind, fields)


class TestTray(unittest.TestCase):
    def setUp(self):
        self.w = Wire()
        self.app = TrayApp(self.w.write, 0xBEEF, notify=self.w.notify)

    def test_hello_answers_hello(self):
        self.app.host_bytes(host(wire.HELLO, ("1", "0000", "host", "0", "roll")))
        f = self.w.frames[0]
        self.assertEqual(f.kind, wire.HELLO)
        self.assertEqual(f.fields[:3], ("1", "BEEF", "tray"))

    def test_sequence_numbers_count_up_on_both_wires(self):
        self.app.die_joined("1", "pixels", 6, "p1")
        self.app.die_rolling("1")
        self.app.die_result("1", 3)
        self.assertEqual([f.seq for f in self.w.frames], [0, 1, 2])
        self.assertEqual([p.seq for p in self.w.packets], [0, 1, 2])
        self.assertEqual(self.w.frames[2].fields, ("1", "1", "S", "3", "BEEF"))
        self.assertEqual(self.w.packets[2].fields, ("1", "1", "S", "3", "BEEF"))

    def test_each_roll_gets_a_new_roll_number(self):
        self.app.die_joined("1", "pixels", 6, "p1")
        self.app.die_result("1", 3)  # no rolling report first
        self.app.die_rolling("1")
        self.app.die_rolling("1")  # still the same roll
        self.app.die_result("1", 4, crooked=True)
        rolls = [f.fields[:4] for f in self.w.frames if f.kind == wire.ROLL]
        self.assertEqual(
            rolls,
            [
                ("1", "1", "S", "3"),
                ("1", "2", "R", "-"),
                ("1", "2", "R", "-"),
                ("1", "2", "C", "4"),
            ],
        )

    def test_unknown_die_is_ignored(self):
        self.app.die_result("9", 1)
        self.assertEqual(self.w.frames, [])

    def test_resync_tells_everything(self):
        self.app.die_joined("1", "pixels", 6, "p1")
        self.app.die_joined("2", "godice", 20, "g2")
        self.app.die_battery("2", 80)
        self.app.die_result("1", 5)
        self.w.frames = []
        self.app.host_bytes(host(wire.SYNC))
        self.assertEqual(self.w.kinds(), ["DIE", "ROLL", "DIE", "BAT", "SYNCED"])
        self.assertEqual(self.w.frames[1].fields, ("1", "1", "S", "5", "BEEF"))

    def test_blink(self):
        blinked = []
        self.app.blink = lambda die: blinked.append(die) or True
        self.app.die_joined("1", "pixels", 6, "p1")
        self.app.host_bytes(host(wire.BLINK, ("1",), seq=7) + host(wire.BLINK, ("5",), seq=8))
        self.assertEqual(blinked, ["1"])
        self.assertEqual(
            [(f.kind, f.fields) for f in self.w.frames[-2:]],
            [("ACK", ("7",)), ("ERR", ("8", "unknown-die"))],
        )

    def test_garbage_from_host_is_counted_not_obeyed(self):
        self.app.host_bytes(b"\x03\x03import machine\r\n" + host(wire.SYNC)[:-3] + b"00\n")
        self.assertEqual(self.w.frames, [])
        self.assertEqual(self.app.rejected, 2)

    def test_results_wait_for_a_quiet_floor(self):
        app = TrayApp(self.w.write, 1, floor=SettleDetector(threshold=10, quiet_ms=300))
        app.die_joined("1", "pixels", 6, "p1")
        app.floor_sample(0, 50)  # the tray floor shakes: dice are landing
        app.die_rolling("1")
        app.die_result("1", 2)
        self.assertEqual(self.w.kinds()[-1], "ROLL")
        self.assertEqual(self.w.frames[-1].fields[2], "R")  # the result is held
        app.floor_sample(100, 1)
        app.floor_sample(400, 1)  # quiet for 300 ms
        self.assertEqual(self.w.frames[-1].fields[:4], ("1", "1", "S", "2"))

    def test_every_roll_names_its_boot_unless_the_host_speaks_version_1(self):
        """Version 2: a ROLL carries the boot id, on both wires, so a host can tell a
        replayed roll from a new one; a version 1 host's HELLO gets version 1 frames."""
        self.app.die_joined("1", "pixels", 6, "p1")
        self.app.die_result("1", 3)
        self.assertEqual(self.w.packets[-1].fields, ("1", "1", "S", "3", "BEEF"))
        self.app.host_bytes(host(wire.HELLO, ("1", "0000", "host", "0", "roll")))
        self.assertEqual(self.w.frames[-1].fields[0], "1")  # its HELLO says version 1
        self.app.die_result("1", 4)
        self.assertEqual(self.w.frames[-1].fields, ("1", "2", "S", "4"))
        self.assertEqual(self.w.packets[-1].fields, ("1", "2", "S", "4"))
        self.app.host_bytes(host(wire.HELLO, ("2", "0000", "host", "0", "roll"), seq=1))
        self.app.die_result("1", 5)
        self.assertEqual(self.w.frames[-1].fields, ("1", "3", "S", "5", "BEEF"))

    def test_a_die_that_leaves_and_joins_again_counts_on(self):
        """Within one boot a roll number is never used twice, also across a die leaving
        and joining again: the host's marks then never need forgetting."""
        self.app.die_joined("1", "pixels", 6, "p1")
        self.app.die_result("1", 3)
        self.app.die_result("1", 4)
        self.app.die_left("1")
        self.app.die_joined("1", "pixels", 6, "p1")
        self.app.die_result("1", 5)
        rolls = [f.fields[1] for f in self.w.frames if f.kind == wire.ROLL]
        self.assertEqual(rolls, ["1", "2", "3"])

    def test_a_die_at_rest_unrolled_sends_no_result(self):
        """A Pixels die's onFace: the roll its handling began ends with no result (not
        in a resync either), and its next movement is a new roll number."""
        self.app.die_joined("1", "pixels", 6, "p1")
        self.app.die_rolling("1")
        self.app.die_rested("1")
        self.app.resync()
        self.assertEqual(self.w.kinds(), ["DIE", "ROLL", "DIE", "SYNCED"])
        self.app.die_rolling("1")
        self.app.die_result("1", 2)
        rolls = [f.fields[1:3] for f in self.w.frames if f.kind == wire.ROLL]
        self.assertEqual(rolls, [("1", "R"), ("2", "R"), ("2", "S")])
