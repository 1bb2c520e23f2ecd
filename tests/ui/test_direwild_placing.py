"""A card that puts a Direwild hero on a square (a Teleport Potion, Shadowleaf's blink): its
square is a tap on the board, never a stepper through a hundred squares (issue 12)."""

from __future__ import annotations

import pytest

from tests.ui.kivyharness import ViewTestCase

pytestmark = pytest.mark.ui


class DirewildPlacingTest(ViewTestCase):
    game = "direwild"
    options = {
        "players": ["stormbringer", "shadowleaf"],
        "minions": {"red": "inkling", "blue": "coatl"},
        "heroes_at": {"stormbringer": "C5"},
    }

    def tap_square(self, square: str) -> None:
        board = self.view.ids.board
        self.view.bring_into_view([square])
        self.frames(2)
        self.touch_at(*board.to_window(*board.centre(square)))
        self.frames(2)

    def test_a_teleport_potion_goes_to_the_square_tapped(self) -> None:
        view, session = self.view, self.session
        session.correct("phase", "adventure")
        self.refresh()
        assert view.hero == "stormbringer"  # the hero whose turn it is, selected
        assert all(s.key != "to" for s in view.ids.facts.children)  # no square stepper
        self.tap(self.find("Stormbringer drinks a Teleport Potion", within=view.ids.actions))
        assert view.message == "Stormbringer drinks a Teleport Potion: tap the square on the board"
        self.tap_square("H9")
        assert session.state.heroes["stormbringer"].position == "H9", view.message
