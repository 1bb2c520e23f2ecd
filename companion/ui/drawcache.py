"""A panel whose contents are drawn into a picture of their own, redrawn only when they change.

Why: Kivy redraws the whole window every frame, and the game's view (Direwild's board
alone is some 90 draw calls; the whole view about 190) is drawn again for every frame the
camera preview shows while a card is asked for, although it has not changed.  Each draw
call costs a GPU command and, on a machine with no GPU, about 26 KB of the software
renderer's memory for the frame (issue 26: about 12 MB with the session screen and the
preview, benchmarks/bench_memory.py).  Drawn into a framebuffer (`Fbo`) the view costs one
draw call a frame, and its ~190 only when something in it changes; the picture costs its
pixels (the area's size, 4 bytes each, and a stencil buffer for the scrolling areas in it).

What is shown is the same to the pixel: the framebuffer starts transparent, holds the
panel's own background and the children drawn over it as on the window (the same
fractional positions, moved by whole pixels only), and is drawn back unscaled.  Touches,
sizes and positions are those of the widgets, untouched: only where their drawing goes
differs.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from kivy.graphics import ClearBuffers, ClearColor, Color, Fbo, Rectangle, Translate

from companion.ui.style import style
from companion.ui.widgets import Panel


class CachedPanel(Panel):
    """A `Panel` drawing its children into a framebuffer of its size (see the module)."""

    def __init__(self, **kwargs: object) -> None:
        self.fbo = Fbo(size=(1, 1), with_stencilbuffer=True)
        with self.fbo:
            ClearColor(0, 0, 0, 0)
            ClearBuffers(clear_color=True, clear_stencil=True)
            self._shift = Translate(0, 0)
            self._fill = Color(*style.panel)
            self._back = Rectangle()
        super().__init__(**kwargs)
        self.canvas.add(self.fbo)  # drawn into when something in it changed, then shown
        with self.canvas:
            Color(1, 1, 1, 1)
            self._picture = Rectangle(texture=self.fbo.texture)
        self.bind(pos=self._fit, size=self._fit, fill=self._colour)
        style.bind(panel=self._colour)
        self._fit()

    def _colour(self, *_args: object) -> None:
        self._fill.rgba = self.fill or style.panel

    def _fit(self, *_args: object) -> None:
        """The framebuffer covers every pixel the panel touches; its contents are moved by
        whole pixels only, so each is drawn as it would be on the window."""
        x, y = math.floor(self.x), math.floor(self.y)
        w = max(1, math.ceil(self.right) - x)
        h = max(1, math.ceil(self.top) - y)
        if tuple(self.fbo.size) != (w, h):
            self.fbo.size = (w, h)
            self._picture.texture = self.fbo.texture
        self._shift.xy = (-x, -y)
        self._back.pos, self._back.size = self.pos, self.size
        self._picture.pos, self._picture.size = (x, y), (w, h)

    # children's canvases go into the framebuffer, not the panel's own canvas (as Kivy's
    # EffectWidget does)
    def add_widget(self, *args: object, **kwargs: object) -> None:
        self._into_picture(super().add_widget, *args, **kwargs)

    def remove_widget(self, *args: object, **kwargs: object) -> None:
        self._into_picture(super().remove_widget, *args, **kwargs)

    def clear_widgets(self, *args: object, **kwargs: object) -> None:
        self._into_picture(super().clear_widgets, *args, **kwargs)

    def _into_picture(self, change: Callable[..., object], *args: object, **kwargs: object) -> None:
        """`change` (Kivy's own add, remove or clear) with the framebuffer standing in for
        the panel's canvas, where Kivy puts and looks for the children's canvases."""
        own = self.canvas  # set through setattr: mypy takes an assignment as a new type
        setattr(self, "canvas", self.fbo)  # noqa: B010
        try:
            change(*args, **kwargs)
        finally:
            setattr(self, "canvas", own)  # noqa: B010
