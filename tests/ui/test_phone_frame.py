"""The session frame on a phone at the Largest text: one row of top bar, one row of tabs.

Why: issue 25 asks that a roll's keypad and the game's key numbers stay whole on a 412x915
phone at the Largest text.  The frame's two rows of top bar and two rows of tabs took
140 px of it, so on a phone the top bar is Home, Undo and More (Redo and Settings behind
More), the result card's own Undo is put away (Undo once), and the tabs are one row that
scrolls sideways.  Every action must stay reachable by touch, at 48 dp at least.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.ui.kivyharness import AppTestCase
from tests.ui.test_ergonomics import PHONE, text_size

pytestmark = pytest.mark.ui


def buttons(bar: Any) -> list[Any]:
    """The top bar's buttons, left to right (not its heading)."""
    from companion.ui.widgets import BigButton, BigToggle

    return [w for w in reversed(bar.children) if isinstance(w, (BigButton, BigToggle))]


class TestPhoneFrame(AppTestCase):
    def test_every_action_reachable_by_touch_in_one_row_of_each(self) -> None:
        from companion.ui.settings import TEXT_SIZES

        app = self.start_app(size=PHONE)
        with text_size(TEXT_SIZES["Largest"]):
            screen = self.open_tiny(("roll", {"count": 2}))
            ids = screen.ids
            panel = screen.panels["dice"]
            assert screen.phone
            # the top bar is one row: Home, Undo and More side by side, nothing after them
            bar = buttons(ids.top_bar)
            assert [w.text for w in bar] == ["Home", "Undo", "More"]
            assert len({round(w.y) for w in bar}) == 1
            # the tabs are one row, all of them, scrolling sideways where they do not fit
            tabs = list(ids.tab_bar.children)
            assert len(tabs) == 6 and len({round(t.y) for t in tabs}) == 1
            assert ids.tab_bar.height == tabs[0].height
            self.tap("3", within=panel)
            self.tap("5", within=panel)
            assert app.session.state.last_roll == [3, 5]
            # the result card's Undo is put away: the top bar's is the one Undo
            card = ids.result
            assert card.shown and card.undo_away
            with pytest.raises(AssertionError):
                self.find("Undo", within=card)
            self.tap("Undo", within=ids.top_bar)
            assert app.session.request is not None
            # Redo behind More: More opens it, and a touch on it redoes
            with pytest.raises(AssertionError):
                self.find("Redo", within=ids.top_bar)
            self.tap("More", within=ids.top_bar)
            redo = self.find("Redo", within=ids.top_bar)
            assert min(redo.size) >= 48 and min(ids.more.size) >= 48
            self.tap(redo)
            assert app.session.request is None and app.session.state.last_roll == [3, 5]
            # a tab past the row's edge is scrolled to and opened by touch
            self.tap("Phones", within=ids.tab_bar)
            assert screen.tab == "phones" and not screen.panel_hidden
            self.tap("Settings", within=ids.top_bar)
            assert app.root.current == "settings"


class TestTabletFrame(AppTestCase):
    def test_a_tablet_keeps_its_top_bar_and_the_cards_undo(self) -> None:
        app = self.start_app()
        screen = self.open_tiny(("roll", {"count": 2}))
        self.tap("3", within=screen.panels["dice"])
        self.tap("5", within=screen.panels["dice"])
        bar = [w.text for w in buttons(screen.ids.top_bar)]
        assert bar == ["Home", "Undo", "Redo", "Settings"]
        assert not screen.ids.result.undo_away
        self.tap("Undo", within=screen.ids.result)
        assert app.session.request is not None
