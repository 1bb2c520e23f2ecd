"""The scanner: frames in, sightings out, on its own threads so the UI never waits.

For a live camera one thread keeps grabbing so the newest frame is always at hand (for
the preview, and so decoding never falls behind into stale frames) and another decodes
the newest frame whenever it is free.  For a video or a folder one thread decodes every
frame in order.  Sightings go to `on_sighting`, called on the scanner's thread: the Kivy
app hands them to its loop with `Clock.schedule_once` (or asyncio's
`call_soon_threadsafe`) and answers the session there, since a session belongs to one
thread.  They are also put on `sightings`, a queue the CLI and tests can drain.

Nothing in a frame can stop the scanner: an exception while decoding one is counted in
`stats.errors`, logged with the frame (written to `error_dir` when one is given, so the
photograph that did it can be replayed), and the next frame is decoded.  A live camera's
frames are decoded with a time budget (`LIVE_BUDGET_MS`, see `vision.decode.Cascade`), so
an empty table costs little battery; every frame is decoded as grey, at most
`DECODE_WIDTH` wide, and no full-size copy is kept beyond the newest frame.
"""

from __future__ import annotations

import ctypes
import logging
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.decode import Cascade, Decoder, Found
from vision.frames import FrameSource, SourceError
from vision.pixels import Unreadable, grey_frame
from vision.tracker import Sighting, Tracker

log = logging.getLogger(__name__)

LIVE_BUDGET_MS = 10.0  # per live frame, on average (the first zxing pass is about 1.5 ms)
DECODE_WIDTH = 1280  # frames wider are scaled down before decoding (a 720p camera's width)
KEEP_FAILED = 20  # at most this many frames that raised are written to `error_dir`
OPENCV_THREADS = 1  # the decoding thread is the scanner's parallelism; see `Scanner.start`
MMAP_THRESHOLD = 128 * 1024  # bytes: larger buffers are mapped and unmapped; see below
# seconds between handing freed memory back while a camera runs: at 1 s the holes a
# second left stood 0.5-0.7 MB higher in the median and 2-3 MB at the peak (bench_memory)
GIVE_BACK_EVERY = 0.5
M_MMAP_THRESHOLD = -3  # glibc's mallopt parameter


@dataclass
class ScanStats:
    frames: int = 0
    decode_ms: float = 0.0
    errors: int = 0  # frames (or stages in a frame) that raised, and were passed over
    refused: int = 0  # frames that were no picture (`Scanner.refused` says why)

    @property
    def mean_ms(self) -> float:
        return self.decode_ms / self.frames if self.frames else 0.0


