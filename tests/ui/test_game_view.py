"""A game's own view plugged into the frame by the contract in the game brief:
`companion.ui.games.<game>.build_view(session)` with `refresh()`, imported lazily."""

from __future__ import annotations

import sys
import types

import pytest
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.label import Label

from tests.ui.kivyharness import AppTestCase

pytestmark = pytest.mark.ui
MODULE = "companion.ui.games.tiny"


class TinyView(BoxLayout):
    """What a game helper writes: reads the session, sends commands with session.do."""

    def __init__(self, session, fail: bool = False) -> None:
        super().__init__(orientation="vertical")
        self.session, self.fail, self.refreshed = session, fail, 0
        self.score = Label(text="", font_size=40)
        self.add_widget(self.score)
        self.add_widget(Button(text="Add one", on_release=lambda *_: session.do("add", {"n": 1})))

    def refresh(self) -> None:
        if self.fail and self.refreshed:
            raise ValueError("the view has a bug")
        self.refreshed += 1
        self.score.text = f"Score {self.session.state.score}"


def plug_in(fail: bool = False) -> None:
    module = types.ModuleType(MODULE)
    module.build_view = lambda session: TinyView(session, fail)
    sys.modules[MODULE] = module


class TestGameView(AppTestCase):
    def tearDown(self, fake: bool = False) -> None:
        sys.modules.pop(MODULE, None)
        super().tearDown(fake)

    def start_tiny(self):
        app = self.start_app()
        self.tap("New game")
        self.tap("Tiny")
        self.tap("Start the game")
        return app, app.screen("session")

    def test_the_games_view_is_shown_and_refreshed(self) -> None:
        plug_in()
        app, screen = self.start_tiny()
        assert isinstance(screen.view, TinyView)
        self.tap("Add one")
        assert app.session.state.score == 1 and screen.view.score.text == "Score 1"
        self.shoot("session-game-view")

    def test_a_refusal_inside_the_view_is_shown_not_fatal(self) -> None:
        plug_in()
        app, screen = self.start_tiny()
        app.session.do("roll")
        self.frames(2)
        before = app.session.to_json()
        self.tap("Add one")  # session.do raises RuleError inside Kivy's touch handling
        assert "waiting for" in screen.error
        assert app.session.to_json() == before
        self.tap("3", within=screen.panels["dice"])  # and the app carries on
        assert app.session.state.last_roll == [3]

    def test_a_view_that_breaks_falls_back_to_the_plain_state(self) -> None:
        plug_in(fail=True)
        app, screen = self.start_tiny()
        self.tap("Add one")  # the change makes the buggy view's refresh raise
        self.frames(2)
        assert type(screen.view).__name__ == "StateView"
        assert app.session.state.score == 1

    def test_no_view_means_the_plain_state(self) -> None:
        app, screen = self.start_tiny()
        assert type(screen.view).__name__ == "StateView"
