"""The tray's brain: what it knows about its dice and what it tells the host.

No hardware here: the board layer (main.py on the device, sim.py on a computer) calls
`die_joined`, `die_rolling`, `die_result`, `floor_sample` and `host_bytes`, and gives
`write` (USB serial) and `notify` (BLE peripheral) to send with.  Every frame gets the
next sequence number, so a host that missed some asks for a resync (SYNC) and gets the
tray's whole state again.

A die's roll number only ever goes up within one boot, also when the die leaves and
joins again, and (protocol version 2) every ROLL names the boot it was made in: the host
can then tell a ROLL it has seen from a new one whatever the wire did (PROTOCOL.md).
"""

# MicroPython runs this file too: %-formatting and try/except stand in for what it lacks.
# ruff: noqa: UP031, SIM105, SIM110, SIM115

from firmware.common import gatt, wire
from firmware.common.settle import ROLLING, SETTLED, SettleDetector  # noqa: F401

try:  # CPython only: names for the type comments (MicroPython lacks the module)
    from collections.abc import Callable  # noqa: F401
except ImportError:
    pass

FIRMWARE_VERSION = "0.1.0"
CAPABILITIES = "roll,battery,blink,settle,ble"


class Die:
    __slots__ = ("kind", "faces", "name", "rollno", "state", "face", "battery")

    def __init__(self, kind, faces, name):
        self.kind = kind
        self.faces = faces
        self.name = name
        self.rollno = 0
        self.state = None  # last reported state word, None before the first roll
        self.face = -1
        self.battery = None


