"""Probes: the real app run on `App.async_run` in a process of its own (a Kivy window closed
by `App.stop()` cannot open again in the test's), printing what happened as one JSON line.
What the probes and the tests that start them share."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def run_probe(module: str, home: Path, timeout: float = 120) -> dict[str, Any]:
    """Run `python -m module` headless (no DISPLAY: SDL's offscreen driver) with its own
    data home; what it printed last, or fail with the end of its errors."""
    env = {**os.environ, "COMPANION_HOME": str(home)}
    env.pop("DISPLAY", None)
    result = subprocess.run(
        [sys.executable, "-m", module],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads(result.stdout.strip().splitlines()[-1])


async def settle(check: Callable[[], Any], tries: int = 500) -> bool:
    """Wait on the app's loop, a frame or so at a time, until `check()` holds."""
    for _ in range(tries):
        if check():
            return True
        await asyncio.sleep(0.02)
    return False
