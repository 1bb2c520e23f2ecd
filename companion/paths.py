"""Where things live on disk.

`COMPANION_HOME` overrides the user data folder so tests and several tables on one
machine never share sessions by accident.
"""

from __future__ import annotations

import os
from pathlib import Path

from platformdirs import user_data_dir

REPO_ROOT = Path(__file__).resolve().parent.parent


def data_home() -> Path:
    env = os.environ.get("COMPANION_HOME")
    root = Path(env) if env else Path(user_data_dir("table-companion", appauthor=False))
    root.mkdir(parents=True, exist_ok=True)
    return root


def sessions_dir() -> Path:
    path = data_home() / "sessions"
    path.mkdir(parents=True, exist_ok=True)
    return path


def user_content_dir() -> Path:
    return data_home() / "content"


def shipped_content_dir() -> Path:
    env = os.environ.get("COMPANION_CONTENT")
    return Path(env) if env else REPO_ROOT / "content"


def content_roots() -> list[Path]:
    """Folders holding `<game>/<pack>/` content: shipped, then `COMPANION_CONTENT_PATH`
    (os.pathsep-separated, used by tests for test-only games), then the user's own."""
    extra = [Path(p) for p in os.environ.get("COMPANION_CONTENT_PATH", "").split(os.pathsep) if p]
    return [shipped_content_dir(), *extra, user_content_dir()]


def settings_file() -> Path:
    return data_home() / "settings.json"
