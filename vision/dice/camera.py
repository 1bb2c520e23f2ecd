"""The camera as a dice source (issue 28): dice read from frames become roll events.

Three parts, none of which knows the session or a game:

* `DiceWatcher` reads the newest frame of a live camera on its own thread, reads its dice
  with `reader.DiceReader`, and hands frame and dice to a callback (the app moves them to
  its UI loop), so the screen never waits for the camera or the model;
* `Stillness` says when the same dice have shown the same faces, in the same places, for a
  few frames and about a second: the moment a table would call the roll done;
* `CameraDiceSource` is a `hardware.source.DiceSource` like the tray: when the table takes
  the dice it sees (one tap, the dice held still, or a phone's photo), each die becomes a
  settled `RollEvent` ("camera:1", "camera:2", ... left to right, top to bottom) on its
  `rolls()` stream, and the app's `RequestAnswerer` answers the waiting roll with them as
  it does for any other source.  An unsure die (face None) is never turned into an event:
  the table taps its value first.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import AsyncIterator, Callable
from typing import TYPE_CHECKING

from hardware.source import SETTLED, DeviceInfo, DiceSource, RollEvent
from vision.frames import FrameSource, SourceError

if TYPE_CHECKING:
    import numpy as np

    from vision.dice.reader import DiceReader, DieRead

log = logging.getLogger(__name__)

READ_EVERY = 0.12  # seconds between reads of a live camera: ~8 a second is enough to see
STILL_FRAMES = 5  # the same dice over this many reads ...
STILL_SECONDS = 1.0  # ... and at least this long count as still
SOURCE_NAME = "camera dice"


def same_dice(a: tuple[DieRead, ...], b: tuple[DieRead, ...], faces: bool = True) -> bool:
    """Whether two reads show the same dice: as many, each centre within half a die of the
    other's, and (with `faces`) the same faces.  Reads are sorted by place, so die i of one
    is die i of the other."""
    if len(a) != len(b):
        return False
    for x, y in zip(a, b, strict=True):
        if faces and x.face != y.face:
            return False
        size = max(x.box[2] - x.box[0], x.box[3] - x.box[1], 1)
        cx, cy = (x.box[0] + x.box[2]) / 2, (x.box[1] + x.box[3]) / 2
        dx, dy = (y.box[0] + y.box[2]) / 2 - cx, (y.box[1] + y.box[3]) / 2 - cy
        if max(abs(dx), abs(dy)) > size / 2:
            return False
    return True


class Stillness:
    """Counts how long the same dice have been seen; `still` once they have held for
    `frames` reads and `seconds`.  `taken()` marks the dice in view as answered, so dice
    left lying after their roll never answer the next one: they must change first."""

    def __init__(self, frames: int = STILL_FRAMES, seconds: float = STILL_SECONDS) -> None:
        self.frames, self.seconds = frames, seconds
        self._last: tuple[DieRead, ...] | None = None
        self._since = 0.0
        self._count = 0
        self._taken = False
        self._now = 0.0

    def see(self, dice: tuple[DieRead, ...], now: float) -> None:
        if self._last is not None and same_dice(self._last, dice):
            self._count += 1
        else:
            self._since, self._count, self._taken = now, 1, False
        self._last = dice
        self._now = now

    @property
    def still(self) -> bool:
        return (
            self._last is not None
            and bool(self._last)
            and self._count >= self.frames
            and self._now - self._since >= self.seconds
        )

    @property
    def ready(self) -> bool:
        """Still, and not yet taken: the moment to take the roll by itself."""
        return self.still and not self._taken

    def taken(self) -> None:
        self._taken = True


class CameraDiceSource(DiceSource):
    """Dice the camera saw, once the table takes them, as settled roll events."""

    kind = "camera"

    def __init__(self, name: str = SOURCE_NAME) -> None:
        self.name = name
        self.status = "disconnected"
        self._queue: asyncio.Queue[RollEvent | None] = asyncio.Queue()
        self._seq = 0

    async def discover(self, timeout: float = 5.0) -> list[DeviceInfo]:
        return [self.info()]

    def info(self) -> DeviceInfo:
        return DeviceInfo("camera", "Camera dice", self.kind, connected=self.status == "connected")

    async def connect(self, device_id: str | None = None) -> None:
        self.status = "connected"

    async def disconnect(self) -> None:
        self.status = "disconnected"
        self._queue.put_nowait(None)

    def take(self, faces: list[int], by: str | None = None) -> list[RollEvent]:
        """The table took these faces (1 to 6, one per die in reading order): one settled
        event per die, all with a new roll number, on the stream.  `by` names where they
        came from in the record when it is not the tablet's camera ("phone photo")."""
        if any(not 1 <= f <= 6 for f in faces):
            raise ValueError(f"a six-sided die has no face {faces}")
        self._seq += 1
        now = time.monotonic()
        events = [
            RollEvent(f"camera:{i}", face - 1, SETTLED, now, self._seq, by or self.name)
            for i, face in enumerate(faces, start=1)
        ]
        for event in events:
            self._queue.put_nowait(event)
        return events

    async def rolls(self) -> AsyncIterator[RollEvent]:
        while True:
            event = await self._queue.get()
            if event is None:
                return
            yield event


