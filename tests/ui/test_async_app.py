"""Kivy and the dice share one asyncio loop: a roll from a source answers while the app runs."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.conftest import ROOT

pytestmark = pytest.mark.ui


def test_a_source_on_the_apps_loop_answers_the_roll(tmp_path):
    env = {**os.environ, "COMPANION_HOME": str(tmp_path)}
    env.pop("DISPLAY", None)
    result = subprocess.run(
        [sys.executable, "-m", "tests.ui.async_app_probe"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    out = json.loads(result.stdout.strip().splitlines()[-1])
    assert out["started_on_home"] is True and out["started_by_wizard"] is True
    assert out["panel_request"] == "Player: roll the d6\nto score"
    assert out["last_roll"] == [4] and out["by"] == "probe tray"
    assert out["panel_after"] == "No roll asked for right now."
    assert out["reopened"] is True and out["reopened_roll"] == [4]
    assert out["screen"] == "session"
    assert out["sources_closed"] is True
