"""Taps and keyboard entries per round, and the time from a dice answer to its result card.

Why: issue 12 asks that a round be played by touch with no keyboard and half today's taps;
this counts them by playing each game's round_by_touch test (tests/ui/rounds/) in a fresh
process, headless, without its screenshots, so the figures come from the very touches the
test makes.  Issue 25 asks the count be honest: a full round with 2 and with 4 at the
table, every hero's turn (Direwild's creature attack stepped up so the hero can win,
Kradia's skill and Charge Attack, HEXplore's whole round), and no count at all when the
round test fails: a failed round makes this exit non-zero before printing its line.  A
game adds one function below returning its `RoundCount` as a dict, and puts it in GAMES.
The answer-to-card time is from the last keypad key released to the first frame drawn
with the new result card (offscreen driver, so no vsync wait).
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


class RoundFailed(RuntimeError):
    """A round test failed: its taps are not a round's, so nothing is reported."""


def play(test: str, dice: str = "keypad") -> dict[str, Any]:
    """One round played by the test `test` (a path under ROOT, with its test's name), its
    dice answered on the keypad (tapped) or from a tray (rolled: no taps); its counts, or
    RoundFailed when the test did not pass (the counts are written only once it held)."""
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
        if run.returncode != 0 or not out.exists():
            tail = "\n".join(run.stdout.splitlines()[-15:])
            raise RoundFailed(f"{test} failed (exit {run.returncode}): no count\n{tail}")
        return dict(json.loads(out.read_text()))


PLAYERS = (2, 4)
COUNTS = {2: "two", 4: "four"}


def kradia(players: int, dice: str = "keypad") -> dict[str, Any]:
    """Kradia's round (tests/ui/rounds/kradia.py): after a round of Basic Attacks for Mana,
    the Battlefield card, a skill, a Charge Attack (die and effect), Basic Attacks, the
    boss's attack."""
    test = f"tests/ui/rounds/test_kradia.py::TestKradiaRound::test_{COUNTS[players]}_players"
    return play(test, dice)


def direwild(players: int, dice: str = "keypad") -> dict[str, Any]:
    """Direwild's round (tests/ui/rounds/direwild.py): wizard, minion and AI card draws,
    every AI step, turn order, Stormbringer's move, the creatures' attack stepped up and a
    flying battle, every other hero's move, each turn and the round ended."""
    name = f"test_{COUNTS[players]}_players"
    return play(f"tests/ui/rounds/test_direwild.py::TestDirewildRound::{name}", dice)


def hexplore(players: int, dice: str = "keypad") -> dict[str, Any]:
    """HEXplore's game turn and combat round (tests/ui/rounds/hexplore.py) with `players`
    heroes."""
    name = f"test_{COUNTS[players]}_heroes"
    return play(f"tests/ui/rounds/test_hexplore.py::TestHexploreRound::{name}", dice)


GAMES = [kradia, direwild, hexplore]
DICE = ("keypad", "tray")  # dice entered on the keypad, and rolled on a tray or smart dice


def main(argv: list[str] | None = None) -> int:
    """Every game at each player count, dice tapped and rolled; a game's name (or names)
    as arguments plays only those.  Exit 1, and no line for it, when a round fails."""
    wanted = set(argv or [])
    failed = 0
    for game in GAMES:
        if wanted and game.__name__ not in wanted:
            continue
        for players in PLAYERS:
            for dice in DICE:
                try:
                    runs = [game(players, dice) for _ in range(RUNS)]
                except RoundFailed as exc:
                    print(f"{game.__name__}, {players} players: FAILED\n{exc}", file=sys.stderr)
                    failed += 1
                    continue
                report(game.__name__, dice, runs, players)
    return 1 if failed else 0


def report(name: str, dice: str, runs: list[dict[str, Any]], players: int = 0) -> None:
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
    who = f"{players} players, " if players else ""
    print(
        f"{name}, {who}dice on the {dice}: {'/'.join(map(str, sorted(taps)))} taps per round "
        f"(+{'/'.join(map(str, sorted(setup)))} before it), "
        f"{'/'.join(map(str, sorted(keys)))} keyboard entries; {card}",
        flush=True,
    )


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    sys.exit(main(sys.argv[1:]))
