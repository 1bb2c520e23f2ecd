"""Fakes of the outside world for the firmware: `machine` (pins, I2C) and `bluetooth`
(the BLE radio), shaped like MicroPython's own modules, plus a serial port."""

import struct

from firmware.common import wire


class FakePin:
    OUT = 1
    IN = 0

    def __init__(self, pin, mode=0):
        self.pin = pin
        self.mode = mode
        self.values = []

    def value(self, v=None):
        if v is None:
            return self.values[-1] if self.values else 0
        self.values.append(v)


class FakeI2C:
    """An MPU-6050 on the bus: reads give the acceleration set by `tilt`."""

    def __init__(self, addr=0x68):
        self.addr = addr
        self.writes = []
        self.g = (0, 0, 16384)

    def scan(self):
        return [self.addr]

    def writeto_mem(self, addr, reg, data):
        self.writes.append((addr, reg, bytes(data)))

    def readfrom_mem(self, addr, reg, n):
        if addr != self.addr:
            raise OSError(19)  # ENODEV, as a missing device answers
        return struct.pack(">hhh", self.g[0], self.g[1], self.g[2])[:n]

    def tilt(self, x_g, y_g, z_g):
        self.g = (int(x_g * 16384), int(y_g * 16384), int(z_g * 16384))


class FakeADC:
    def __init__(self, pin):
        self.pin = pin
        self.readings = [32768]

    def read_u16(self):
        return self.readings.pop(0) if len(self.readings) > 1 else self.readings[0]


class FakeMachine:
    Pin = FakePin
    ADC = FakeADC

    def __init__(self):
        self.i2c = FakeI2C()

    def unique_id(self):
        return b"\x24\x0a\xc4\x12\x34\x56"

    def I2C(self, *args, **kwargs):  # noqa: N802 - machine.I2C is a class on a board
        return self.i2c


class FakeBLE:
    def __init__(self):
        self.active_calls = []
        self.handler = None
        self.services = None
        self.adverts = []
        self.notified = []
        self.values = {}

    def active(self, on=None):
        self.active_calls.append(on)
        return True

    def irq(self, handler):
        self.handler = handler

    def gatts_register_services(self, services):
        self.services = services
        handles = []
        n = 10
        for _uuid, chars in services:
            hs = []
            for _c in chars:
                n += 2
                hs.append(n)
            handles.append(tuple(hs))
        return tuple(handles)

    def gap_advertise(self, interval_us, adv_data=None, resp_data=None):
        self.adverts.append((interval_us, adv_data, resp_data))

    def gatts_notify(self, conn, handle, data):
        if len(data) > 20:
            raise ValueError("notification longer than the default MTU allows")
        self.notified.append((conn, handle, bytes(data)))

    def gatts_read(self, handle):
        return self.values.get(handle, b"")

    # the central's side of the air
    def central_connects(self, conn=1):
        self.handler(1, (conn, 0, b"\x00" * 6))

    def central_disconnects(self, conn=1):
        self.handler(2, (conn, 0, b"\x00" * 6))

    def central_writes(self, handle, data, conn=1):
        self.values[handle] = data
        self.handler(3, (conn, handle))


class FakeBluetooth:
    def __init__(self):
        self.ble = FakeBLE()

    def BLE(self):  # noqa: N802 - bluetooth.BLE is a class on a board
        return self.ble

    def UUID(self, text):  # noqa: N802
        return text


class FakeSerial:
    """The USB serial port seen from the host: bytes in, frames out."""

    def __init__(self):
        self.incoming = b""
        self.decoder = wire.LineDecoder()
        self.frames = []

    def read_available(self):
        data, self.incoming = self.incoming, b""
        return data

    def write(self, data):
        self.frames += self.decoder.feed(data)

    def kinds(self):
        return [f.kind for f in self.frames]
