"""A stand-in Kivy camera provider that plays photographs: the camera, the one part faked.

It behaves as Kivy's providers do (Android's among them): a texture the size of the
photographs, rows blitted top-down into it and the texture flipped for GL, `on_texture`
dispatched on every frame at a camera's pace.  The last photograph stays in view.  The
Cards panel's `KivyCameraSource`, the scanner and everything after are the real thing.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from kivy.clock import Clock
from kivy.core.camera import CameraBase
from kivy.graphics.texture import Texture


class PhotoCamera(CameraBase):
    photos: list[np.ndarray] = []  # BGR, all one size; set before the panel opens it
    opened: list[PhotoCamera] = []  # every camera made, for the test to look at
    fps = 30.0

    def init_camera(self) -> None:
        h, w = self.photos[0].shape[:2]
        self._resolution = (w, h)
        self._texture = Texture.create(size=(w, h), colorfmt="rgb")
        self._texture.flip_vertical()
        self.shown = 0
        self._tick: Any = None
        PhotoCamera.opened.append(self)

    def start(self) -> None:
        super().start()
        self._tick = Clock.schedule_interval(self._update, 1 / self.fps)

    def stop(self) -> None:
        super().stop()
        if self._tick is not None:
            self._tick.cancel()

    def _update(self, _dt: float) -> None:
        photo = self.photos[min(self.shown, len(self.photos) - 1)]
        self.shown += 1
        self._buffer = np.ascontiguousarray(photo[:, :, ::-1]).tobytes()  # BGR to RGB
        self._format = "rgb"
        self._copy_to_gpu()
