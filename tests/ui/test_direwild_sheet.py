"""Correcting one Direwild unit by tapping its piece (issue 12): a small sheet with steppers,
its square by a tap on the board, each change the session's own correction (logged, undone
like any other); the Fix tab's full list is untouched."""

from __future__ import annotations

import pytest

from tests.ui.kivyharness import ViewTestCase, walk

pytestmark = pytest.mark.ui


class DirewildSheetTest(ViewTestCase):
    game = "direwild"
    options = {
        "players": ["stormbringer", "featherheart"],
        "minions": {"red": "inkling", "blue": "coatl"},
        "heroes_at": {"stormbringer": "C5"},
    }

    def tap_square(self, square: str) -> None:
        board = self.view.ids.board
        self.view.bring_into_view([square])
        self.frames(2)
        self.touch_at(*board.to_window(*board.centre(square)))
        self.frames(2)

    def row(self, words: str):
        rows = self.view.ids.sheet.ids.rows.children
        return next(r for r in rows if r.words == words)

    def press(self, row, text: str) -> None:
        self.tap(next(w for w in walk(row) if getattr(w, "text", "") == text))

    def test_a_minions_piece_opens_its_sheet_and_each_change_is_a_correction(self) -> None:
        view, session = self.view, self.session
        red = session.state.enemies["red"].position
        self.tap_square(red)
        sheet = view.ids.sheet
        assert sheet.unit == "red" and sheet.title == "Red minion (Inkling)"
        self.shoot("direwild-unit-sheet")
        self.press(self.row("Stamina"), "+")
        self.press(self.row("Stamina"), "+")
        assert session.state.enemies["red"].stamina == 2
        assert self.row("Stamina").shown == "+2"  # the sheet shows the value as it stands
        self.press(self.row("Face up (active)"), "No")
        assert session.state.enemies["red"].active is True
        self.tap(sheet.ids.pick)
        self.tap_square("H7")
        assert session.state.enemies["red"].position == "H7"
        assert not sheet.picking
        session.undo()
        self.refresh()
        assert session.state.enemies["red"].position == red  # one correction, one undo
        self.tap(self.find("Done", within=sheet))
        assert sheet.unit == "" and sheet.height == 0

    def test_the_selected_heros_own_piece_opens_the_heros_sheet(self) -> None:
        view, session = self.view, self.session
        self.tap_square("C5")  # a hero's piece selects the hero
        assert view.hero == "stormbringer" and view.ids.sheet.unit == ""
        self.tap_square("C5")  # tapped again: the sheet for that hero
        assert view.ids.sheet.unit == "stormbringer"
        self.press(self.row("Stamina"), "-")
        assert session.state.heroes["stormbringer"].stamina == -1
        self.tap(self.find("To the staging area", within=view.ids.sheet))
        assert session.state.heroes["stormbringer"].position == "staging"

    def test_a_units_row_in_the_key_opens_its_sheet(self) -> None:
        view, session = self.view, self.session
        units = [r.unit for r in view.ids.key.children if r.unit]
        assert "karn" not in units  # Karn is on his track, not the board
        self.tap(next(r for r in view.ids.key.children if r.unit == "blue"))
        assert view.ids.sheet.unit == "blue"
        self.press(self.row("Damage"), "+")
        assert session.state.enemies["blue"].damage == 1
        row = next(r for r in view.ids.key.children if r.unit == "blue")
        assert "damage 1" in row.words  # the key says it too
