"""The tray's GATT service as a BLE peripheral (MicroPython's `bluetooth` module).

Shared by the tray and the home-made die: both speak the tray protocol's packets
(firmware/common/gatt.py), one per notification.
"""

# MicroPython runs this file: try/except stands in for contextlib.
# ruff: noqa: SIM105

from firmware.common import gatt

_IRQ_CENTRAL_CONNECT = 1
_IRQ_CENTRAL_DISCONNECT = 2
_IRQ_GATTS_WRITE = 3
FLAG_READ = 0x0002
FLAG_WRITE_NO_RESPONSE = 0x0004
FLAG_WRITE = 0x0008
FLAG_NOTIFY = 0x0010


def uuid_bytes(text):
    """A 128-bit UUID as advertised: its 16 bytes, least significant first."""
    raw = bytes(int(text.replace("-", "")[i : i + 2], 16) for i in range(0, 32, 2))
    return bytes(reversed(raw))


def advert(name, service):
    """Advertising data (flags, the service UUID) and scan response (the name)."""
    adv = b"\x02\x01\x06" + bytes([17, 0x07]) + uuid_bytes(service)
    encoded = name.encode()[:29]
    resp = bytes([len(encoded) + 1, 0x09]) + encoded
    return adv, resp


class Peripheral:
    def __init__(self, bluetooth, name, on_packet):
        self.ble = bluetooth.BLE()
        self.ble.active(True)
        self.ble.irq(self._irq)
        uuid = bluetooth.UUID
        service = (
            uuid(gatt.SERVICE),
            (
                (uuid(gatt.NOTIFY), FLAG_READ | FLAG_NOTIFY),
                (uuid(gatt.WRITE), FLAG_WRITE | FLAG_WRITE_NO_RESPONSE),
            ),
        )
        ((self.notify_handle, self.write_handle),) = self.ble.gatts_register_services((service,))
        self.name = name
        self.on_packet = on_packet
        self.connections = set()
        self.advertise()

    def advertise(self):
        adv, resp = advert(self.name, gatt.SERVICE)
        self.ble.gap_advertise(100000, adv_data=adv, resp_data=resp)

    def _irq(self, event, data):
        if event == _IRQ_CENTRAL_CONNECT:
            self.connections.add(data[0])
        elif event == _IRQ_CENTRAL_DISCONNECT:
            self.connections.discard(data[0])
            self.advertise()
        elif event == _IRQ_GATTS_WRITE:
            handle = data[1]
            if handle == self.write_handle:
                self.on_packet(bytes(self.ble.gatts_read(handle)))

    def notify(self, packet):
        for conn in list(self.connections):
            try:
                self.ble.gatts_notify(conn, self.notify_handle, packet)
            except OSError:
                self.connections.discard(conn)  # the host went away mid-notify
