"""The session screen's once-a-second device watch leaves an idle screen alone.

Why: it compared the panel's parent with kv's proxy of the panel area (`is` is never true
through a proxy), so every second it took the Dice panel off the screen and put it back:
a relayout a second, and memory growing about half a MB a second on an idle tablet.
"""

from __future__ import annotations

import pytest

from tests.ui.kivyharness import LANDSCAPE, PORTRAIT, AppTestCase

pytestmark = pytest.mark.ui


class IdleWatchTest(AppTestCase):
    def test_an_idle_screen_is_not_rebuilt_every_second(self) -> None:
        app = self.start_app()
        self.tap("New game")
        self.tap("Tiny")
        self.tap("Start the game")
        screen = app.screen("session")
        assert screen.tab == "dice" and app.session.request is None
        for size in (LANDSCAPE, PORTRAIT):
            self.resize(size)
            self.frames(3)
            panel = screen.panels["dice"]
            moves: list[object] = []
            panel.bind(parent=lambda _w, parent, moves=moves: moves.append(parent))
            area = screen.ids.panel_area
            shown_before = list(area.children)
            for _ in range(5):
                screen._watch_devices(1.0)
                self.frames(1)
            assert moves == [], f"the Dice panel was moved {len(moves)} times in 5 idle seconds"
            assert list(area.children) == shown_before
