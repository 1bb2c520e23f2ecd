"""The new-game wizard offers the Kradia packs' own heroes, story sequences, Challenge boss
and Level 3 sides by name (issue 13 item 4), and a game starts from them by touch."""

from __future__ import annotations

import pytest

from companion.ui.screens.newgame import OptionRow
from tests.ui.kivyharness import AppTestCase, walk

pytestmark = pytest.mark.ui

TITLE = "Kradia: Wild Hunt Festival"


class TestKradiaWizard(AppTestCase):
    def open_wizard(self):
        app = self.start_app()
        self.tap("New game")
        self.tap(TITLE)
        return app.screen("new")

    def row(self, wizard, label: str) -> OptionRow:
        rows = [r for r in wizard.ids.options.children if isinstance(r, OptionRow)]
        found = [r for r in rows if r.label == label]
        assert found, f"no option {label!r}: {[r.label for r in rows]}"
        return found[0]

    def test_the_packs_heroes_seats_boss_and_sides_are_offered_by_name(self) -> None:
        wizard = self.open_wizard()
        seat = self.row(wizard, "Hero 1 (First Player)")
        shown = [w.text for w in reversed(seat.ids.choices.children)]
        assert shown == ["Oakla", "Warden", "Archer", "Mystic"]
        sequences = self.row(wizard, "Story boss sequence")
        assert [w.text for w in reversed(sequences.ids.choices.children)] == [
            "Story sequence 1",
            "Story sequence 2",
        ]
        labels = [r.label for r in wizard.ids.options.children if isinstance(r, OptionRow)]
        assert "Challenge boss" in labels and "Archer's Level 3 card side" in labels
        texts = [getattr(w, "text", "") for w in walk(wizard)]
        assert not any("kradia/" in t for t in texts), "an id is shown on the wizard"
        self.shoot("kradia-wizard")

    def test_a_challenge_game_starts_with_the_seats_and_side_chosen(self) -> None:
        wizard = self.open_wizard()
        self.tap("Challenge: Level 4", within=wizard.ids.options)
        self.tap("Archer", within=self.row(wizard, "Hero 1 (First Player)"))
        self.tap("Oakla", within=self.row(wizard, "Hero 3 (3rd, clockwise)"))
        self.tap("Scout", within=self.row(wizard, "Archer's Level 3 card side"))
        self.tap("Start the game")
        assert wizard.ids.notice.text == "", wizard.ids.notice.text
        state = self.app.session.state
        assert state.order == ["archer", "warden", "oakla", "mystic"]
        assert state.start_player == "archer"
        assert state.boss.id == "kradia/boss/wild-hunt-king" and state.level == 4
        assert state.heroes["archer"].level3_side == "scout"
        assert state.heroes["oakla"].level3_side == "bloom"

    def test_a_hero_in_two_seats_is_refused_in_words(self) -> None:
        wizard = self.open_wizard()
        self.tap("Warden", within=self.row(wizard, "Hero 1 (First Player)"))
        self.tap("Start the game")
        assert self.app.session is None and self.app.root.current == "new"
        assert "each of the 4 heroes may play only once" in wizard.ids.notice.text