class Scanner:
    def __init__(
        self,
        source: FrameSource,
        on_sighting: Callable[[Sighting], None] | None = None,
        decoder: Decoder | None = None,
        tracker: Tracker | None = None,
        on_error: Callable[[str], None] | None = None,
        error_dir: Path | None = None,
    ) -> None:
        self.source = source
        self.decoder = decoder or Cascade(budget_ms=LIVE_BUDGET_MS if source.live else None)
        self.error_dir = error_dir
        self.tracker = tracker or Tracker()
        self.on_sighting = on_sighting
        self.on_error = on_error
        self.sightings: queue.Queue[Sighting] = queue.Queue()
        self.stats = ScanStats()
        self.error: str | None = None
        self.refused = ""  # why the last frame that was no picture was passed over
        self.last_found: list[Found] = []  # the codes in the last decoded frame, to outline
        self._latest: np.ndarray | None = None
        self._grabbed = 0  # frames grabbed so far; the decoder skips to the newest
        self._fresh = threading.Condition()
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []

    # -- the work ------------------------------------------------------------------------

    def process(self, frame: np.ndarray) -> list[Sighting]:
        """Decode one frame and vote; the same code path the threads use."""
        return self._process([frame])

    def _process(self, held: list[np.ndarray]) -> list[Sighting]:
        """`process` of the one frame in `held`, which is emptied once the frame is turned
        into the grey one decoded: the live decoding thread hands its only reference to
        the camera's frame this way, so a frame the grabbing thread has replaced is let
        go while it is decoded, not held (2.7 MB at 720p) until the decoding ends."""
        frame = held.pop()
        if not getattr(frame, "size", 0):
            return []  # a frame the camera dropped is no evidence either way
        start = time.perf_counter()
        errors_before = getattr(self.decoder, "errors", 0)
        try:
            small, scale = decodable(frame)
            frame = small  # the camera's frame let go: one that raises is written grey
            found = [_scaled(f, scale) for f in self.decoder(small)]
        except Unreadable as exc:  # not a picture: said once, and not a card leaving
            self.stats.refused += 1
            if self.refused != str(exc):
                self.refused = str(exc)
                log.warning("a frame was passed over: %s", exc)
            return []
        except Exception as exc:  # a frame no stage could cope with: the next one may
            self._failed_frame(frame, f"{type(exc).__name__}: {exc}")
            found = []
        else:
            stage_errors = getattr(self.decoder, "errors", 0) - errors_before
            if stage_errors > 0:
                self._failed_frame(frame, str(getattr(self.decoder, "last_error", "")))
        self.stats.decode_ms += (time.perf_counter() - start) * 1000.0
        self.stats.frames += 1
        self.last_found = found
        out = self.tracker.update(f.text for f in found)
        for sighting in out:
            self.sightings.put(sighting)
            if self.on_sighting is not None:
                self.on_sighting(sighting)
        return out

    def _failed_frame(self, frame: np.ndarray, words: str) -> None:
        self.stats.errors += 1
        where = "not kept"
        if self.error_dir is not None and self.stats.errors <= KEEP_FAILED:
            path = self.error_dir / f"failed-{self.stats.frames + 1:06}.png"
            try:
                self.error_dir.mkdir(parents=True, exist_ok=True)
                where = str(path) if cv2.imwrite(str(path), frame) else "could not be written"
            except (OSError, cv2.error) as exc:
                where = f"could not be written ({exc})"
        log.warning(
            "frame %d (%s, %s) raised while decoding and was passed over: %s; frame %s",
            self.stats.frames + 1,
            "x".join(map(str, frame.shape)),
            frame.dtype,
            words,
            where,
        )

    @property
    def latest(self) -> np.ndarray | None:
        """The newest frame, for the preview."""
        return self._latest

    # -- threads -------------------------------------------------------------------------

    def start(self) -> None:
        if self._threads:
            raise RuntimeError("the scanner is already running")
        # OpenCV would otherwise start a worker per core for its filters: on a tablet's
        # eight cores that is seven more threads, each with its own malloc arena, competing
        # with the UI thread for frames the decoding thread handles well alone.
        cv2.setNumThreads(OPENCV_THREADS)
        if self.source.live:
            fixed_mmap_threshold()
        targets = [self._grab, self._decode_newest] if self.source.live else [self._in_order]
        for target in targets:
            t = threading.Thread(target=target, name=f"scanner-{target.__name__}", daemon=True)
            t.start()
            self._threads.append(t)

    def stop(self, timeout: float = 2.0) -> None:
        self._stop.set()
        with self._fresh:
            self._fresh.notify_all()
        for t in self._threads:
            t.join(timeout)
        self.source.close()

    def wait(self, timeout: float | None = None) -> bool:
        """Wait for a file source to be used up (or the scanner to stop); True if done."""
        deadline = None if timeout is None else time.monotonic() + timeout
        for t in self._threads:
            t.join(None if deadline is None else max(0.0, deadline - time.monotonic()))
        return not any(t.is_alive() for t in self._threads)

    @property
    def running(self) -> bool:
        return any(t.is_alive() for t in self._threads)

    def _fail(self, message: str) -> None:
        self.error = message
        self._stop.set()
        with self._fresh:
            self._fresh.notify_all()
        if self.on_error is not None:
            self.on_error(message)

    def _in_order(self) -> None:
        try:
            while not self._stop.is_set():
                frame = self.source.read()
                if frame is None:
                    return
                self._latest = frame
                self._process_safely([frame])
        except SourceError as exc:
            self._fail(str(exc))

    def _grab(self) -> None:
        try:
            while not self._stop.is_set():
                frame = self.source.read()
                if frame is None:
                    break
                with self._fresh:
                    # `_latest` its one reference here: the frame decoded or shown next
                    # is let go when a newer one replaces it, not while this thread
                    # waits for the camera's next frame
                    self._latest, frame = frame, None
                    self._grabbed += 1
                    self._fresh.notify()
        except SourceError as exc:
            self._fail(str(exc))
            return
        self._stop.set()
        with self._fresh:
            self._fresh.notify_all()

    def _decode_newest(self) -> None:
        done = 0
        given_back = time.monotonic()
        while not self._stop.is_set():
            with self._fresh:
                while self._grabbed == done and not self._stop.is_set():
                    self._fresh.wait(0.5)
                latest, done = self._latest, self._grabbed
            if latest is None or self._stop.is_set():
                continue
            held, latest = [latest], None  # the list its one reference: see `_process`
            self._process_safely(held)
            if time.monotonic() - given_back >= GIVE_BACK_EVERY:
                give_back_freed_memory()
                given_back = time.monotonic()
        give_back_freed_memory()  # the camera is off: what decoding freed goes back

    def _process_safely(self, held: list[np.ndarray]) -> None:
        """`_process` on a thread: whatever a frame or a listener raises, the thread
        lives (a listener's failure is counted with no frame written)."""
        try:
            self._process(held)
        except Exception as exc:
            self.stats.errors += 1
            log.warning("a frame's sightings raised and were passed over: %s", exc)


