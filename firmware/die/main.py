"""The home-made die's entry point on the board (an ESP32-C3 or Pico W with an MPU-6050
on I2C): samples the IMU at 100 Hz and advertises its rolls over BLE."""

import asyncio

from firmware.die.app import DieApp
from firmware.hw.accel import Accel
from firmware.hw.peripheral import Peripheral
from firmware.hw.ticks import ticks_ms

DIE_KIND = "d6"  # d6, d8, d10 or d20: the face table the die's shell matches
I2C_SCL, I2C_SDA = 9, 8
SAMPLE_MS = 10


class Die:
    def __init__(self, machine, bluetooth, i2c, kind=DIE_KIND):
        boot_id = int.from_bytes(machine.unique_id()[-2:], "big") ^ (ticks_ms() & 0xFFFF)
        self.accel = Accel(i2c)
        self.app = None
        self.peripheral = Peripheral(bluetooth, "DiceTray-die", self._host_packet)
        self.app = DieApp(kind, boot_id, notify=self.peripheral.notify)

    def _host_packet(self, data):
        if self.app is not None:
            self.app.tray.host_packet(data)

    def step(self, now_ms):
        self.app.sample(now_ms, self.accel.read())

    async def run(self):
        self.app.tray.hello()
        while True:
            self.step(ticks_ms())
            await asyncio.sleep(SAMPLE_MS / 1000)


def main():
    import bluetooth
    import machine

    i2c = machine.I2C(0, scl=machine.Pin(I2C_SCL), sda=machine.Pin(I2C_SDA))
    asyncio.run(Die(machine, bluetooth, i2c).run())


if __name__ == "__main__":
    main()
