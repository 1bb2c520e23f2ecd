"""Dice latency and throughput, each against a floor measured in the same run.

* pty floor: a line written to a pseudo-terminal's master, read back on its slave.
* serial: a tray ROLL line written to the pty -> the serial source (pyserial, the event
  loop's reader) -> a RollEvent in the consumer of `source.rolls()`; and on through
  RequestAnswerer.feed (the event delivered to the session's answering).
* throughput: 1,000 rolls/s for 3 s paced, then a burst as fast as the pty takes them;
  every roll must arrive.
* BLE floor: a notification through the real BleakClient (in-memory backend) to a plain
  callback that queues the bytes; BLE: a Pixels rollState notification to a RollEvent.

Run: `make bench` or `.venv/bin/python -m benchmarks dice`.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import pty
import statistics
import threading
import time
import tty

from firmware.common import wire

TARGET_P99_MS = 1.0


def _figures(name: str, samples_s: list[float], floor: list[float] | None = None) -> float:
    us = sorted(s * 1e6 for s in samples_s)
    med = statistics.median(us)
    p99 = us[min(len(us) - 1, int(len(us) * 0.99))]
    line = f"{name:44} median {med:8.1f} us   p99 {p99:8.1f} us"
    if floor:
        fl = sorted(s * 1e6 for s in floor)
        f_med = statistics.median(fl)
        f_p99 = fl[min(len(fl) - 1, int(len(fl) * 0.99))]
        line += f"   x{med / f_med:5.1f} median, x{p99 / f_p99:5.1f} p99 of floor"
    print(line, flush=True)
    return p99 / 1000  # ms


def pty_floor(n: int = 3000) -> list[float]:
    master, slave = pty.openpty()
    tty.setraw(slave)
    line = wire.encode(1, wire.ROLL, ("1", "1", "S", "4"))
    out = []
    try:
        for _ in range(n):
            t0 = time.perf_counter()
            os.write(master, line)
            got = b""
            while not got.endswith(b"\n"):
                got += os.read(slave, 4096)
            out.append(time.perf_counter() - t0)
    finally:
        os.close(master)
        os.close(slave)
    return out


async def _serial_setup():
    from hardware.serial_tray import SerialTraySource

    master, slave = pty.openpty()
    tty.setraw(slave)
    source = SerialTraySource(os.ttyname(slave), name="bench")
    # play the tray's side of the handshake from a thread, as the firmware would
    ready = threading.Event()

    def tray_side() -> None:
        dec = wire.LineDecoder()
        replies = {
            wire.HELLO: [(wire.HELLO, ("1", "BE7C", "bench", "0", "roll"))],
            wire.SYNC: [(wire.DIE, ("1", "sim", "6", "d6")), (wire.SYNCED, ("1",))],
        }
        seq = 0
        while not ready.is_set():
            for frame in dec.feed(os.read(master, 4096)):
                for kind, fields in replies.get(frame.kind, ()):
                    os.write(master, wire.encode(seq, kind, fields))
                    seq += 1
                if frame.kind == wire.SYNC:
                    ready.set()

    thread = threading.Thread(target=tray_side, daemon=True)
    thread.start()
    await source.connect()
    thread.join(2)
    return source, master, slave


async def serial_latency(n: int = 3000):
    from companion.core.rules import Request
    from companion.table.dice_answers import RequestAnswerer

    source, master, slave = await _serial_setup()
    answerer = RequestAnswerer(_NeverAnswered(Request("dice", "bench", "", "d6", 2)))
    it = source.rolls().__aiter__()
    seq = 3  # the handshake used 0-2
    to_event, to_answerer = [], []
    try:
        for i in range(n):
            line = wire.encode(seq, wire.ROLL, ("1", str(i + 1), "S", str(i % 6)))
            seq += 1
            t0 = time.perf_counter()
            os.write(master, line)
            event = await it.__anext__()
            t1 = time.perf_counter()
            answerer.feed(event)
            t2 = time.perf_counter()
            to_event.append(t1 - t0)
            to_answerer.append(t2 - t0)
    finally:
        await source.disconnect()
        os.close(master)
        os.close(slave)
    return to_event, to_answerer


class _NeverAnswered:
    """A session whose request stays open (count 2, one die): feed runs its whole path
    every time without the SQLite commit of a real answer, measured on its own below."""

    def __init__(self, request):
        self.request = request
        self.pending = object()

    def answer(self, values, by):
        raise AssertionError("one die never completes a 2-dice request here")


async def serial_throughput(rate: int = 1000, seconds: float = 3.0, burst: int = 20000):
    source, master, slave = await _serial_setup()
    got = 0
    done = asyncio.Event()
    expected = [0]

    def count(_event) -> None:
        nonlocal got
        got += 1
        if got >= expected[0]:
            done.set()

    source.listeners.append(count)
    lines = [
        wire.encode(
            (3 + i) % wire.SEQ_MOD, wire.ROLL, ("1", str((i + 1) % wire.SEQ_MOD), "S", str(i % 6))
        )
        for i in range(max(burst, int(rate * seconds)))
    ]

    def paced(total: int) -> None:
        start = time.perf_counter()
        for i in range(total):
            target = start + i / rate
            while time.perf_counter() < target:
                time.sleep(0.0002)
            os.write(master, lines[i])

    total = int(rate * seconds)
    expected[0] = total
    t0 = time.perf_counter()
    writer = threading.Thread(target=paced, args=(total,))
    writer.start()
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(done.wait(), seconds + 10)
    writer.join()
    paced_rate = got / (time.perf_counter() - t0)
    paced_got = got
    # burst: as fast as the pty takes them (the writer blocks when the pty is full)
    got = 0
    done.clear()
    expected[0] = burst
    base = total

    def blast() -> None:
        for i in range(burst):
            os.write(
                master,
                wire.encode(
                    (3 + base + i) % wire.SEQ_MOD,
                    wire.ROLL,
                    ("1", str((base + i + 1) % wire.SEQ_MOD), "S", str(i % 6)),
                ),
            )

    t0 = time.perf_counter()
    writer = threading.Thread(target=blast)
    writer.start()
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(done.wait(), 60)
    writer.join()
    burst_rate = got / (time.perf_counter() - t0)
    await source.disconnect()
    os.close(master)
    os.close(slave)
    return (paced_got, total, paced_rate), (got, burst, burst_rate), source.link.rejected


async def ble_latency(n: int = 3000):
    from bleak import BleakClient, BleakScanner

    from firmware.common import pixels
    from hardware.fake_devices import FakePixelsDie
    from hardware.fake_radio import Air, MemoryClient, MemoryScanner
    from hardware.pixels import PixelsSource

    air = Air()
    die = FakePixelsDie(air, "C0:FF:EE:00:00:01")
    # floor: the real BleakClient with a plain callback that queues what it gets
    device = await BleakScanner.find_device_by_address(
        "C0:FF:EE:00:00:01", backend=MemoryScanner, air=air
    )
    floor = []
    async with BleakClient(device, backend=MemoryClient, air=air) as client:
        queue: asyncio.Queue[bytes] = asyncio.Queue()
        await client.start_notify(pixels.NOTIFY, lambda _c, d: queue.put_nowait(bytes(d)))
        for i in range(n):
            t0 = time.perf_counter()
            die.send(bytes([pixels.ROLL_STATE, 1, i % 20]))
            await queue.get()
            floor.append(time.perf_counter() - t0)
    source = PixelsSource(
        client_backend=MemoryClient, scanner_backend=MemoryScanner, radio_options={"air": air}
    )
    await source.connect()
    it = source.rolls().__aiter__()
    samples = []
    try:
        for i in range(n):
            face = (i % 19) + 1 if i % 2 else 0  # a new face every time: a new result
            die.send(bytes([pixels.ROLL_STATE, 3, face]))
            await it.__anext__()  # rolling
            t0 = time.perf_counter()
            die.send(bytes([pixels.ROLL_STATE, 1, face]))  # rolled
            await it.__anext__()
            samples.append(time.perf_counter() - t0)
    finally:
        await source.disconnect()
    return floor, samples


def answer_cost(n: int = 200) -> list[float]:
    """The real session.answer (one SQLite transaction) after a roll, for scale."""
    import tempfile
    from pathlib import Path

    from companion.core.session import Session

    try:
        from tests.fixtures.tinygame import GAME
    except ImportError:
        return []
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        os.environ.setdefault(
            "COMPANION_CONTENT_PATH",
            str(Path(__file__).resolve().parent.parent / "tests/fixtures/content"),
        )
        session = Session.create(Path(tmp) / "b.session", GAME)
        try:
            for _ in range(n):
                session.do("roll", {"count": 1})
                t0 = time.perf_counter()
                session.answer([3], by="bench")
                out.append(time.perf_counter() - t0)
        finally:
            session.close()
    return out


def main() -> None:
    floor = pty_floor()
    _figures("floor: line across a bare pty", floor)
    to_event, to_answerer = asyncio.run(serial_latency())
    p99_event = _figures("serial: pty line -> RollEvent", to_event, floor)
    p99_feed = _figures("serial: pty line -> RequestAnswerer.feed done", to_answerer, floor)
    (pg, pt, prate), (bg, bt, brate), rejected = asyncio.run(serial_throughput())
    print(
        f"{'throughput: paced 1000 rolls/s for 3 s':44} {pg}/{pt} rolls arrived "
        f"({prate:,.0f}/s), none lost: {pg == pt}",
        flush=True,
    )
    print(
        f"{'throughput: burst':44} {bg}/{bt} rolls arrived ({brate:,.0f}/s), none lost: "
        f"{bg == bt}, frames rejected: {rejected}",
        flush=True,
    )
    ble_floor, ble = asyncio.run(ble_latency())
    _figures("floor: BLE notify -> bleak callback -> queue", ble_floor)
    p99_ble = _figures("BLE: Pixels rollState notify -> RollEvent", ble, ble_floor)
    cost = answer_cost()
    if cost:
        _figures("session.answer (SQLite commit), for scale", cost)
    verdict = "met" if max(p99_event, p99_feed, p99_ble) <= TARGET_P99_MS else "MISSED"
    print(
        f"targets (p99 <= {TARGET_P99_MS} ms, 1000 rolls/s none lost): {verdict}"
        f"{'' if pg == pt and bg == bt else ' (rolls lost)'}",
        flush=True,
    )


if __name__ == "__main__":
    main()
