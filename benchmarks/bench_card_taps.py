"""Taps and keyboard entries to enter a typical card of each kind in Your cards.

Why: issue 13 asks what entering a group's own cards costs at the table.  This runs the
own_pack tests (tests/ui/editor/test_own_pack.py) in a fresh process, headless, without
their screenshots, and reads the counts their driver writes for each card saved: every
tap from the kind's button to Save, and each text field typed into (names and the words
a schema keeps as free text).  Issue 24's budgets are printed first, one line per task
(`<task>: N taps`): a new Direwild minion from its template, a Kradia boss with its chart
from a template, a HEXplore opponent with 3 actions (the tests assert each budget too).
A copied card ("Copy this card") is counted as entered; a
Direwild board is drawn in the board editor, each of its touches a tap, up to Save board.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
TEST = "tests/ui/editor/test_own_pack.py"


def measured(
    test: str, counts_to: str, args: list[str], env: dict[str, str]
) -> list[dict[str, Any]]:
    """Run `test` in a fresh process, headless, and read the counts it writes to the file
    named by the environment variable `counts_to` (one JSON object a line)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "counts.jsonl"
        env = {**os.environ, **env, counts_to: str(out), "KIVY_NO_ARGS": "1"}
        env["PYTHONPATH"] = str(ROOT)
        run = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *args, test],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=1800,
        )
        if run.returncode != 0:
            raise SystemExit(f"{test} failed:\n{run.stdout[-3000:]}")
        return [json.loads(line) for line in out.read_text().splitlines()]


def counts() -> list[dict[str, Any]]:
    """Each card entered in Your cards by the own_pack tests, without their screenshots."""
    return measured(TEST, "EDITOR_COUNTS", ["-k", "from_empty"], {"EDITOR_SHOTS": "0"})


# the budgets of issue 24 (tests/ui/editor/driver.py BUDGETS, asserted by the tests)
BUDGETS = {
    "a new Direwild minion from its template": 20,
    "a Kradia boss with its chart from a template": 50,
    "a HEXplore opponent with 3 actions": 45,
}


CHECK_TEST = "tests/ui/test_verify_as_you_play.py"
CHECK_BUDGETS = {  # tests/ui/test_verify_as_you_play.py BUDGETS, asserted by the tests
    "check an unchanged card at the moment it is drawn": 2,
    "change one number on it": 5,
}


def check_counts() -> list[dict[str, Any]]:
    """The taps of checking a card as it comes into play, by the verify_as_you_play
    tests' own touches (from the offer on the result card to the sheet closed)."""
    return measured(CHECK_TEST, "CHECK_COUNTS", [], {})


def main() -> int:
    rows = counts()
    over = 0
    checks = check_counts()
    for task, budget in CHECK_BUDGETS.items():
        taps = [row["taps"] for row in checks if row["task"] == task]
        print(f"{task}: {max(taps)} taps (budget {budget})" if taps else f"{task}: not measured")
        over += not taps or max(taps) > budget
    for task, budget in BUDGETS.items():
        taps = [row["taps"] for row in rows if row.get("task") == task]
        if not taps:
            print(f"{task}: not measured")
            over += 1
            continue
        print(f"{task}: {taps[0]} taps (budget {budget})")
        over += taps[0] > budget
    print()
    print(f"{'card':<22} {'kind':<20} {'taps':>5} {'typed':>6}")
    for row in rows:
        print(f"{row['card']:<22} {row['kind']:<20} {row['taps']:>5} {row['typed']:>6}")
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
