"""The tray firmware on a computer: the real TrayApp, its serial port on a file
descriptor (a pseudo-terminal), and fake dice driven by text lines on a control channel.

Runs under CPython (the simulated tray of `make run` and the tests) and under the
MicroPython unix port, where it is started as

    micropython firmware/tray/sim.py CONTROL_PATH [BOOT_ID]

with stdin and stdout on the pseudo-terminal, exactly as a board's USB serial is its
REPL's stdin and stdout.  Control lines (one per line, words separated by spaces):

    join DIE KIND FACES NAME    a smart die connects to the tray
    leave DIE                   it goes away
    roll DIE FACE               rolling, then settled on FACE (a 0-based face index)
    rolling DIE                 rolling only
    settle DIE FACE             settled only
    crooked DIE FACE            rolling, then crooked
    battery DIE PERCENT
    burst N DIE FACE            N complete rolls back to back (throughput tests)
    floor LEVEL                 one floor sensor sample (motion level)
    reboot BOOT_ID [lost]       the board restarts (no dice until they join again);
                                `lost`: its HELLO never reaches the host
    quit
"""

# MicroPython runs this file too: %-formatting and try/except stand in for what it lacks.
# ruff: noqa: UP031, SIM105, SIM110, SIM115

import select
import sys

try:
    from os import read as _os_read
    from os import write as _os_write
except ImportError:  # MicroPython's os has neither
    _os_read = None  # type: ignore[assignment]
    _os_write = None  # type: ignore[assignment]

from firmware.common.settle import SettleDetector
from firmware.hw.serialport import UsbSerial
from firmware.hw.ticks import ticks_ms
from firmware.tray.app import TrayApp

try:  # CPython only: names for the type comments (MicroPython lacks the module)
    from collections.abc import Callable  # noqa: F401
except ImportError:
    pass


class FdStream:
    """CPython: a raw, non-blocking file descriptor."""

    def __init__(self, fd):
        # type: (int) -> None
        self.fd = fd
        self.pollable = fd
        self.dropped = 0

    def read_available(self):
        """Bytes waiting (maybe none), or None once the other end is gone."""
        try:
            return _os_read(self.fd, 4096) or None
        except BlockingIOError:
            return b""
        except OSError:
            return None

    def write(self, data):
        try:
            _os_write(self.fd, data)
        except OSError:
            self.dropped += 1  # nobody is reading: a real USB port drops too


class FakeDice:
    """Plays the smart dice a real tray would reach over BLE."""

    def __init__(self, app):
        self.app = app
        self.blinked = []

    def blink(self, die):
        self.blinked.append(die)
        return True

    def command(self, words):
        """Runs one control line (split into words); False when it is not a dice line."""
        if not words:
            return True
        op, args = words[0], words[1:]
        app = self.app
        if op == "join":
            app.die_joined(args[0], args[1], int(args[2]), args[3] if len(args) > 3 else args[0])
        elif op == "leave":
            app.die_left(args[0])
        elif op == "roll":
            app.die_rolling(args[0])
            app.die_result(args[0], int(args[1]))
        elif op == "rolling":
            app.die_rolling(args[0])
        elif op == "settle":
            app.die_result(args[0], int(args[1]))
        elif op == "crooked":
            app.die_rolling(args[0])
            app.die_result(args[0], int(args[1]), crooked=True)
        elif op == "battery":
            app.die_battery(args[0], int(args[1]))
        elif op == "burst":
            for _ in range(int(args[0])):
                app.die_rolling(args[1])
                app.die_result(args[1], int(args[2]))
        elif op == "floor":
            app.floor_sample(ticks_ms(), int(args[0]))
        else:
            return False
        return True


class TraySim:
    """The loop a board would run: serial in, dice events, heartbeats.  `extra(sim, words)`
    handles control lines the fake dice do not know (the CPython harness's unplug)."""

    def __init__(self, serial, control, boot_id, floor=False, extra=None):
        # type: (FdStream | UsbSerial | None, FdStream | UsbSerial, int, bool, Callable[[TraySim, list[str]], None] | None) -> None
        self.floor = floor
        self._boot(boot_id)  # the app, its dice and its clock
        self.extra = extra
        self.control = control
        self.poller = select.poll()
        self.poller.register(control.pollable, select.POLLIN)
        self.serial = None  # type: FdStream | UsbSerial | None
        self.dropped = 0
        self.plug(serial)

    def _boot(self, boot_id):
        # type: (int) -> None
        self.app = TrayApp(
            self._write, boot_id, name="tray-sim", floor=SettleDetector() if self.floor else None
        )
        self.dice = FakeDice(self.app)
        self.app.blink = self.dice.blink
        self.started = ticks_ms()
        self.next_beat = self.started

    def reboot(self, boot_id, hello=True):
        # type: (int, bool) -> None
        """The board restarts: a new boot id, its count and uptime from 0, no dice until
        they join again.  `hello=False`: its HELLO line is lost on the way."""
        self._boot(boot_id)
        if hello:
            self.app.hello()

    def _write(self, data):
        if self.serial is None:
            self.dropped += 1
        else:
            self.serial.write(data)

    def plug(self, serial):
        # type: (FdStream | UsbSerial | None) -> None
        """Swap the serial port (None: the cable is out, frames go nowhere)."""
        if self.serial is not None:
            try:
                self.poller.unregister(self.serial.pollable)
            except (KeyError, ValueError, OSError):
                pass
        self.serial = serial
        if serial is not None:
            self.poller.register(serial.pollable, select.POLLIN)

    def run(self):
        # type: () -> TrayApp
        """Runs until the control channel says quit or closes."""
        pending = b""
        self.app.hello()
        while True:
            app = self.app
            now = ticks_ms()
            if now - self.next_beat >= 0:
                app.heartbeat((now - self.started) // 1000)
                self.next_beat = now + 1000
            wait = max(0, min(1000, self.next_beat - now))
            for obj, _ in self.poller.poll(wait):
                serial = self.serial
                if serial is not None and (obj is serial.pollable or obj == serial.pollable):
                    data = serial.read_available()
                    if data is None:
                        self.plug(None)  # no host end: keep the dice going
                    elif data:
                        app.host_bytes(data)
                    continue
                data = self.control.read_available()
                if data is None:
                    return app
                pending += data
                while b"\n" in pending:
                    line, pending = pending.split(b"\n", 1)
                    words = line.decode().split()
                    if words and words[0] == "quit":
                        return app
                    if words and words[0] == "reboot":  # reboot BOOTID [lost]
                        self.reboot(int(words[1], 16), hello="lost" not in words)
                    elif not self.dice.command(words) and self.extra is not None:
                        self.extra(self, words)


def main(argv):
    control = UsbSerial(open(argv[1], "rb"), None)
    boot_id = int(argv[2], 16) if len(argv) > 2 else ticks_ms() & 0xFFFF
    TraySim(UsbSerial(), control, boot_id, floor="--floor" in argv).run()
    # stdout is the serial port (the REPL's, as on a board): say nothing more on it.


if __name__ == "__main__":
    main(sys.argv)
