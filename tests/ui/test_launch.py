"""`companion app` from the command line: a screenshot anyone can take, and a clear word
when there is no display (instead of an app running invisibly)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.ui.kivyharness import ARTIFACTS, assert_not_blank

pytestmark = pytest.mark.ui


def run_app(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    full = {**os.environ, **(env or {})}
    full.pop("DISPLAY", None)
    full.pop("WAYLAND_DISPLAY", None)
    return subprocess.run(
        [sys.executable, "-m", "companion", "app", *args],
        env=full,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_no_display_says_so_and_how_to_look(tmp_path):
    env = {"COMPANION_HOME": str(tmp_path)}
    env_no_driver = {k: v for k, v in os.environ.items() if k != "SDL_VIDEODRIVER"}
    result = subprocess.run(
        [sys.executable, "-m", "companion", "app", "--demo"],
        env={
            **{k: v for k, v in env_no_driver.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")},
            **env,
        },
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2
    assert "no display" in result.stderr and "--screenshot" in result.stderr


@pytest.mark.parametrize("screen", ["home", "session", "settings", "new"])
def test_screenshot_of_a_screen(tmp_path, screen):
    out = ARTIFACTS / f"cli-{screen}.png"
    if out.exists():
        out.unlink()
    result = run_app(
        "--screenshot", str(out), "--screen", screen, env={"COMPANION_HOME": str(tmp_path)}
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert out.exists()
    assert_not_blank(out)


def test_unknown_screen_is_refused_in_words(tmp_path):
    result = run_app(
        "--screenshot",
        str(tmp_path / "x.png"),
        "--screen",
        "bogus",
        env={"COMPANION_HOME": str(tmp_path)},
    )
    assert result.returncode == 2 and "no screen called 'bogus'" in result.stderr
