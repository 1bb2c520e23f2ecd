"""Real tray traffic, recorded and replayed (issue 26: a ROLL frame seen before must never
become a roll again).

`record()` runs the tray firmware (the simulated tray: CPython thread or the MicroPython
unix port) behind a real pseudo-terminal, connects the ordinary serial source to it and
keeps every byte the source read, while dice roll, the cable comes out and goes back in,
and the tray reboots once with its HELLO lost and once with it heard.  `replay_over_pty`
writes recorded ROLL frames back into the same pty, as a faulty hub or a malicious device
would, and counts the roll events that come out.

    .venv/bin/python -m tests.hardware.traffic      # prints the replay figure
    .venv/bin/python -m tests.hardware.traffic --save tests/hardware/data/tray_traffic.log
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from firmware.common import wire
from hardware.serial_tray import SerialTraySource
from hardware.simulated import SimulatedTray
from hardware.source import RollEvent

FIRST_BOOT, LOST_HELLO_BOOT, HEARD_BOOT = 0x0A11, 0x0B22, 0x0C33


@dataclass
class Recording:
    """What one session of real traffic gave: the bytes as read, and the rolls delivered."""

    data: list[bytes] = field(default_factory=list)  # each read from the pty, in order
    events: list[RollEvent] = field(default_factory=list)
    opens: list[int] = field(default_factory=list)  # data indexes where a connection began

    def frames(self) -> list[wire.Frame]:
        return [f for f in self.session() if f is not None]

    def session(self) -> list[wire.Frame | None]:
        """The frames as the host read them, None where the port was opened (again)."""
        decoder = wire.LineDecoder()
        out: list[wire.Frame | None] = []
        for i, chunk in enumerate(self.data):
            if i in self.opens:
                decoder.reset()
                out.append(None)
            out += [f for f in decoder.feed(chunk) if isinstance(f, wire.Frame)]
        return out

    def save(self, path: str) -> None:
        """One frame a line as it travelled, `# open` where the port was opened."""
        with open(path, "wb") as out:
            out.write(b"# tray traffic recorded by tests/hardware/traffic.py\n")
            for f in self.session():
                out.write(b"# open\n" if f is None else wire.encode(f.seq, f.kind, f.fields))

    @staticmethod
    def load(path: str) -> list[wire.Frame | None]:
        decoder = wire.LineDecoder()
        out: list[wire.Frame | None] = []
        with open(path, "rb") as src:
            for line in src:
                if line == b"# open\n":
                    out.append(None)
                elif not line.startswith(b"#"):
                    out += [f for f in decoder.feed(line) if isinstance(f, wire.Frame)]
        return out

    def lines(self, kinds: tuple[str, ...] | None = None) -> list[bytes]:
        """Every recorded frame as its line (only `kinds` when given)."""
        return [
            wire.encode(f.seq, f.kind, f.fields)
            for f in self.frames()
            if kinds is None or f.kind in kinds
        ]


async def until(condition: Callable[[], bool], timeout: float = 10.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        await asyncio.sleep(0.01)
    return condition()


class _Taped(SerialTraySource):
    """The serial source, keeping a copy of every byte it reads off the port."""

    def __init__(self, port: str, tape: Recording) -> None:
        super().__init__(port, name="sim-tray")
        self.tape = tape

    async def _open(self) -> None:
        self.tape.opens.append(len(self.tape.data))
        await super()._open()

    def feed(self, data: bytes) -> None:
        self.tape.data.append(bytes(data))
        super().feed(data)


async def record(
    runtime: str = "cpython", rolls_per_phase: int = 30
) -> tuple[Recording, SimulatedTray, SerialTraySource]:
    """A session of real traffic; the tray and the source are left running (the caller
    stops them).  Each phase rolls `rolls_per_phase` times over the tray's dice."""
    tape = Recording()
    tray = SimulatedTray(runtime=runtime, boot_id=FIRST_BOOT).start()
    source = _Taped(tray.link, tape)
    source.listeners.append(tape.events.append)
    try:
        await source.connect()
        dice = [d.id for d in tray.dice]

        async def phase(n: int, crooked: bool = False) -> None:
            want = len([e for e in tape.events if e.state != "rolling"]) + n
            for i in range(n):
                die = dice[i % len(dice)]
                if crooked and i % 7 == 3:
                    tray.control(f"crooked {die} {i % 6}")
                else:
                    tray.roll([i % 6], dice=[die])
            done = await until(
                lambda: len([e for e in tape.events if e.state != "rolling"]) >= want
            )
            assert done, f"only {len(tape.events)} events arrived"

        await phase(rolls_per_phase, crooked=True)
        if runtime == "cpython":  # the cable out and back in: a reconnect
            tray.unplug()
            for i in range(5):
                tray.roll([i], dice=[dice[i]])
            await asyncio.sleep(0.1)
            tray.replug()
            assert await until(lambda: source.status == "connected" and source.reconnects >= 1)
        await phase(rolls_per_phase)
        tray.reboot(LOST_HELLO_BOOT, hello_lost=True)
        assert await until(lambda: source.link.state.boot_id == f"{LOST_HELLO_BOOT:04X}")
        await phase(rolls_per_phase)
        tray.reboot(HEARD_BOOT)
        assert await until(lambda: source.link.state.boot_id == f"{HEARD_BOOT:04X}")
        await phase(rolls_per_phase)
    except BaseException:
        await source.disconnect()
        tray.stop()
        raise
    return tape, tray, source


async def replay_over_pty(
    tray: SimulatedTray, source: SerialTraySource, lines: list[bytes], settle: float = 1.0
) -> list[RollEvent]:
    """Writes `lines` into the tray's end of the pty; the roll events they caused."""
    got: list[RollEvent] = []
    source.listeners.append(got.append)
    try:
        for line in lines:
            while True:
                try:
                    os.write(tray._master, line)
                    break
                except BlockingIOError:  # the pty is full: let the source read
                    await asyncio.sleep(0.005)
        await asyncio.sleep(settle)
    finally:
        source.listeners.remove(got.append)
    return got


async def _main(save: str | None) -> None:
    tape, tray, source = await record(rolls_per_phase=40)
    if save:
        tape.save(save)
    try:
        print(f"recorded: {len(tape.frames())} frames, {len(tape.events)} roll events")
        rolls = tape.lines((wire.ROLL,))[:300]
        events = await replay_over_pty(tray, source, rolls)
        print(f"replayed {len(rolls)} old ROLL frames -> {len(events)} roll events")
        every = tape.lines()
        events = await replay_over_pty(tray, source, every)
        print(f"replayed all {len(every)} recorded frames -> {len(events)} roll events")
    finally:
        await source.disconnect()
        tray.stop()


if __name__ == "__main__":
    import sys

    # `--save PATH`: keep the recording (tests/hardware/data/tray_traffic.log is one)
    asyncio.run(_main(sys.argv[2] if sys.argv[1:2] == ["--save"] else None))
