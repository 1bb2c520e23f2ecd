"""An MPU-6050 style accelerometer over I2C (the tray's floor sensor, the die's IMU)."""

import struct

MPU_ADDR = 0x68
PWR_MGMT_1 = 0x6B
ACCEL_XOUT_H = 0x3B
LSB_PER_G = 16384  # at the default +-2 g range


class Accel:
    def __init__(self, i2c, addr=MPU_ADDR):
        self.i2c = i2c
        self.addr = addr
        i2c.writeto_mem(addr, PWR_MGMT_1, b"\x00")  # wake up from sleep

    def read(self):
        """(x, y, z) in thousandths of g."""
        raw = self.i2c.readfrom_mem(self.addr, ACCEL_XOUT_H, 6)
        x, y, z = struct.unpack(">hhh", raw)
        return (x * 1000 // LSB_PER_G, y * 1000 // LSB_PER_G, z * 1000 // LSB_PER_G)
