"""The result card: the last step in the rules' words at the top of the game, with Undo."""

from __future__ import annotations

import pytest

from companion.games import get_game
from companion.ui.settings import TEXT_SIZES
from tests.ui.kivyharness import AppTestCase
from tests.ui.test_ergonomics import text_size

pytestmark = pytest.mark.ui


class TestResultCard(AppTestCase):
    def test_the_card_shows_the_roll_and_what_followed_and_undoes_it(self) -> None:
        app = self.start_app()
        session = app.library.new(get_game("tiny"))
        session.close()
        app.open_session("tiny-1")
        self.frames(3)
        card = app.screen("session").ids.result
        assert not card.shown, "nothing has happened yet: no card"
        self.tap("Roll 2 dice")
        self.tap("6", within=app.screen("session").panels["dice"])
        self.tap("6", within=app.screen("session").panels["dice"])
        self.tap("2", within=app.screen("session").panels["dice"])
        self.frames(2)
        assert card.shown
        assert card.title == "Roll 2 dice"  # what the dice were for, then the dice
        assert card.text == "Player: rolled 2 on the d3\nRolled 6, 6\nScore +2"
        self.shoot("result-card")
        self.tap("Undo", within=card)
        self.frames(2)
        assert app.session.request is not None and app.session.request.profile == "d3"
        assert card.title == "Roll 2 dice"
        assert card.text.startswith("Player: rolled 6, 6 on the d6"), card.text

    def test_the_card_is_on_screen_in_portrait_at_the_largest_text(self) -> None:
        app = self.start_app()
        session = app.library.new(get_game("tiny"))
        session.do("add", {"n": 3})
        session.close()
        app.open_session("tiny-1")
        with text_size(TEXT_SIZES["Largest"]):
            self.resize((800, 1280))
            self.frames(3)
            card = app.screen("session").ids.result
            assert card.shown and card.title == "Add" and card.text == "Score +3"
            assert card.y >= 0 and card.top <= self.Window.height, "the card is on screen"
            self.shoot("result-card-largest")


class TestIdleDiceStrip(AppTestCase):
    def test_in_portrait_an_idle_dice_tab_is_a_strip_and_a_roll_brings_it_back(self) -> None:
        app = self.start_app(size=(800, 1280))
        app.library.new(get_game("tiny")).close()
        app.open_session("tiny-1")
        self.frames(3)
        screen = app.screen("session")
        assert screen.side_idle
        assert screen.ids.side.height < 0.2 * self.Window.height
        assert screen.ids.game_area.height > 0.6 * self.Window.height
        self.tap("Roll 2 dice")
        self.frames(3)
        assert app.session.request is not None, screen.error
        assert not screen.side_idle
        keypad = screen.panels["dice"].ids.keypad
        assert keypad.children and keypad.get_root_window() is not None
        assert screen.ids.side.height > 0.3 * self.Window.height
        app.session.undo()
        self.frames(3)
        assert screen.side_idle
        self.shoot("idle-dice-strip")

    def test_in_landscape_an_idle_dice_tab_gives_its_room_to_the_result_card(self) -> None:
        app = self.start_app()
        screen = self.open_tiny(("add", {"n": 3}))
        card, side = screen.ids.result, screen.ids.side
        assert screen.side_idle and screen.panel_hidden
        assert card.parent is side.__self__, "the card sits beside the game, atop the tabs"
        assert card.shown and card.title == "Add"
        # the game has its whole column: nothing of the card above it
        column = screen.ids.game_column
        assert screen.ids.game_area.height > column.height - 20
        assert card.most > 0.6 * side.height, "the card may use what the idle panel left"
        assert screen.panels["dice"].parent is None, "the idle panel is put away"
        self.shoot("result-card-beside-landscape")
        self.tap("Roll 2 dice")
        self.frames(3)
        assert app.session.request is not None and not screen.panel_hidden
        assert card.parent is column.__self__, "a roll asked for: the card goes above the game"
        keypad = screen.panels["dice"].ids.keypad
        assert keypad.children and keypad.get_root_window() is not None
        self.tap("Settings", within=screen)  # nothing of the card lies over the top bar
        assert app.root.current == "settings"


class TestHeadline(AppTestCase):
    """Issue 25: the step's news from the rules, above the detail lines, in type at least
    1.5x theirs, with a drawn symbol and words, on screen at every size."""

    def test_the_headline_is_on_screen_above_the_details_and_large(self) -> None:
        from companion.ui.panels.headline import HeadlineRow, HeadlineSymbol

        app = self.start_app()
        session = app.library.new(get_game("kradia"))
        session.auto_steps = True
        session.do("start_round", {})
        assert session.request is not None
        session.answer(session.request.options[0])
        attack = next(a for a in session.listed() if a.get("label") == "Basic Attack")
        session.do(attack["do"], attack["with"])
        boss = session.content.get("bosses", session.state.boss.id).title
        session.close()
        app.open_session(session.id)
        card = app.screen("session").ids.result
        for size_name in ("Normal", "Largest"):
            with text_size(TEXT_SIZES[size_name]):
                for size in ((1280, 800), (800, 1280)):
                    self.resize(size)
                    self.frames(4)
                    rows = [w for w in card.news_rows() if isinstance(w, HeadlineRow)]
                    assert rows, f"no headline at {size}, {size_name}"
                    row = rows[0]  # beside Undo where no title is shown, else below it
                    assert row.headline.kind == "damage" and row.headline.subject == boss
                    assert boss in row.label.text and "\u22121 HP" in row.label.text
                    # the details below it, in a few lines that scroll: the game keeps its room
                    assert card.ids.lines.height <= card.lines_most + 1 or not card.lines_most
                    assert isinstance(row.symbol, HeadlineSymbol) and row.symbol.kind == "damage"
                    assert row.symbol.canvas.length() > 0, "the symbol is drawn"
                    body = card.ids.lines_text.font_size
                    assert row.label.font_size >= 1.5 * body - 0.01, (row.label.font_size, body)
                    # above the details, inside the card, inside the window
                    _x, top = row.to_window(row.x, row.top)
                    _x, bottom = row.to_window(row.x, row.y)
                    _x, lines_top = card.ids.lines.to_window(0, card.ids.lines.top)
                    assert bottom >= lines_top - 1, (bottom, lines_top)
                    assert bottom >= 0 and top <= self.Window.height, (bottom, top)
                    assert row.label.texture_size[1] <= row.label.height + 1, "not clipped"
                self.shoot(f"result-card-headline-{size_name.lower()}")
