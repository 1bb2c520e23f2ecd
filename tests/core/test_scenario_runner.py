"""The scenario runner, through the real `companion` command (exit codes per SCENARIOS.md)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

FIX = Path(__file__).resolve().parent.parent / "fixtures" / "scenarios"


def companion(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "companion", *args],
        capture_output=True,
        text=True,
        env=os.environ.copy(),
        timeout=120,
        cwd=cwd,
    )


def test_scenario_that_holds_exits_0():
    run = companion("scenario", "run", str(FIX / "holds.yaml"))
    assert run.returncode == 0, run.stdout + run.stderr
    assert "1 held, 0 failed, 0 invalid" in run.stdout


@pytest.mark.parametrize(
    "name, words",
    [
        ("fails.yaml", "fails.yaml:5: step 2 (expect): score: wanted 3, got 2"),
        ("unanswered.yaml", "unanswered request: Player: roll 2 x d6 (to score)"),
        ("leftover.yaml", "answers left over: [2]"),
        ("accepted-but-wanted-refused.yaml", "wanted a refusal containing 'positive'"),
    ],
)
def test_failing_scenarios_exit_1_with_path_wanted_got_step(name, words):
    run = companion("scenario", "run", str(FIX / name))
    assert run.returncode == 1, run.stdout + run.stderr
    assert words in run.stdout


@pytest.mark.parametrize(
    "name, words",
    [
        ("invalid-step.yaml", "invalid-step.yaml:7: step 2: unknown key 'colour'"),
        ("invalid-content.yaml", "invalid-content.yaml:4:"),
        ("invalid-yaml.yaml", "invalid-yaml.yaml:5: not valid YAML"),
    ],
)
def test_invalid_files_exit_2_with_file_and_line(name, words):
    run = companion("scenario", "run", str(FIX / name))
    assert run.returncode == 2, run.stdout + run.stderr
    assert words in run.stdout


def test_a_folder_runs_every_file_and_exits_with_the_worst():
    run = companion("scenario", "run", str(FIX))
    assert run.returncode == 2
    assert "1 held, 4 failed, 3 invalid" in run.stdout
