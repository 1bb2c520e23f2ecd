"""The app's buttons draw no picture of Kivy's theme, so the theme's atlas never loads.

Kivy's Button rule draws first, with the class's defaults, and any theme picture it names
loads the whole atlas (a 512x512 texture, kept for the process's life), even where the
app's kv rule blanks the picture a moment later (issue 26: benchmarks/bench_memory.py).
A fresh process, since Kivy's caches are the process's.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.fresh import last_line

pytestmark = pytest.mark.ui

CODE = """
from kivy.base import EventLoop
from kivy.cache import Cache
from kivy.core.window import Window
from kivy.uix.boxlayout import BoxLayout
from companion.ui.widgets import BigButton, BigToggle
from companion.ui.games.readable import GameButton, GameToggle

box = BoxLayout()
Window.add_widget(box)
for cls in (BigButton, BigToggle, GameButton, GameToggle):
    for state in ("normal", "down"):
        box.add_widget(cls(text=cls.__name__, state=state))
for cls in (BigButton, GameButton, GameToggle):  # disabled, as the app's views have them
    box.add_widget(cls(text="off", disabled=True))
EventLoop.idle()
print("atlas:", sorted(Cache._objects.get("kv.atlas", {})))
"""


def test_the_apps_buttons_load_no_theme_atlas(tmp_path: Path) -> None:
    assert last_line(CODE, tmp_path) == "atlas: []"
