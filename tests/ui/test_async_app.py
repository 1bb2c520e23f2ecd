"""Kivy and the dice share one asyncio loop: a roll from a source answers while the app runs."""

from __future__ import annotations

import pytest

from tests.ui.probes import run_probe

pytestmark = pytest.mark.ui


def test_a_source_on_the_apps_loop_answers_the_roll(tmp_path):
    out = run_probe("tests.ui.async_app_probe", tmp_path, timeout=120)
    assert out["started_on_home"] is True and out["started_by_wizard"] is True
    assert out["panel_request"] == "Player: roll the d6\nto score"
    assert out["last_roll"] == [4] and out["by"] == "probe tray"
    assert out["panel_after"] == "No roll asked for right now."
    assert out["reopened"] is True and out["reopened_roll"] == [4]
    assert out["screen"] == "session"
    assert out["sources_closed"] is True