class TrayApp:
    def __init__(self, write, boot_id, name="tray", notify=None, floor=None, blink=None):
        # type: (Callable[[bytes], object] | None, int, str, Callable[[bytes], object] | None, SettleDetector | None, Callable[[str], bool] | None) -> None
        self.write = write
        self.notify = notify
        self.boot_id = boot_id & 0xFFFF
        self.name = name
        self.floor = floor  # a SettleDetector over the floor sensor, or None
        self.blink = blink  # blink(die) -> bool, or None when the tray cannot
        self.seq = 0
        self.dice = {}  # type: dict[str, Die]
        self.held = {}  # type: dict[str, tuple[str, int]]  # results waiting for a quiet floor
        self.decoder = wire.LineDecoder()
        self.rejected = 0
        # the version spoken: the newest until a host's HELLO asks for an older one
        self.version = wire.VERSION
        self.rollnos = {}  # type: dict[str, int]  # a die that left: its last roll number

    # -- sending -------------------------------------------------------------------------

    def send(self, kind, fields=()):
        seq = self.seq
        self.seq = (seq + 1) % wire.SEQ_MOD
        if self.write is not None:
            self.write(wire.encode(seq, kind, fields))
        if self.notify is not None:
            try:
                self.notify(gatt.encode(seq, kind, fields))
            except (KeyError, ValueError):
                pass  # a message BLE cannot carry (a die id that is not a number)

    def hello(self):
        self.send(
            wire.HELLO,
            (str(self.version), "%04X" % self.boot_id, self.name, FIRMWARE_VERSION, CAPABILITIES),
        )

    def heartbeat(self, uptime_s):
        self.send(wire.HEARTBEAT, (str(int(uptime_s)),))

    # -- dice ----------------------------------------------------------------------------

    def die_joined(self, die, kind, faces, name):
        # type: (str | int, str, int, str) -> None
        die = str(die)
        known = self.dice.get(die)
        if known is None:
            self.dice[die] = known = Die(kind, faces, name)
            # counting on from before it left: a roll number is never used twice per boot
            known.rollno = self.rollnos.pop(die, 0)
        else:
            known.kind, known.faces, known.name = kind, faces, name
        self.send(wire.DIE, (die, kind, str(faces), name))

    def die_left(self, die):
        die = str(die)
        gone = self.dice.pop(die, None)
        if gone is not None:
            self.rollnos[die] = gone.rollno
            self.held.pop(die, None)
            self.send(wire.GONE, (die,))

    def die_battery(self, die, percent):
        die = str(die)
        if die in self.dice:
            self.dice[die].battery = percent
        self.send(wire.BATTERY, (die, str(percent)))

    def die_rolling(self, die, face=-1):
        d = self.dice.get(str(die))
        if d is None:
            return
        if d.state != "rolling":
            d.rollno = (d.rollno + 1) % wire.SEQ_MOD
        self.held.pop(str(die), None)
        self._report(str(die), d, "rolling", face)

    def die_result(self, die, face, crooked=False):
        """A die says it came to rest.  Held back while the floor still moves."""
        die = str(die)
        d = self.dice.get(die)
        if d is None:
            return
        if d.state is None or d.state in ("settled", "crooked", "rested"):
            d.rollno = (d.rollno + 1) % wire.SEQ_MOD  # a result with no rolling report first
        state = "crooked" if crooked else "settled"
        if self.floor is not None and self.floor.state == ROLLING:
            self.held[die] = (state, face)
            return
        self._report(die, d, state, face)

    def die_rested(self, die):
        """The die lies still without having been rolled (a Pixels die's onFace: set down
        or turned by hand).  Nothing to tell the host; a roll it was seen starting ends
        without a result, and its next movement is a new roll."""
        d = self.dice.get(str(die))
        if d is None:
            return
        self.held.pop(str(die), None)
        if d.state == "rolling":
            d.state = "rested"

    def _roll_fields(self, die, d):
        boot = self.boot_id if self.version >= 2 else None
        return wire.roll_fields(die, d.rollno, d.state, d.face, boot)

    def _report(self, die, d, state, face):
        d.state, d.face = state, face
        self.send(wire.ROLL, self._roll_fields(die, d))

    def floor_sample(self, t_ms, level):
        if self.floor is None:
            return
        if self.floor.feed(t_ms, level) == SETTLED:
            held, self.held = self.held, {}
            for die in sorted(held):
                d = self.dice.get(die)
                if d is not None:
                    self._report(die, d, held[die][0], held[die][1])

    # -- the host ------------------------------------------------------------------------

    def host_bytes(self, data):
        for item in self.decoder.feed(data):
            if isinstance(item, wire.Frame):
                self.host_frame(item)
            else:
                self.rejected += 1

    def host_packet(self, data):
        # type: (bytes) -> None
        item = gatt.decode(data)
        if isinstance(item, wire.Frame):
            self.host_frame(item)
        else:
            self.rejected += 1

    def host_frame(self, frame):
        kind = frame.kind
        if kind == wire.HELLO:
            # answer in the host's version when it is older (a version 1 app reads no boot
            # id in a ROLL); a host that says nothing we know gets ours
            said = frame.fields[0] if frame.fields else ""
            if said in ("1", "2"):
                self.version = min(wire.VERSION, int(said))
            self.hello()
        elif kind == wire.SYNC:
            self.resync()
        elif kind == wire.BLINK:
            die = frame.fields[0] if frame.fields else ""
            if die not in self.dice:
                self.send(wire.ERROR, (str(frame.seq), "unknown-die"))
            elif self.blink is None or not self.blink(die):
                self.send(wire.ERROR, (str(frame.seq), "unsupported"))
            else:
                self.send(wire.ACK, (str(frame.seq),))
        elif kind != wire.HEARTBEAT:
            self.send(wire.ERROR, (str(frame.seq), "unsupported"))

    def resync(self):
        """Everything the host needs after a reconnect: the dice and each one's last roll."""
        for die in sorted(self.dice):
            d = self.dice[die]
            self.send(wire.DIE, (die, d.kind, str(d.faces), d.name))
            if d.battery is not None:
                self.send(wire.BATTERY, (die, str(d.battery)))
            if d.state in ("rolling", "settled", "crooked"):  # not "rested": nothing to say
                self.send(wire.ROLL, self._roll_fields(die, d))
        self.send(wire.SYNCED, (str(len(self.dice)),))