class ReaderLock:
    """One `DiceReader` shared by the live camera's thread and a phone's photo: OpenCV's
    networks are not safe to run from two threads at once, so reads take turns.  The
    models are loaded on first use (a table that never turns the camera on never pays)."""

    def __init__(self, make: Callable[[], DiceReader] | None = None) -> None:
        self._make = make
        self._reader: DiceReader | None = None
        self._lock = threading.Lock()

    @property
    def signature(self) -> str | None:
        """The loaded model's signature (None before the first read loads it)."""
        return self._reader.signature if self._reader is not None else None

    def read(self, image: np.ndarray) -> tuple[DieRead, ...]:
        with self._lock:
            if self._reader is None:
                if self._make is not None:
                    self._reader = self._make()
                else:
                    from vision.dice.reader import DiceReader

                    self._reader = DiceReader()
            return tuple(self._reader.read(image))


class DiceWatcher:
    """Reads the dice in a live camera's frames on a thread of its own.  `on_read(frame,
    dice)` and `on_error(words)` are called on that thread."""

    def __init__(
        self,
        source: FrameSource,
        reader: ReaderLock,
        on_read: Callable[[np.ndarray, tuple[DieRead, ...]], None],
        on_error: Callable[[str], None],
        every: float = READ_EVERY,
    ) -> None:
        self.source, self.reader, self.every = source, reader, every
        self.on_read, self.on_error = on_read, on_error
        self.frames = 0  # frames read, for tests and figures
        self._stop = threading.Event()
        self._closing = threading.Lock()
        self._closed = False
        self._thread = threading.Thread(target=self._run, name="dice camera", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self, close: bool = False) -> None:
        """Stop reading; the camera is closed by the reading thread as it ends, or here
        with `close` (a camera that must be closed on the caller's thread, as Kivy's,
        whose waiting read this wakes).  Returns at once."""
        self._stop.set()
        if close:
            self._close()

    def _close(self) -> None:
        with self._closing:
            if self._closed:
                return
            self._closed = True
        try:
            self.source.close()
        except Exception:
            log.exception("closing the dice camera")

    def join(self, timeout: float) -> None:
        if self._thread.is_alive():
            self._thread.join(timeout)

    def _run(self) -> None:
        from vision.dice.reader import DiceModelError

        try:
            while not self._stop.is_set():
                started = time.monotonic()
                frame = self.source.read()
                if frame is None:
                    break
                if frame.size == 0:
                    continue  # a dropped frame
                dice = self.reader.read(frame)
                self.frames += 1
                if self._stop.is_set():
                    break
                self.on_read(frame, dice)
                self._stop.wait(max(0.0, self.every - (time.monotonic() - started)))
        except (SourceError, DiceModelError) as exc:
            self.on_error(str(exc))
        except Exception as exc:  # nothing in a frame may take the app down
            log.exception("the dice camera stopped")
            self.on_error(f"the dice camera stopped: {exc}")
        finally:
            self._close()
