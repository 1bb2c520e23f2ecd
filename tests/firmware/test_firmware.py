"""The firmware's own tests, under the MicroPython unix port and under CPython."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from hardware.simulated import REPO_ROOT, micropython_binary

VENDOR = REPO_ROOT / "firmware" / "tests" / "vendor"


def run_under(runtime: str, *modules: str) -> subprocess.CompletedProcess:
    if runtime == "micropython":
        env = dict(os.environ, MICROPYPATH=f"{REPO_ROOT}:{VENDOR}:.frozen")
        cmd = [micropython_binary(), str(REPO_ROOT / "firmware/tests/run.py"), *modules]
    else:
        env = dict(os.environ)
        cmd = [sys.executable, "-m", "firmware.tests.run", *modules]
    return subprocess.run(cmd, cwd=REPO_ROOT, env=env, capture_output=True, text=True, timeout=240)


@pytest.mark.parametrize(
    "runtime", [pytest.param("micropython", marks=pytest.mark.slow), "cpython"]
)
def test_firmware_tests_pass(runtime):
    proc = run_under(runtime)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out
    assert f"under {runtime}, all passed" in out


@pytest.mark.slow
def test_a_failing_firmware_test_fails_the_run_under_micropython():
    """MicroPython's unittest exits 0 on failure; the runner must not."""
    proc = run_under("micropython", "tests.firmware.canary.failing")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "FAILED" in proc.stdout