def fixed_mmap_threshold() -> bool:
    """Fix glibc's threshold for mapping large buffers at its default, so every camera
    frame (2.7 MB at 720p) and decoding buffer goes back to the system when freed.

    glibc raises the threshold to the size of each mapped buffer freed, up to 32 MB; after
    the first few frames the scanner's buffers then come from malloc's heaps, which keep
    the freed pages: 5-17 MB more resident memory with the preview running
    (benchmarks/bench_memory.py), for nothing.  Mapping a frame costs its page faults,
    about 0.1 ms.  Elsewhere (Android's allocator, macOS) there is no such setting and
    this does nothing; True if it was set.
    """
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return False
    return bool(mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD))


def give_back_freed_memory() -> bool:
    """Hand the pages malloc holds free back to the system (glibc's `malloc_trim`): every
    `GIVE_BACK_EVERY` seconds while a camera runs, and once when it stops.

    Frame after frame, blocks freed between blocks still in use leave holes in malloc's
    heaps that free() cannot give back (it only shrinks a heap from its top): with the
    preview running from OpenCV's capture about 15 MB of them in the main heap here
    (blocks of 64-128 KB: with the mmap threshold at 64 KB there were none; this
    machine's software renderer bins each frame in 64 KB blocks), 10 MB of the median
    resident memory (benchmarks/bench_memory.py).  It
    takes 0.2-2 ms (once 21 ms on this loaded machine), twice a second, on the decoding
    thread; freed
    pages used again cost their page faults.  Without glibc (Android's allocator,
    macOS) it does nothing; True if done."""
    try:
        trim = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):
        return False
    return bool(trim(0))


def decodable(frame: np.ndarray) -> tuple[np.ndarray, float]:
    """The frame as the decoder wants it: 8-bit grey, at most `DECODE_WIDTH` wide, and the
    scale it was shrunk by (the camera's own frame is never copied at full size)."""
    g = grey_frame(frame)  # 16-bit, float, BGRA...: 8-bit grey; raises `Unreadable`
    width = g.shape[1]
    if width <= DECODE_WIDTH:
        return g, 1.0
    scale = DECODE_WIDTH / width
    return cv2.resize(g, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA), scale


def _scaled(found: Found, scale: float) -> Found:
    """A code's corners back in the camera frame's pixels, to outline it on the preview."""
    if scale == 1.0:
        return found
    corners = tuple((x / scale, y / scale) for x, y in found.corners)
    return Found(found.text, corners, found.stage)
