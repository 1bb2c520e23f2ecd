"""The android profile: this machine with only what a python-for-android build carries.

python-for-android builds compiled packages from recipes; it has recipes for Kivy,
numpy, OpenCV, pyzbar (with libzbar), msgspec, Pillow and PyYAML, and none for zxing-cpp
or bleak (docs/app.md, "On a tablet").  `install()` puts a meta-path finder first that
refuses those imports as a missing package would (ImportError), and notes each refused
name in the file `ANDROID_PROFILE_LOG` names, so a test can say what the app reached for
and went on without.  Installed only in a child process (`run_python`): the block never
leaks into the test run that started it.
"""

from __future__ import annotations

import importlib.abc
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
BLOCKED = ("zxingcpp", "bleak", "bleak_retry_connector")
LOG_ENV = "ANDROID_PROFILE_LOG"


class AndroidProfile(importlib.abc.MetaPathFinder):
    """Refuses the packages a python-for-android build has no recipe for."""

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> None:
        top = fullname.partition(".")[0]
        if top in BLOCKED:
            log = os.environ.get(LOG_ENV)
            if log:
                with open(log, "a", encoding="utf-8") as out:
                    out.write(fullname + "\n")
            raise ImportError(
                f"No module named '{fullname}' (the android profile: python-for-android "
                "has no recipe for it)",
                name=fullname,
            )
        return None


def install() -> None:
    for name in list(sys.modules):
        if name.partition(".")[0] in BLOCKED:
            raise RuntimeError(f"{name} was imported before the android profile was installed")
    sys.meta_path.insert(0, AndroidProfile())


def run_python(
    code: str, log: Path, timeout: float = 600, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """`code` in a child interpreter under the android profile."""
    prelude = "from tests.android.profile import install; install()\n"
    child_env = dict(os.environ, **(env or {}))
    child_env[LOG_ENV] = str(log)
    child_env["PYTHONPATH"] = os.pathsep.join(
        p for p in (str(ROOT), child_env.get("PYTHONPATH", "")) if p
    )
    return subprocess.run(
        [sys.executable, "-c", prelude + code],
        cwd=ROOT,
        env=child_env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def run_pytest(
    tests: Sequence[str], log: Path, timeout: float = 600
) -> subprocess.CompletedProcess[str]:
    """Tests of the suite, run in a child interpreter under the android profile."""
    args = ["-q", "-p", "no:cacheprovider", *tests]
    return run_python(f"import pytest, sys\nsys.exit(pytest.main({args!r}))", log, timeout)


def refused(log: Path) -> set[str]:
    """The top-level packages the child reached for and was refused."""
    if not log.exists():
        return set()
    return {line.partition(".")[0] for line in log.read_text().split()}
