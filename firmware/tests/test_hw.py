"""The tray's and the die's hardware layer and board loop, with fake machine/bluetooth."""

import unittest

from firmware.common import gatt, pixels, wire
from firmware.die.app import DieApp
from firmware.die.main import Die
from firmware.hw.accel import Accel
from firmware.hw.led import StatusLed
from firmware.hw.peripheral import advert, uuid_bytes
from firmware.hw.piezo import Piezo
from firmware.tests.fakes import FakeBluetooth, FakeMachine, FakeSerial
from firmware.tray.main import Tray
from firmware.tray.relay import DiceRelay


class TestAccelAndLed(unittest.TestCase):
    def test_accel_wakes_the_chip_and_reads_milli_g(self):
        m = FakeMachine()
        a = Accel(m.i2c)
        self.assertEqual(m.i2c.writes, [(0x68, 0x6B, b"\x00")])
        m.i2c.tilt(0, -0.5, 1)
        self.assertEqual(a.read(), (0, -500, 1000))

    def test_piezo_level_is_distance_from_rest(self):
        m = FakeMachine()
        p = Piezo(m, 26)
        p.adc.readings = [33000, 20000, 32800]
        self.assertEqual([p.level(), p.level(), p.level()], [232, 12768, 32])

    def test_led_patterns(self):
        led = StatusLed(FakeMachine(), 2)
        led.mode = "alone"
        led.update(50)
        led.update(500)
        self.assertEqual(led.pin.values, [1, 0])
        led.mode = "host"
        led.update(999)
        self.assertEqual(led.pin.value(), 1)


class TestPeripheral(unittest.TestCase):
    def test_advert_fits_and_carries_the_service(self):
        adv, resp = advert("DiceTray", gatt.SERVICE)
        self.assertTrue(len(adv) <= 31 and len(resp) <= 31)
        self.assertTrue(uuid_bytes(gatt.SERVICE) in adv)
        self.assertEqual(uuid_bytes(gatt.SERVICE)[-1], 0x7C)  # little-endian
        self.assertEqual(resp[2:], b"DiceTray")

    def test_tray_serves_its_gatt_service(self):
        bt = FakeBluetooth()
        serial = FakeSerial()
        tray = Tray(FakeMachine(), bt, serial=serial)
        ble = bt.ble
        ((svc, chars),) = ble.services
        self.assertEqual(svc, gatt.SERVICE)
        self.assertEqual([c[0] for c in chars], [gatt.NOTIFY, gatt.WRITE])
        self.assertEqual(len(ble.adverts), 1)
        ble.central_connects(7)
        tray.app.die_joined("1", "pixels", 6, "p")
        conn, handle, packet = ble.notified[-1]
        self.assertEqual((conn, handle), (7, tray.peripheral.notify_handle))
        self.assertEqual(gatt.decode(packet).kind, wire.DIE)
        # the host writes SYNC over BLE; the answer goes out on both wires
        ble.central_writes(tray.peripheral.write_handle, gatt.encode(0, wire.SYNC))
        self.assertEqual(gatt.decode(ble.notified[-1][2]).kind, wire.SYNCED)
        self.assertEqual(serial.kinds()[-1], wire.SYNCED)
        ble.central_disconnects(7)
        self.assertEqual(len(ble.adverts), 2)  # advertising again
        n = len(ble.notified)
        tray.app.heartbeat(1)
        self.assertEqual(len(ble.notified), n)


class TestTrayBoard(unittest.TestCase):
    def test_host_bytes_floor_and_led(self):
        m = FakeMachine()
        serial = FakeSerial()
        tray = Tray(m, None, serial=serial, floor_i2c=m.i2c)
        tray.app.die_joined("1", "pixels", 6, "p")
        serial.incoming = wire.encode(0, wire.HELLO, ("1", "0000", "host", "0", "roll"))
        tray.step(0)
        self.assertEqual(serial.kinds()[-1], wire.HELLO)
        self.assertEqual(tray.led.mode, "host")
        m.i2c.tilt(0.4, 0.2, 1.1)  # a die lands: the floor shakes
        tray.step(10)
        tray.app.die_rolling("1")
        tray.app.die_result("1", 4)
        self.assertEqual(serial.frames[-1].fields[2], "R")  # held while the floor moves
        m.i2c.tilt(0, 0, 1)
        tray.step(20)
        tray.step(400)
        self.assertEqual(serial.frames[-1].fields, ("1", "1", "S", "4"))

    def test_blink_command_lights_the_identify_pattern(self):
        serial = FakeSerial()
        tray = Tray(FakeMachine(), None, serial=serial)
        tray.app.die_joined("1", "pixels", 6, "p")
        serial.incoming = wire.encode(4, wire.BLINK, ("1",))
        tray.step(0)
        self.assertEqual((serial.frames[-1].kind, serial.frames[-1].fields), ("ACK", ("4",)))
        self.assertEqual(tray.led.mode, "identify")


