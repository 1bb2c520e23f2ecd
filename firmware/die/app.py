"""A home-made smart die: an accelerometer says when it rolls and, at rest, which face
is up (the face whose normal is nearest the gravity reading).

It speaks the tray protocol as a tray with one die (die "1"), so the app reads it with
the BLE tray source and a tray can relay it like any other die.
"""

from firmware.common import faces
from firmware.common.settle import ROLLING, SETTLED, SettleDetector, motion
from firmware.tray.app import TrayApp

DIE = "1"


class DieApp:
    def __init__(
        self, kind, boot_id, notify=None, write=None, name="home-die", threshold=120, quiet_ms=300
    ):
        if kind not in faces.TABLES:
            raise ValueError("no face table for a %s (d6, d8, d10, d20)" % kind)  # noqa: UP031
        self.kind = kind
        self.tray = TrayApp(write, boot_id, name=name, notify=notify)
        self.settle = SettleDetector(threshold=threshold, quiet_ms=quiet_ms)
        self.tray.die_joined(DIE, "home", len(faces.TABLES[kind]), name)
        self._prev = None

    def sample(self, t_ms, xyz):
        """One accelerometer reading (thousandths of g)."""
        change = self.settle.feed(t_ms, motion(self._prev, xyz))
        self._prev = xyz
        if change == ROLLING:
            self.tray.die_rolling(DIE)
        elif change == SETTLED:
            face, crooked = faces.read_face(self.kind, xyz[0], xyz[1], xyz[2])
            self.tray.die_result(DIE, face, crooked=crooked)

    def battery(self, percent):
        self.tray.die_battery(DIE, percent)
