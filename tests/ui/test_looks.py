"""The checks of tests/ui/looks.py that issue 25's screenshots showed were missing, each
made to fail on the kind of defect it was added for and to pass once it is gone.

Why: a check that never fires looks like a screen that is right.  The Direwild turn-order
picks half hidden under the next step's button and Kradia's hero cards split by the fold
were both missed because a stencil's cut is not drawn (the overlap check compares drawn
words only); the spawn word "Red" crossed by its ring and the red path (read "Rei") was
missed because nothing measured the words a board draws itself.
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.ui.kivyharness import KivyTestCase
from tests.ui.looks import Looks, clipping, foreign_share

pytestmark = pytest.mark.ui


def plate(with_line: bool) -> np.ndarray:
    """A dark plate with white block 'letters' on it, and a red line across if asked."""
    pixels = np.full((20, 60, 3), 0.05, dtype=np.float32)
    for x in range(5, 55, 10):
        pixels[5:15, x : x + 5] = 1.0
        pixels[5:15, x + 5] = 0.5  # a soft edge: a blend of the ink and the plate
    if with_line:
        pixels[9:11, :] = (0.86, 0.2, 0.2)
    return pixels


def test_foreign_share_sees_a_line_through_words_and_not_their_soft_edges() -> None:
    whole = foreign_share(plate(False), (0, 0, 60, 20))
    crossed = foreign_share(plate(True), (0, 0, 60, 20))
    assert whole == 0.0
    assert crossed > 0.05


class TestHalfHidden(KivyTestCase):
    def column(self, scroll_y: float, game: bool = True) -> list[object]:
        """A scrolling column of five 60 px buttons in 120 px, scrolled to `scroll_y`,
        held by a game view (it sends commands) or by a plain box (a panel's list)."""
        from kivy.uix.boxlayout import BoxLayout
        from kivy.uix.button import Button
        from kivy.uix.scrollview import ScrollView

        from companion.ui.gameviews import SendsCommands

        class View(SendsCommands, BoxLayout):
            fold_between_rows = True

        view = (View if game else BoxLayout)(size=(300, 120), pos=(0, 0))
        scroll = ScrollView(size_hint=(None, None), size=(300, 120), pos=(0, 0))
        column = BoxLayout(orientation="vertical", size_hint=(1, None), height=300)
        buttons = [Button(text=f"Pick {n}", font_size=20) for n in range(5)]
        for b in buttons:
            column.add_widget(b)
        scroll.add_widget(column)
        view.add_widget(scroll)
        self.render(view)
        scroll.scroll_y = scroll_y
        self.frames(3)
        return buttons

    @staticmethod
    def problems(buttons: list[object]) -> list[str]:
        found = []
        for b in buttons:
            seen = clipping(b)
            if seen is not None:
                found += Looks.half_hidden(b, seen)
        return found

    def test_words_cut_by_either_edge_of_a_game_views_column(self) -> None:
        # halfway, the window shows 90..210 of the 300 px column: its top edge runs
        # through the second button's words (180..240), its bottom through the fourth's
        found = self.problems(self.column(0.5))
        assert any("'Pick 1' is half hidden by its scrolling area's top edge" in p for p in found)
        assert any(
            "'Pick 3' is half hidden by its scrolling area's bottom edge" in p for p in found
        )

    def test_whole_or_gone_is_fine(self) -> None:
        assert self.problems(self.column(1.0)) == []  # 180..300: two whole, the rest gone
        assert self.problems(self.column(0.0)) == []

    def test_a_list_outside_a_game_view_is_not_held_to_it(self) -> None:
        # a panel's or a sheet's list, cut at its end, says there is more below
        assert self.problems(self.column(0.5, game=False)) == []


class TestPinnedTrackAndBoardEdges(KivyTestCase):
    """Direwild's Karn's track squeezed beside the next step's button on a phone (11 px
    spaces), and the board's column letters cut by the scrolling column's top edge under
    the pinned row in portrait (issue 25): both were missed by every other check."""

    def track(self, side: float) -> list[str]:
        from kivy.metrics import dp
        from kivy.uix.widget import Widget

        class Track(Widget):
            def track_space(self) -> float:
                return float(self.height)

        root = Widget(size=(400, 300))
        root.add_widget(Track(size=(7 * side, side), pos=(10, 10)))
        self.render(root)
        return Looks(dp(48), (400, 300)).check([root], None)

    def test_a_track_squeezed_under_40_dp_is_found(self) -> None:
        assert any("Track spaces are 11 px, under 40 px" in p for p in self.track(11))
        assert not any("Track spaces" in p for p in self.track(40))

    def board(self, scroll_y: float, covered: bool = False) -> list[str]:
        """A 'board' of 400 px with a 20 px letter band at its top in a 200 px scrolling
        area, scrolled to `scroll_y`; a label drawn over the area's top if `covered`."""
        from kivy.metrics import dp
        from kivy.uix.boxlayout import BoxLayout
        from kivy.uix.label import Label
        from kivy.uix.scrollview import ScrollView
        from kivy.uix.widget import Widget

        class Board(Widget):
            def edge_labels(self) -> list[tuple[str, tuple[float, float, float, float]]]:
                x, y = self.to_window(self.x + 40, self.top - 22)
                return [("column letter 'A'", (x, y, x + 14, y + 20))]

        root = Widget(size=(400, 400))
        scroll = ScrollView(size_hint=(None, None), size=(300, 200), pos=(0, 0))
        column = BoxLayout(orientation="vertical", size_hint=(1, None), height=400)
        column.add_widget(Board())
        scroll.add_widget(column)
        root.add_widget(scroll)
        if covered:  # a pinned row's words drawn over the area's top
            root.add_widget(Label(text="Karn's hunt", pos=(0, 180), size=(300, 40), font_size=20))
        self.render(root)
        scroll.scroll_y = scroll_y
        self.frames(3)
        return Looks(dp(48), (400, 400)).check([root], None)

    def test_column_letters_cut_by_the_top_edge_are_found(self) -> None:
        # the area shows 188..388 of the board: its top edge 10 px into the letters'
        # band (378..398)
        found = self.board(188 / 200)
        assert any("column letter 'A' is half hidden" in p for p in found), found

    def test_column_letters_whole_or_gone_are_fine(self) -> None:
        assert not any("column letter" in p for p in self.board(1.0))  # whole
        assert not any("column letter" in p for p in self.board(0.0))  # scrolled away

    def test_column_letters_under_a_pinned_row_are_found(self) -> None:
        found = self.board(1.0, covered=True)
        assert any("column letter 'A' is under Label \"Karn's hunt\"" in p for p in found), found
