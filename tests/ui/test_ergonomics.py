"""Tablet ergonomics checked on every screen, both orientations: every control a finger
must hit is at least 48 dp each way, and no text is smaller than 16 sp at normal size.

The three real games' own views are held to the same rules on the session screen.  The one
exception is text in a dense read-only display (a long track of numbers, a board's square
labels) that cannot be 16 sp and still fit: such a widget says so with a class attribute
`dense_readout = True`, and only its text size is let off, never a touch target's size.
"""

from __future__ import annotations

import pytest
from kivy.metrics import dp, sp
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.textinput import TextInput

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
            target = isinstance(w, ButtonBehavior | TextInput)
            if target:
                self.checked += 1
            if target and min(w.size) < dp(48):
                label = getattr(w, "text", "") or getattr(w, "hint_text", "")
                problems.append(f"{type(w).__name__} {label!r} is {w.size}")
            # a board that takes taps itself: each square it hands out is a touch target
            cell = getattr(w, "touch_cell_size", None)
            if callable(cell) and cell() < dp(48):
                problems.append(f"{type(w).__name__} squares are {cell()}px")
            if getattr(w, "dense_readout", False):
                continue  # text only: see the module docstring
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

    def check_game(self, game: str) -> None:
        """A real game started from the wizard's defaults, as a group would."""
        app = self.start_app()
        self.tap("New game")
        self.tap(get_game(game).title)
        self.tap("Start the game")
        assert app.root.current == "session", app.screen("new").ids.notice.text
        problems = []
        for size in (LANDSCAPE, PORTRAIT):
            self.resize(size)
            self.frames(3)
            problems += [f"{game} {size}: {p}" for p in self.check_screen()]
        assert problems == [], "\n".join(problems)
        assert self.checked > 20

    def test_direwild_view(self) -> None:
        self.check_game("direwild")

    def test_kradia_view(self) -> None:
        self.check_game("kradia")

    def test_hexplore_view(self) -> None:
        self.check_game("hexplore")

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
