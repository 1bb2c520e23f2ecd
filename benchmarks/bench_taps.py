"""Taps and keyboard entries per round, and the time from a dice answer to its result card.

Why: issue 12 asks that a round be played by touch with no keyboard and half today's taps;
this counts them by playing each game's round_by_touch test (tests/ui/rounds/) in a fresh
process, headless, without its screenshots, so the figures come from the very touches the
test makes.  A game adds one function below returning its `RoundCount` as a dict, and puts
it in GAMES.  The answer-to-card time is from the last keypad key released to the first
frame drawn with the new result card (offscreen driver, so no vsync wait).
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
RUNS = 3


def play(test: str) -> dict[str, Any]:
    """One round played by the test `test` (a path under ROOT); its counts."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "counts.json"
        env = {
            **os.environ,
            "ROUND_COUNTS": str(out),
            "ROUND_SHOTS": "0",
            "KIVY_NO_ARGS": "1",
            "PYTHONPATH": str(ROOT),
        }
        run = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", test],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
        )
        if not out.exists():
            tail = "\n".join(run.stdout.splitlines()[-15:])
            raise RuntimeError(f"{test} counted nothing (exit {run.returncode}):\n{tail}")
        return dict(json.loads(out.read_text()))


def kradia() -> dict[str, Any]:
    return play("tests/ui/rounds/test_kradia.py")


def direwild() -> dict[str, Any]:
    """Direwild's round (tests/ui/rounds/direwild.py): wizard, minion and AI card draws,
    every AI step, turn order, a move and a flying battle, each turn and the round ended."""
    return play("tests/ui/rounds/test_direwild.py")


GAMES = [kradia, direwild]


def main() -> None:
    for game in GAMES:
        runs = [game() for _ in range(RUNS)]
        ms = [m for r in runs for m in r["answer_to_card_ms"]]
        frames = [f for r in runs for f in r.get("frames_to_card", [])]
        taps = {r["taps"] for r in runs}
        keys = {r["keyboard"] for r in runs}
        print(
            f"{game.__name__}: {'/'.join(map(str, sorted(taps)))} taps per round, "
            f"{'/'.join(map(str, sorted(keys)))} keyboard entries; dice answer to result card "
            f"{statistics.median(ms):.0f} ms median over {len(ms)} "
            f"(max {max(ms):.0f} ms, {statistics.median(frames):.0f} frames)",
            flush=True,
        )


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    main()
