"""Where frames come from: a camera by index, a video file, or a folder of images.

All three give BGR frames through `read()` (None when a file source is used up) so the
scanner, the CLI and the tests treat them alike.  The camera is the outside world: tests
pass their own `capture` factory in place of `cv2.VideoCapture`.

OpenCV and numpy are imported when a source is opened, not with this module: the Cards
panel imports it, and the two cost about 27 MB resident that a table with the camera off
(Settings) need not pay.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    import numpy as np

IMAGE_SUFFIXES = {".png", ".jpg", ".jpeg", ".bmp", ".webp", ".tif", ".tiff", ".pgm", ".ppm"}


class SourceError(Exception):
    """A source that cannot give frames, in words a player can act on."""


class FrameSource(Protocol):
    name: str
    live: bool  # a camera: frames come whether or not we keep up, so drop the old ones

    def read(self) -> np.ndarray | None: ...

    def close(self) -> None: ...


class CameraSource:
    """A camera by index (0 is the first), asked for 1280x720."""

    live = True

    def __init__(
        self,
        index: int,
        width: int = 1280,
        height: int = 720,
        capture: Callable[[int], Any] | None = None,  # cv2.VideoCapture
    ) -> None:
        import cv2

        self.name = f"camera {index}"
        self._cap = _quietly(capture or cv2.VideoCapture, index)
        if not self._cap.isOpened():
            self._cap.release()
            raise SourceError(
                f"camera {index} could not be opened: is it connected, and not "
                "in use by another app? (camera choice is in Settings)"
            )
        self._cap.set(cv2.CAP_PROP_FRAME_WIDTH, width)
        self._cap.set(cv2.CAP_PROP_FRAME_HEIGHT, height)
        self.failures = 0

    def read(self) -> np.ndarray | None:
        import numpy as np

        ok, frame = self._cap.read()
        if not ok or frame is None:
            self.failures += 1
            if self.failures >= 30:
                raise SourceError(f"{self.name} stopped sending pictures (was it unplugged?)")
            return np.empty((0, 0, 3), np.uint8)  # a dropped frame: nothing to decode
        self.failures = 0
        return np.asarray(frame)

    def close(self) -> None:
        self._cap.release()


class VideoSource:
    """A recorded video, frame by frame (to replay a table session or a bug report)."""

    live = False

    def __init__(self, path: Path | str) -> None:
        self.name = str(path)
        if not Path(path).is_file():
            raise SourceError(f"there is no video file {path}")
        import cv2

        self._cap = cv2.VideoCapture(str(path))
        if not self._cap.isOpened():
            raise SourceError(f"{path} is not a video this build of OpenCV can read")

    def read(self) -> np.ndarray | None:
        ok, frame = self._cap.read()
        return frame if ok else None

    def close(self) -> None:
        self._cap.release()


class ImageSource:
    """Image files in order: a folder's images sorted by name, or files given one by one.

    An unreadable file is skipped and listed in `skipped`, so one bad photo does not stop
    a folder being checked.
    """

    live = False

    def __init__(self, given: Iterable[Path | str]) -> None:
        paths = [Path(p) for p in given]
        self.files: list[Path] = []
        for p in paths:
            if p.is_dir():
                self.files += sorted(
                    f for f in p.iterdir() if f.suffix.lower() in IMAGE_SUFFIXES and f.is_file()
                )
            elif p.is_file():
                self.files.append(p)
            else:
                raise SourceError(f"there is no file or folder {p}")
        self.name = ", ".join(map(str, paths))
        self.skipped: list[Path] = []
        self.current: Path | None = None
        self._next = 0

    def read(self) -> np.ndarray | None:
        import cv2

        while self._next < len(self.files):
            path = self.files[self._next]
            self._next += 1
            frame = cv2.imread(str(path), cv2.IMREAD_COLOR)
            if frame is None:
                self.skipped.append(path)
                continue
            self.current = path
            return frame
        return None

    def close(self) -> None:
        self._next = len(self.files)


def _quietly(capture: Callable[[int], Any], index: int) -> Any:
    """Open a camera without OpenCV's own warnings: a missing camera gets our sentence."""
    import cv2

    logging = getattr(cv2, "utils", None) and getattr(cv2.utils, "logging", None)
    if logging is None:
        return capture(index)
    before = logging.getLogLevel()
    logging.setLogLevel(logging.LOG_LEVEL_SILENT)
    try:
        return capture(index)
    finally:
        logging.setLogLevel(before)


def open_source(spec: str | int) -> FrameSource:
    """`0` or `"1"` is a camera, a folder or an image is images, anything else a video."""
    if isinstance(spec, int) or (isinstance(spec, str) and spec.isdigit()):
        return CameraSource(int(spec))
    path = Path(spec)
    if path.is_dir() or path.suffix.lower() in IMAGE_SUFFIXES:
        return ImageSource([path])
    return VideoSource(path)
