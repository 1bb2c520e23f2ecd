"""Opening a camera off Kivy's thread, shared by the card scanner and the camera dice.

OpenCV's capture can take seconds to open (or hang on a missing device), so it is
opened on a worker thread; where it cannot open (Android has no OpenCV capture), the
panel falls back to Kivy's own camera provider, which must be made on Kivy's thread."""

from __future__ import annotations

import logging
from collections.abc import Callable

from kivy.clock import Clock
from kivy.utils import platform

from vision.frames import FrameSource, SourceError

log = logging.getLogger(__name__)


def open_camera(
    open_source: Callable[[int], FrameSource],
    index: int,
    opened: Callable[[FrameSource], None],
    open_kivy: Callable[[str | None], None],
) -> None:
    """On a worker thread: `opened(source)` there with OpenCV's camera, else
    `open_kivy(why OpenCV refused, or None)` on Kivy's thread."""
    if platform == "android":  # pragma: no cover - only on a tablet
        Clock.schedule_once(lambda _dt: open_kivy(None))
        return
    try:
        source = open_source(index)
    except SourceError as exc:
        message = str(exc)
        Clock.schedule_once(lambda _dt: open_kivy(message))
        return
    except Exception as exc:  # a platform without a camera backend
        log.info("camera unavailable: %s", exc)
        Clock.schedule_once(lambda _dt: open_kivy("the camera could not be opened"))
        return
    opened(source)
