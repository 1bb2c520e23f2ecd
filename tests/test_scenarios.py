"""Every scenario file under tests/scenarios/<game>/ is an acceptance test of the rules."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.scenario.runner import run_file

ROOT = Path(__file__).resolve().parent / "scenarios"
FILES = sorted(p for p in ROOT.rglob("*") if p.suffix in (".yaml", ".yml"))


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(ROOT)) for p in FILES])
def test_scenario(path: Path) -> None:
    outcome = run_file(path)
    assert outcome.invalid is None, outcome.invalid
    assert outcome.failures == []


def test_scenarios_are_present() -> None:
    """The folder is collected at all (a typo in ROOT would silently run nothing)."""
    assert ROOT.is_dir()
