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
