"""Screenshots taken on the frame after drawing.

A fixed delay sometimes captures a frame before the window was drawn (a black PNG), so
the capture is hooked on `Window.on_flip`: after the layout settles and `frames` more
frames have been shown, the pixels just flipped are read back and written.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from kivy.core.window import Window


def save_window(path: Path) -> Path:
    """Write what the window shows now (call from an on_flip handler)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp_base = path.with_name(f".{path.stem}-shot.png")
    written = Window.screenshot(str(tmp_base))  # Kivy numbers the name: .x-shot0001.png
    os.replace(written, path)
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
