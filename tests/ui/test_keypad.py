"""The keypad by touch: several dice entered one tap at a time, hex faces shown as hex,
redo after undo, and the screen kept awake only while a session is open."""

from __future__ import annotations

import tempfile

import pytest

from companion.core.tables import Commands
from companion.games import get_game, register_game, unregister_game
from tests.fixtures.tinygame import COMMANDS, TinyGame
from tests.ui.kivyharness import AppTestCase

pytestmark = pytest.mark.ui


def skill_roll(d, args, chance, content):
    values = chance.roll("skill_d10", 2, for_="hero", why="for the skill check", role="skill")
    d.emit("Rolled", values=values)


class HexGame(TinyGame):
    """The tiny game with a HEXplore skill die, to see the keypad show its hex face."""

    id = "tinyhex"
    title = "Tiny Hex"
    content_kinds = {}
    commands = Commands({**COMMANDS.phases, "skill": {"skill_roll": skill_roll}})

    def legal_actions(self, state, content):
        return [{"do": "skill_roll", "with": {}, "label": "Skill roll"}]


class TestKeypad(AppTestCase):
    def test_two_dice_one_tap_each_then_undo_and_redo(self) -> None:
        app = self.start_app()
        panel = self.open_tiny(("roll", {"count": 2})).panels["dice"]
        assert panel.request_text == "Player: roll 2 x d6\nto score"
        self.tap("3", within=panel)
        assert panel.entered_text == "Entered: 3  _"
        self.tap("Clear entry", within=panel)
        assert panel.entered_text == "Entered: _  _"
        self.tap("5", within=panel)
        self.tap("2", within=panel)
        assert app.session.request is None and app.session.state.last_roll == [5, 2]
        self.tap(app.screen("session").ids.undo)
        assert app.session.request is not None and app.session.state.score == 0
        self.tap(app.screen("session").ids.redo)
        assert app.session.request is None and app.session.state.last_roll == [5, 2]
        assert app.screen("session").ids.redo.disabled

    def test_hex_faces_show_as_hex(self) -> None:
        register_game(HexGame())
        try:
            app = self.start_app()
            empty_pack = tempfile.mkdtemp(prefix="empty-pack-")
            session = app.library.new(get_game("tinyhex"), packs=[empty_pack])
            session.close()
            app.open_session("tinyhex-1")
            self.tap("Skill roll")
            panel = app.screen("session").panels["dice"]
            keys = [k.text for k in reversed(panel.ids.keypad.children)]
            assert keys == ["hex", "2", "3", "4", "5", "6", "7", "8", "9", "10"]
            self.shoot("session-hex-keypad")
            self.tap("hex", within=panel)
            self.tap("10", within=panel)
            assert app.session.state.last_roll == [1, 10]
        finally:
            unregister_game("tinyhex")  # keep the test game out of later tests

    def test_screen_kept_awake_only_during_a_session(self) -> None:
        app = self.start_app()
        assert self.Window.allow_screensaver is True
        self.tap("New game")
        self.tap("Tiny")
        self.tap("Start the game")
        assert self.Window.allow_screensaver is False
        self.tap("Home")
        assert app.root.current == "home" and app.session is None
        assert self.Window.allow_screensaver is True


class TestSwitchingSessions(AppTestCase):
    def test_opening_another_session_while_one_is_shown_shows_the_new_one(self) -> None:
        app = self.start_app()
        for start in (1, 7):
            app.library.new(get_game("tiny"), {"start": start}).close()
        app.open_session("tiny-1")
        self.frames(2)
        app.open_session("tiny-2")  # e.g. a save opened from elsewhere while in a game
        self.frames(2)
        screen = app.screen("session")
        assert screen.heading == "Tiny: Round 0, score 7"
        self.tap("Add")
        assert app.session.id == "tiny-2" and app.session.state.score == 8


class TestVirtualRoller(AppTestCase):
    def test_roll_for_me_answers_with_the_virtual_roller(self) -> None:
        app = self.start_app()
        self.tap("New game")
        self.tap("Tiny")
        self.tap("Start the game")
        self.tap("Roll")
        panel = app.screen("session").panels["dice"]
        assert panel.can_roll_for_me
        while app.session.request is not None:  # a six asks for the bonus d3 as well
            self.tap("Roll for me (virtual dice)", within=panel)
        rows = [r for tx in app.session.history() for r in tx if r.type == "RequestAnswered"]
        assert rows and all(r.data["by"] == "virtual roller" for r in rows)
        assert 1 <= app.session.state.last_roll[0] <= 6
        assert not panel.can_roll_for_me
        assert panel.ids.message.text.startswith("Player: roll ")  # what was rolled, in words
        assert "rolled" in panel.ids.message.text


class TestPhoneTabs(AppTestCase):
    """On a phone the game and a side panel share one place, so the tab lit must be the
    one shown: a lit Dice tab over the game read as a tab that did nothing (issue 25)."""

    def test_the_tab_lit_is_what_a_phone_shows(self) -> None:
        from tests.ui.test_ergonomics import PHONE

        app = self.start_app(size=PHONE)
        screen = self.open_tiny(("roll", {"count": 2}))
        panel = screen.panels["dice"]
        # a roll asked for: the Dice panel in the game's place, its tab lit
        assert screen.phone and screen.tab == "dice"
        assert screen.ids.tab_dice.state == "down" and screen.game_tab.state == "normal"
        assert screen.game_hidden and not screen.panel_hidden
        self.tap("3", within=panel)
        self.tap("5", within=panel)
        self.frames(3)
        # the roll made: the game back in its place, and its tab the one lit
        assert app.session.request is None
        assert screen.tab == "game" and screen.game_tab.state == "down"
        assert screen.ids.tab_dice.state == "normal"
        assert not screen.game_hidden and screen.panel_hidden
        # the Dice tab tapped with nothing to roll shows its panel, saying so
        self.tap(screen.ids.tab_dice)
        self.frames(3)
        assert screen.tab == "dice" and not screen.panel_hidden and screen.game_hidden
        assert panel.request_text == "No roll asked for right now."
        # a session opened with nothing asked for opens on its game
        app.go("home")
        self.frames(2)
        assert self.open_tiny() is screen
        assert screen.tab == "game" and screen.game_tab.state == "down"
