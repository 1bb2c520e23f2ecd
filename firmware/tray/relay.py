"""Smart dice the tray reaches as a BLE central, turned into tray events.

The radio glue (firmware/tray/central.py, aioble) hands each die's notifications here as
bytes; this decodes them with the same Pixels and GoDice decoders the app uses (which is
why those decoders live in firmware/common: the tray runs them) and tells the TrayApp.  Pure: runs under MicroPython's unix port in the tests.
"""

# MicroPython runs this file too: %-formatting stands in for what it lacks.
# ruff: noqa: UP031

from firmware.common import godice, pixels


class DiceRelay:
    def __init__(self, app):
        self.app = app
        self.kinds = {}  # slot -> "pixels" | "godice"
        self.info = {}  # slot -> pixels.DieInfo
        self.shells = {}  # slot -> GoDice shell
        self.rejected = 0

    def joined_godice(self, slot, name, shell):
        slot = str(slot)
        self.kinds[slot] = "godice"
        self.shells[slot] = shell
        self.app.die_joined(slot, "godice", godice.SHELLS[shell], name)

    def joined_pixels(self, slot):
        """A Pixels die connected; it is announced once it says what it is (iAmADie)."""
        self.kinds[str(slot)] = "pixels"

    def left(self, slot):
        slot = str(slot)
        self.kinds.pop(slot, None)
        self.info.pop(slot, None)
        self.app.die_left(slot)

    def notified(self, slot, data):
        slot = str(slot)
        kind = self.kinds.get(slot)
        try:
            if kind == "pixels":
                self._pixels(slot, bytes(data))
            elif kind == "godice":
                self._godice(slot, bytes(data))
        except (ValueError, IndexError):
            self.rejected += 1

    def _pixels(self, slot, data):
        t = data[0]
        if t == pixels.I_AM_A_DIE:
            info = pixels.parse_i_am_a_die(data)
            self.info[slot] = info
            name = info.name or ("pixel-%08x" % info.pixel_id)
            self.app.die_joined(slot, "pixels", info.faces, name)
            self.app.die_battery(slot, info.battery)
        elif t == pixels.ROLL_STATE:
            info = self.info.get(slot)
            if info is None:
                raise ValueError("roll before iAmADie")
            state, face = pixels.roll_result(info, data)
            if state == "rolling":
                self.app.die_rolling(slot)
            elif state == pixels.RESTED:
                self.app.die_rested(slot)  # set down or turned by hand: not a roll
            elif state is not None:
                self.app.die_result(slot, face, crooked=state == "crooked")
        elif t == pixels.BATTERY_LEVEL:
            self.app.die_battery(slot, pixels.parse_battery(data)[0])

    def _godice(self, slot, data):
        kind, value = godice.parse(data)
        if kind == "rolling":
            self.app.die_rolling(slot)
        elif kind == "stable":
            self.app.die_result(slot, godice.face_index(self.shells[slot], *value))
        elif kind in ("tilt", "fake", "moved"):
            self.app.die_result(slot, godice.face_index(self.shells[slot], *value), crooked=True)
        elif kind == "battery":
            self.app.die_battery(slot, value)