class TestRelay(unittest.TestCase):
    def setUp(self):
        self.serial = FakeSerial()
        self.tray = Tray(FakeMachine(), None, serial=self.serial)
        self.relay = DiceRelay(self.tray.app)

    def test_pixels_die_through_the_tray(self):
        self.relay.joined_pixels(3)
        legacy = (
            bytes([2, 20, 1, 3])
            + b"\x00" * 8
            + b"\x00\x04"
            + b"\x00\x00\x00\x70"
            + bytes([5, 0, 90, 0])
        )
        self.relay.notified(3, legacy)  # a d8
        self.assertEqual(self.serial.frames[0].fields, ("3", "pixels", "8", "pixel-00000000"))
        self.relay.notified(3, bytes([pixels.ROLL_STATE, 3, 2]))
        self.relay.notified(3, bytes([pixels.ROLL_STATE, 1, 6]))  # rolled
        self.relay.notified(3, bytes([pixels.ROLL_STATE, 1, 12]))  # not on a d8
        self.relay.notified(3, b"\x03")  # truncated
        rolls = [f.fields[:4] for f in self.serial.frames if f.kind == wire.ROLL]
        self.assertEqual(rolls, [("3", "1", "R", "-"), ("3", "1", "S", "6")])
        self.assertEqual(self.relay.rejected, 2)

    def test_a_pixels_die_set_down_by_hand_is_relayed_as_no_roll(self):
        """onFace (5): lying still without a roll; the tray sends no result for it (not
        crooked), and the die's next roll has a number of its own."""
        self.relay.joined_pixels(3)
        legacy = bytes([2, 20, 1, 3]) + b"\x00" * 8 + b"\x00\x04" + b"\x00\x00\x00\x70"
        self.relay.notified(3, legacy + bytes([5, 0, 90, 0]))  # a d8 lying on its 1
        self.relay.notified(3, bytes([pixels.ROLL_STATE, 2, 2]))  # picked up
        self.relay.notified(3, bytes([pixels.ROLL_STATE, 5, 4]))  # put down on the 5
        self.relay.notified(3, bytes([pixels.ROLL_STATE, 3, 2]))
        self.relay.notified(3, bytes([pixels.ROLL_STATE, 1, 6]))  # rolled
        rolls = [f.fields[:4] for f in self.serial.frames if f.kind == wire.ROLL]
        self.assertEqual(rolls, [("3", "1", "R", "-"), ("3", "2", "R", "-"), ("3", "2", "S", "6")])
        self.assertEqual(self.relay.rejected, 0)

    def test_a_2023_pixels_die_saying_type_0_is_relayed_as_a_d6(self):
        self.relay.joined_pixels(4)
        hello = (  # legacy iAmADie: 6 LEDs, die type 0, built 2023-07-22 (old d6 faces)
            bytes([2, 6, 1, 0])
            + b"\x00" * 8
            + b"\x00\x04"
            + b"\x80\x06\xbc\x64"
            + bytes([1, 0, 80, 0])
        )
        self.relay.notified(4, hello)
        self.assertEqual(self.serial.frames[0].fields, ("4", "pixels", "6", "pixel-00000000"))
        for index in (1, 2):  # every roll, faces as the vendor reads an old d6: 5, 4
            self.relay.notified(4, bytes([pixels.ROLL_STATE, 3, 0]))
            self.relay.notified(4, bytes([pixels.ROLL_STATE, 1, index]))
        rolls = [f.fields[2:4] for f in self.serial.frames if f.kind == wire.ROLL]
        self.assertEqual(rolls, [("R", "-"), ("S", "4"), ("R", "-"), ("S", "3")])
        self.assertEqual(self.relay.rejected, 0)

    def test_godice_through_the_tray(self):
        self.relay.joined_godice(2, "g", "d20")
        self.relay.notified(2, b"R")
        self.relay.notified(2, b"S" + bytes([64, 0, 22]))
        self.relay.notified(2, b"TS" + bytes([30, 30, 30]))
        rolls = [f.fields[:4] for f in self.serial.frames if f.kind == wire.ROLL]
        self.assertEqual(
            rolls, [("2", "1", "R", "-"), ("2", "1", "S", "19"), ("2", "2", "C", "13")]
        )


class TestHomeDie(unittest.TestCase):
    def roll_to(self, app, t, xyz):
        app.sample(t, (300, -200, 900))  # tumbling
        app.sample(t + 10, (-400, 500, 100))
        app.sample(t + 20, xyz)
        app.sample(t + 400, xyz)  # quiet long enough

    def test_d6_reports_the_face_up_over_ble(self):
        bt = FakeBluetooth()
        m = FakeMachine()
        die = Die(m, bt, m.i2c, kind="d6")
        bt.ble.central_connects(1)
        die.step(0)
        m.i2c.tilt(0.5, 0.3, 0.8)
        die.step(10)
        m.i2c.tilt(0, 1, 0)  # face 2's normal points up
        die.step(20)
        die.step(400)
        packets = [gatt.decode(p) for _c, _h, p in bt.ble.notified]
        rolls = [p.fields[:4] for p in packets if p.kind == wire.ROLL]
        self.assertEqual(rolls, [("1", "1", "R", "-"), ("1", "1", "S", "1")])

    def test_every_shell_and_a_crooked_landing(self):
        w = FakeSerial()
        for kind, up, face in (
            ("d8", (577, 577, 577), 0),
            ("d20", (0, -300, -950), None),
            ("d10", (950, 0, 290), 0),
        ):
            app = DieApp(kind, 1, write=w.write)
            self.roll_to(app, 0, up)
            last = w.frames[-1]
            self.assertEqual(last.kind, wire.ROLL)
            self.assertEqual(last.fields[2], "S")
            if face is not None:
                self.assertEqual(last.fields[3], str(face))
        app = DieApp("d6", 2, write=w.write)
        self.roll_to(app, 0, (700, 0, 700))  # leaning on the tray wall
        self.assertEqual(w.frames[-1].fields[2], "C")

    def test_unknown_shell(self):
        with self.assertRaises(ValueError):
            DieApp("d7", 1)
