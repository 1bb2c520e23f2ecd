"""Test-wide set-up: nothing a test does touches the real home folder, and every run of
the suite gives the same answer.

COMPANION_HOME and KIVY_HOME point into a temporary folder for the whole run, Kivy runs
offscreen with no arguments parsed, and the tiny test game is registered for the core's
tests (child `companion` processes get it through COMPANION_EXTRA_GAMES).

Hypothesis runs under one of two profiles (see `hypothesis_profiles.py`): `deterministic`
(the default, `make test`) replays the same examples every run, and `fuzz` (`make fuzz`)
explores with a printed seed and many more examples.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
_home = tempfile.mkdtemp(prefix="companion-test-home-")
os.environ["COMPANION_HOME"] = str(Path(_home) / "data")
os.environ["KIVY_HOME"] = str(Path(_home) / "kivy")
os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
os.environ.setdefault("KIVY_NO_FILELOG", "1")
os.environ.setdefault("KIVY_LOG_MODE", "PYTHON")
os.environ.setdefault("SDL_VIDEODRIVER", "offscreen")
os.environ.pop("DISPLAY", None)
os.environ["COMPANION_EXTRA_GAMES"] = "tests.fixtures.tinygame:GAME"
os.environ["COMPANION_CONTENT_PATH"] = str(ROOT / "tests" / "fixtures" / "content")
os.environ["PYTHONPATH"] = os.pathsep.join(
    p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p
)
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

TINY_CONTENT = ROOT / "tests" / "fixtures" / "content"

# Loaded before any test module is imported, so every `@settings(...)` inherits it.
from tests.hypothesis_profiles import apply_profile_to_items, load_profile  # noqa: E402

load_profile(os.environ.get("HYPOTHESIS_PROFILE", "deterministic"))


def pytest_collection_modifyitems(items) -> None:
    """A test's own `@settings(max_examples=...)` would otherwise beat the profile."""
    apply_profile_to_items(items)
