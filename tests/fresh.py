"""A few lines of Python run by a fresh interpreter, Kivy headless: for what only a new
process shows (what a module imports, what Kivy's process-wide caches load)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def last_line(code: str, kivy_home: Path, timeout: float = 60) -> str:
    """The last line `code` printed; the child's own error if it failed."""
    env = {
        **os.environ,
        "KIVY_NO_ARGS": "1",
        "KIVY_NO_CONSOLELOG": "1",
        "KIVY_HOME": str(kivy_home),
        "SDL_VIDEODRIVER": "offscreen",
        "PYTHONPATH": str(ROOT),
    }
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=timeout
    )
    assert out.returncode == 0, out.stderr[-2000:]
    return out.stdout.strip().splitlines()[-1]
