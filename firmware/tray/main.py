"""The tray's entry point on the board (copied to the board as main.py by the README's
mpremote steps): USB serial and BLE peripheral to the host, smart dice as a BLE central,
the floor sensor and the status LED."""

import asyncio

from firmware.common.settle import SettleDetector, motion
from firmware.hw.accel import Accel
from firmware.hw.led import StatusLed
from firmware.hw.serialport import UsbSerial
from firmware.hw.ticks import ticks_add, ticks_diff, ticks_ms
from firmware.tray.app import TrayApp
from firmware.tray.relay import DiceRelay

LED_PIN = 2  # ESP32 DevKit; "LED" on a Pico W
I2C_SCL, I2C_SDA = 22, 21
FLOOR_THRESHOLD = 60  # thousandths of g between samples: a die landing on the floor


def new_boot_id(machine):
    """A boot id no earlier power-up of this tray is likely to have had: the host keeps
    what each boot said, so a new boot must not look like an old one.  The chip's random
    generator (ESP32 and RP2040 ports give `os.urandom`); the board id and the clock
    (near the same at every power-up) only where there is none."""
    try:
        import os

        return int.from_bytes(os.urandom(2), "big")
    except (ImportError, AttributeError, OSError):
        return int.from_bytes(machine.unique_id()[-2:], "big") ^ (ticks_ms() & 0xFFFF)


class Tray:
    """Everything the board runs, built from the `machine` and `bluetooth` modules it is
    given (the tests give fakes)."""

    def __init__(self, machine, bluetooth=None, serial=None, floor_i2c=None):
        self.serial = serial if serial is not None else UsbSerial()
        self.led = StatusLed(machine, LED_PIN)
        self.accel = Accel(floor_i2c) if floor_i2c is not None else None
        boot_id = new_boot_id(machine)
        self.app = TrayApp(
            self.serial.write,
            boot_id,
            name="tray",
            floor=SettleDetector(FLOOR_THRESHOLD) if self.accel else None,
            blink=self._blink,
        )
        self.peripheral = None
        if bluetooth is not None:
            from firmware.hw.peripheral import Peripheral

            self.peripheral = Peripheral(bluetooth, "DiceTray", self.app.host_packet)
            self.app.notify = self.peripheral.notify
        self.relay = DiceRelay(self.app)
        self._prev = None
        self._identify_until = 0
        self._last_host = None

    def _blink(self, die):
        self._identify_until = ticks_add(ticks_ms(), 3000)
        return True

    def step(self, now_ms):
        """One pass of the main loop: host bytes, the floor, the LED."""
        data = self.serial.read_available()
        if data:
            self._last_host = now_ms
            self.app.host_bytes(data)
        if self.accel is not None:
            sample = self.accel.read()
            self.app.floor_sample(now_ms, motion(self._prev, sample))
            self._prev = sample
        if ticks_diff(self._identify_until, now_ms) > 0:
            self.led.mode = "identify"
        elif self.peripheral is not None and self.peripheral.connections:
            self.led.mode = "host"
        else:
            recent = self._last_host is not None and ticks_diff(now_ms, self._last_host) < 5000
            self.led.mode = "host" if recent else "alone"
        self.led.update(now_ms)

    async def run(self):
        started = ticks_ms()
        self.app.hello()
        next_beat = started
        while True:
            now = ticks_ms()
            if ticks_diff(now, next_beat) >= 0:
                self.app.heartbeat(ticks_diff(now, started) // 1000)
                next_beat = ticks_add(now, 1000)
            self.step(now)
            await asyncio.sleep(0.01)


def main():
    import bluetooth
    import machine

    from firmware.hw.accel import MPU_ADDR
    from firmware.tray.central import scan_forever

    i2c = machine.I2C(0, scl=machine.Pin(I2C_SCL), sda=machine.Pin(I2C_SDA))
    floor = i2c if MPU_ADDR in i2c.scan() else None  # the floor sensor is optional
    tray = Tray(machine, bluetooth, floor_i2c=floor)

    async def both():
        asyncio.create_task(scan_forever(tray.relay))
        await tray.run()

    asyncio.run(both())


if __name__ == "__main__":
    main()
