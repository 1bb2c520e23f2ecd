"""Every real game starts from the new-game wizard with the demo pack, by touch, and lands
on its session screen showing the game's own view (not the plain state fallback)."""

from __future__ import annotations

import pytest

from companion.ui.panels.state import StateView
from tests.ui.kivyharness import AppTestCase

pytestmark = pytest.mark.ui


class TestNewGames(AppTestCase):
    def start_from_wizard(self, title: str, *taps: str):
        app = self.start_app()
        self.tap("New game")
        self.tap(title)
        wizard = app.screen("new")
        for text in taps:
            self.tap(text, within=wizard.ids.options)
        self.shoot(f"new-{app.screen('new').game_id}")
        self.tap("Start the game")
        assert wizard.ids.notice.text == "", wizard.ids.notice.text
        assert app.root.current == "session"
        return app

    def assert_own_view(self, app, game: str) -> None:
        view = app.screen("session").view
        assert not isinstance(view, StateView)
        assert type(view).__module__.startswith(f"companion.ui.games.{game}.")
        self.shoot(f"session-{game}")

    def test_direwild(self) -> None:
        app = self.start_from_wizard("Direwild", "Featherheart", "Shadowleaf", "Chapter 2")
        state = app.session.state
        assert state.players == ["stormbringer", "featherheart"] and state.chapter == 2
        assert state.board == "direwild/board/blightwood"  # chapter 2's own board
        self.assert_own_view(app, "direwild")

    def test_a_direwild_clan_short_is_refused_in_words(self) -> None:
        app = self.start_app()
        self.tap("New game")
        self.tap("Direwild")
        self.tap("Shadowleaf", within=app.screen("new").ids.options)
        self.tap("Start the game")
        assert app.session is None and app.root.current == "new"
        assert "players must list 2 to 4 clans" in app.screen("new").ids.notice.text

    def test_hexplore(self) -> None:
        app = self.start_from_wizard(
            "HEXplore It: The Forests of Adrimon", "Soul Reaver (Den Troll)", "Easy"
        )
        state = app.session.state
        assert list(state.heroes) == ["stormcaller", "verdant-keeper", "soul-reaver"]
        assert state.difficulty == "easy" and state.play_style == "standard"
        self.assert_own_view(app, "hexplore")

    def test_kradia(self) -> None:
        app = self.start_from_wizard("Kradia: Wild Hunt Festival", "Challenge: Level 4")
        assert app.session.state.mode == "challenge"
        self.assert_own_view(app, "kradia")
