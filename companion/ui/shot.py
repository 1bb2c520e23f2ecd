"""Screenshots taken on the frame after drawing.

A fixed delay sometimes captures a frame before the window was drawn (a black PNG), so
the capture is hooked on `Window.on_flip`: after the layout settles and `frames` more
frames have been shown, the pixels just flipped are read back and written.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from kivy.core.window import Window
from kivy.graphics import ClearBuffers, ClearColor, Fbo

T = TypeVar("T")


def redrawn(read: Callable[[Fbo], T]) -> T:
    """`read` of the window's widgets drawn again into an offscreen framebuffer of the
    window's size, rather than read back from the screen: SDL's offscreen driver keeps its
    first surface size, so a window turned to portrait would otherwise come back cropped."""
    fbo = Fbo(size=tuple(int(v) for v in Window.size), with_stencilbuffer=True)
    with fbo:
        ClearColor(*Window.clearcolor)
        ClearBuffers()
    moved = []
    for child in reversed(Window.children):
        index = Window.canvas.indexof(child.canvas)
        if index > -1:
            Window.canvas.remove(child.canvas)
        moved.append((child, index))
        fbo.add(child.canvas)
    try:
        fbo.draw()
        return read(fbo)
    finally:
        for child, index in reversed(moved):
            fbo.remove(child.canvas)
            if index > -1:
                Window.canvas.insert(index, child.canvas)


def save_window(path: Path) -> Path:
    """Write what the window shows now (call from an on_flip handler), as `redrawn`."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)

    def write(fbo: Fbo) -> None:
        tmp = path.with_name(f".{path.name}.tmp.png")
        fbo.texture.save(str(tmp), flipped=True)
        os.replace(tmp, path)

    redrawn(write)
    return path


def shot_on_flip(path: Path, frames: int = 2, done: Callable[[Path], None] | None = None) -> None:
    """Capture the window to `path` on the `frames`-th flip from now, then call `done`."""
    state = {"left": frames}

    def on_flip(*_args: object) -> None:
        state["left"] -= 1
        if state["left"] > 0:
            Window.canvas.ask_update()
            return
        Window.unbind(on_flip=on_flip)
        out = save_window(path)
        if done is not None:
            done(out)

    Window.bind(on_flip=on_flip)
    Window.canvas.ask_update()
