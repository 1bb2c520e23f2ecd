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


def play(test: str, dice: str = "keypad") -> dict[str, Any]:
    """One round played by the test `test` (a path under ROOT), its dice answered on the
    keypad (tapped) or from a tray (rolled: no taps); its counts."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "counts.json"
        env = {
            **os.environ,
            "ROUND_COUNTS": str(out),
            "ROUND_SHOTS": "0",
            "ROUND_DICE": dice,
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


def kradia(dice: str = "keypad") -> dict[str, Any]:
    return play("tests/ui/rounds/test_kradia.py", dice)


def direwild(dice: str = "keypad") -> dict[str, Any]:
    """Direwild's round (tests/ui/rounds/direwild.py): wizard, minion and AI card draws,
    every AI step, turn order, a move and a flying battle, each turn and the round ended."""
    return play("tests/ui/rounds/test_direwild.py", dice)


def hexplore(dice: str = "keypad") -> dict[str, Any]:
    return play("tests/ui/rounds/test_hexplore.py", dice)


GAMES = [kradia, direwild, hexplore]
DICE = ("keypad", "tray")  # dice entered on the keypad, and rolled on a tray or smart dice


def main() -> None:
    for game in GAMES:
        for dice in DICE:
            report(game.__name__, dice, [game(dice) for _ in range(RUNS)])


def report(name: str, dice: str, runs: list[dict[str, Any]]) -> None:
    """One line: taps in the round (and in the wizard before it), keyboard entries, and
    the dice answer to result card time."""
    ms = [m for r in runs for m in r["answer_to_card_ms"]]
    frames = [f for r in runs for f in r.get("frames_to_card", [])]
    taps = {r["taps"] - r["setup_taps"] for r in runs}
    setup = {r["setup_taps"] for r in runs}
    keys = {r["keyboard"] for r in runs}
    card = (
        f"dice answer to result card {statistics.median(ms):.0f} ms median over {len(ms)} "
        f"(max {max(ms):.0f} ms, {statistics.median(frames):.0f} frames)"
        if ms
        else "no dice answer timed"
    )
    print(
        f"{name}, dice on the {dice}: {'/'.join(map(str, sorted(taps)))} taps per round "
        f"(+{'/'.join(map(str, sorted(setup)))} in the wizard), "
        f"{'/'.join(map(str, sorted(keys)))} keyboard entries; {card}",
        flush=True,
    )


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    main()
