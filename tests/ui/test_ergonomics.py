"""Tablet ergonomics checked on every screen, both orientations: every control a finger
must hit is at least 48 dp each way, and no text is smaller than 16 sp at normal size."""

from __future__ import annotations

import pytest
from kivy.metrics import dp, sp
from kivy.uix.behaviors import ButtonBehavior

from companion.games import get_game
from tests.ui.kivyharness import LANDSCAPE, PORTRAIT, AppTestCase, walk

pytestmark = pytest.mark.ui

SCREENS = ("home", "new", "settings", "session")


class TestErgonomics(AppTestCase):
    def visible(self, w) -> bool:
        return w.get_root_window() is not None and w.opacity > 0 and not w.disabled

    checked = 0

    def check_screen(self) -> list[str]:
        problems = []
        for w in walk(self.app.root):
            if not self.visible(w) or w.width <= 1 or w.height <= 1:
                continue
            if isinstance(w, ButtonBehavior):
                self.checked += 1
            if isinstance(w, ButtonBehavior) and min(w.size) < dp(48):
                problems.append(f"{type(w).__name__} {getattr(w, 'text', '')!r} is {w.size}")
            size = getattr(w, "font_size", None)
            if getattr(w, "text", "") and isinstance(size, float | int) and size < sp(16):
                problems.append(f"text {w.text!r} is {size}px")
        return problems

    def test_touch_targets_and_text_sizes(self) -> None:
        app = self.start_app()
        session = app.library.new(get_game("tiny"))
        session.do("roll")
        session.close()
        problems = []
        for size in (LANDSCAPE, PORTRAIT):
            self.resize(size)
            for name in SCREENS:
                if name == "session":
                    app.open_session("tiny-1")
                else:
                    app.go(name)
                if name == "new":
                    self.tap("Tiny")
                self.frames(3)
                problems += [f"{name} {size}: {p}" for p in self.check_screen()]
                if name == "session":
                    for tab in ("Log", "Fix", "Cards"):
                        self.tap(tab)
                        problems += [f"{name}/{tab} {size}: {p}" for p in self.check_screen()]
                    app.close_session()
        assert problems == []
        assert self.checked > 60  # the walk really saw the controls

    def test_new_game_wizard_from_the_games_options(self) -> None:
        """A game's `setup_options` become touch choices; its own refusal is shown."""
        from companion.games import register_game
        from tests.fixtures.tinygame import TinyGame

        class TinyWithOptions(TinyGame):
            setup_options = [
                {"name": "start", "label": "Starting score", "choices": [0, 5, 10], "default": 0},
                {"name": "heroes", "label": "Heroes", "min": 1, "max": 4, "default": 2},
            ]

        original = get_game("tiny")
        register_game(TinyWithOptions())
        try:
            app = self.start_app()
            self.tap("New game")
            self.tap("Tiny")
            self.tap("5")
            self.tap("+")
            self.tap("+")
            self.tap("+")  # stops at the maximum
            self.shoot("new-game-options")
            self.tap("Start the game")
            assert app.session is not None
            assert app.session.meta["options"] == {"start": 5, "heroes": 4}
            assert app.session.state.score == 5
        finally:
            register_game(original)
