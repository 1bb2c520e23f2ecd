"""The shared pure logic, as the boards run it (these run under MicroPython too)."""

import unittest

from firmware.common import faces, gatt, wire
from firmware.common.settle import ROLLING, SETTLED, SettleDetector, motion


class TestWire(unittest.TestCase):
    def test_crc_check_value(self):
        self.assertEqual(wire.crc16(b"123456789"), 0x29B1)

    def test_same_bytes_as_the_app_expects(self):
        self.assertEqual(wire.encode(5, "ROLL", ("2", "7", "S", "4")), b"!5 ROLL 2 7 S 4*8DDB\n")

    def test_round_trip_byte_by_byte(self):
        line = wire.encode(65535, wire.DIE, ("1", "pixels", "20", "Pixel one"))
        dec = wire.LineDecoder()
        out = []
        for i in range(len(line)):
            out += dec.feed(line[i : i + 1])
        self.assertEqual(out, [wire.Frame(65535, "DIE", ("1", "pixels", "20", "Pixel_one"))])

    def test_ctrl_c_never_sent(self):
        line = wire.encode(1, wire.DIE, ("1", "a\x03b", "6", "x"))
        self.assertFalse(b"\x03" in line)

    def test_corrupt_line_rejected(self):
        line = wire.encode(1, wire.HEARTBEAT, ("5",)).replace(b"HB 5", b"HB 6")
        out = wire.LineDecoder().feed(line)
        self.assertTrue(isinstance(out[0], wire.Reject))

    def test_ble_packet_fits(self):
        p = gatt.encode(300, wire.ROLL, ("4", "1000", "C", "19"))
        self.assertTrue(len(p) <= 20)
        self.assertEqual(gatt.decode(p), wire.Frame(300, "ROLL", ("4", "1000", "C", "19")))


class TestSettle(unittest.TestCase):
    def test_roll_then_quiet_window(self):
        d = SettleDetector(threshold=10, quiet_ms=300)
        self.assertEqual(d.feed(0, 0), None)
        self.assertEqual(d.feed(10, 50), ROLLING)
        self.assertEqual(d.feed(20, 60), None)
        self.assertEqual(d.feed(200, 1), None)  # quiet for 180 ms only
        self.assertEqual(d.feed(260, 30), None)  # a rock on an edge: still rolling
        self.assertEqual(d.feed(500, 2), None)
        self.assertEqual(d.feed(560, 2), SETTLED)
        self.assertEqual(d.feed(600, 2), None)

    def test_endless_shaking_ends_anyway(self):
        d = SettleDetector(threshold=10, quiet_ms=300, max_roll_ms=1000)
        d.feed(0, 50)
        self.assertEqual(d.feed(500, 50), None)
        self.assertEqual(d.feed(1000, 50), SETTLED)

    def test_motion_level(self):
        self.assertEqual(motion(None, (1, 2, 3)), 0)
        self.assertEqual(motion((0, 0, 0), (1, -2, 3)), 6)


class TestFaces(unittest.TestCase):
    def test_each_normal_reads_its_own_face(self):
        for kind in ("d6", "d8", "d10", "d20"):
            table = faces.TABLES[kind]
            for i in range(len(table)):
                v = table[i]
                self.assertEqual(
                    faces.read_face(kind, v[0] * 980, v[1] * 980, v[2] * 980), (i, False)
                )

    def test_opposite_faces_add_up_like_a_real_die(self):
        totals = {"d6": 7, "d8": 9, "d10": 11, "d20": 21}
        for kind in totals:
            table = faces.TABLES[kind]
            for i in range(len(table)):
                v = table[i]
                j, _ = faces.nearest_face(table, -v[0], -v[1], -v[2])
                self.assertEqual((i + 1) + (j + 1), totals[kind])

    def test_d6_face_one_up(self):
        self.assertEqual(faces.read_face("d6", 10, -20, 1000), (0, False))

    def test_leaning_die_is_crooked(self):
        face, crooked = faces.read_face("d6", 600, 0, 600)  # 45 degrees between two faces
        self.assertTrue(crooked)
        self.assertEqual(faces.nearest_face(faces.D6, 0, 0, 0), (-1, 0.0))
