"""A whole evening in miniature, by touch: start a game, answer rolls on the keypad, undo,
correct a value, draw a card, then restart the app and carry on where the table left off.

The tiny test game stands in for the real games (they plug their own views into the same
frame); it has no screens, so it also exercises the generic state view and its command
buttons.
"""

from __future__ import annotations

import pytest

from tests.ui.kivyharness import AppTestCase

pytestmark = pytest.mark.ui


class TestEvening(AppTestCase):
    def test_new_game_keypad_undo_correct_draw_and_resume(self) -> None:
        app = self.start_app()
        self.shoot("home-empty")

        self.tap("New game")
        assert app.root.current == "new"
        self.tap("Tiny")
        self.shoot("new-game-wizard")
        self.tap("Start the game")
        assert app.root.current == "session"
        session = app.session
        assert session is not None and session.game.id == "tiny"
        assert session.state.score == 0

        # a command from the game's view, then the roll answered on the keypad
        self.tap("Roll")
        assert session.request is not None and session.request.profile == "d6"
        panel = app.screen("session").panels["dice"]
        assert "roll the d6" in panel.request_text
        self.shoot("session-dice-request")
        self.tap("4", within=panel)
        assert session.request is None
        assert session.state.last_roll == [4] and session.state.score == 4

        # undo puts the request back; a six then asks for the bonus d3
        self.tap("Undo", within=app.screen("session").ids.undo.parent)
        assert session.state.score == 0 and session.request is not None
        self.tap("6", within=panel)
        assert session.request is not None and session.request.profile == "d3"
        assert [k.text for k in panel.ids.keypad.children[::-1]] == ["1", "2", "3"]
        self.tap("2", within=panel)
        assert session.request is None and session.state.score == 8

        # a correction: the table says the score is 10
        self.tap("Fix")
        fix = app.screen("session").panels["fix"]
        self.tap("Score: [b]8[/b]", within=fix)
        self.tap("+", within=fix)
        self.tap("+", within=fix)
        self.shoot("session-correction")
        self.tap("Save", within=fix)
        assert session.state.score == 10

        # a bad correction is refused in words and changes nothing
        self.tap("Outcome: [b]-[/b]", within=fix)
        fix.ids.text_value.text = "won"
        self.tap("Save", within=fix)
        assert session.state.outcome == "won"
        # once the game is won the rules list nothing: no command is offered
        with pytest.raises(AssertionError, match="nothing shows 'Draw'"):
            self.find("Draw", within=app.screen("session").view)
        self.tap(app.screen("session").ids.undo)  # the table takes the correction back
        assert session.state.outcome is None

        # a draw: the scanner panel comes forward and the card can be tapped
        self.tap("Draw")
        assert app.screen("session").tab == "cards"
        self.shoot("session-cards-request")
        self.tap("Silver", within=app.screen("session").panels["cards"])
        assert session.state.hand == ["tiny/token/silver"] and session.state.score == 15

        self.tap("Log")
        lines = [d["text"] for d in app.screen("session").panels["log"].ids.lines.data]
        assert "Corrected score: 8 to 10" in lines
        assert "Rolled: 2 on the keypad" in lines and "Card: Silver tapped" in lines
        assert "Rolled: 4 on the keypad" not in lines  # undone: no longer the game's history
        self.shoot("session-log")

        expected = session.to_json()
        sid = session.id

        # restart: a new app over the same data folder, and continue from the home screen
        app = self.start_app()
        assert app.session is None
        self.shoot("home-with-session")
        self.tap("Continue")
        assert app.root.current == "session"
        assert app.session.id == sid
        assert app.session.to_json() == expected

    def test_refused_command_is_shown_in_words_and_loses_nothing(self) -> None:
        app = self.start_app()
        self.tap("New game")
        self.tap("Tiny")
        self.tap("Start the game")
        session = app.session
        self.tap("Roll")
        before = session.to_json()
        screen = app.screen("session")
        with pytest.raises(AssertionError, match="nothing shows 'Add'"):
            self.find("Add", within=screen.view)  # while a roll waits, only answering is offered
        screen.do("add", {"n": 1})  # a stale tap (a view drawn before the roll was asked)
        assert "waiting for" in screen.error and "Answer it, or undo" in screen.error
        assert session.to_json() == before
        self.shoot("session-refused")
