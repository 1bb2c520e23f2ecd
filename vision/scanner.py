"""The scanner: frames in, sightings out, on its own threads so the UI never waits.

For a live camera one thread keeps grabbing so the newest frame is always at hand (for
the preview, and so decoding never falls behind into stale frames) and another decodes
the newest frame whenever it is free.  For a video or a folder one thread decodes every
frame in order.  Sightings go to `on_sighting`, called on the scanner's thread: the Kivy
app hands them to its loop with `Clock.schedule_once` (or asyncio's
`call_soon_threadsafe`) and answers the session there, since a session belongs to one
thread.  They are also put on `sightings`, a queue the CLI and tests can drain.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from vision.decode import Cascade, Decoder, Found
from vision.frames import FrameSource, SourceError
from vision.tracker import Sighting, Tracker


@dataclass
class ScanStats:
    frames: int = 0
    decode_ms: float = 0.0

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
    ) -> None:
        self.source = source
        self.decoder = decoder or Cascade()
        self.tracker = tracker or Tracker()
        self.on_sighting = on_sighting
        self.on_error = on_error
        self.sightings: queue.Queue[Sighting] = queue.Queue()
        self.stats = ScanStats()
        self.error: str | None = None
        self.last_found: list[Found] = []  # the codes in the last decoded frame, to outline
        self._latest: np.ndarray | None = None
        self._grabbed = 0  # frames grabbed so far; the decoder skips to the newest
        self._fresh = threading.Condition()
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []

    # -- the work ------------------------------------------------------------------------

    def process(self, frame: np.ndarray) -> list[Sighting]:
        """Decode one frame and vote; the same code path the threads use."""
        if not frame.size:
            return []  # a frame the camera dropped is no evidence either way
        start = time.perf_counter()
        found = self.decoder(frame)
        self.stats.decode_ms += (time.perf_counter() - start) * 1000.0
        self.stats.frames += 1
        self.last_found = found
        out = self.tracker.update(f.text for f in found)
        for sighting in out:
            self.sightings.put(sighting)
            if self.on_sighting is not None:
                self.on_sighting(sighting)
        return out

    @property
    def latest(self) -> np.ndarray | None:
        """The newest frame, for the preview."""
        return self._latest

    # -- threads -------------------------------------------------------------------------

    def start(self) -> None:
        if self._threads:
            raise RuntimeError("the scanner is already running")
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
                self.process(frame)
        except SourceError as exc:
            self._fail(str(exc))

    def _grab(self) -> None:
        try:
            while not self._stop.is_set():
                frame = self.source.read()
                if frame is None:
                    break
                with self._fresh:
                    self._latest = frame
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
        while not self._stop.is_set():
            with self._fresh:
                while self._grabbed == done and not self._stop.is_set():
                    self._fresh.wait(0.5)
                frame, done = self._latest, self._grabbed
            if frame is None or self._stop.is_set():
                continue
            self.process(frame)
