"""Dice assignments by touch: remembered per session (issue 6), not in the user's settings."""

from __future__ import annotations

import json
import time

import pytest

from companion.paths import data_home, settings_file
from companion.table.assignments import assignments_file
from tests.ui.kivyharness import AppTestCase
from tests.ui.memsource import MemorySource

pytestmark = pytest.mark.ui


class ScrollTapCase(AppTestCase):
    def settle(self, seconds: float = 0.3) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            self.frames(1)


class TestAssignDice(ScrollTapCase):
    def test_assign_a_die_to_the_roll_then_only_it_answers_and_the_session_keeps_it(self):
        app = self.start_app()
        self.tap("New game")
        self.tap("Tiny")
        self.tap("Start the game")
        sid = app.session.id
        source = MemorySource()
        for die in ("mem:1", "mem:2"):  # each die rolled once with nothing asked: now known
            assert app.hub.feed(source.event(0, die=die)) is None
        self.tap("Roll")
        panel = app.screen("session").panels["dice"]
        self.tap("Assign dice", within=panel)
        popup = self.find(cls="AssignPopup", within=self.Window)
        roles = [w.text for w in reversed(popup.ids.roles.children) if hasattr(w, "text")]
        assert roles[:4] == [  # the roll's own roles, most specific first, in words
            "[b]Player: score[/b]: any free die",
            "[b]Player: any d6[/b]: any free die",
            "[b]Player: any roll[/b]: any free die",
            "[b]any d6[/b]: any free die",
        ]
        self.shoot("session-assign-dice", both=False)
        second_grid = popup.ids.roles.children[-4]  # under the second role: the player's d6
        self.tap("mem:2", within=second_grid)
        self.settle()  # a scroll view sends the release 0.2 s on (a tap or a scroll?)
        saved = json.loads(assignments_file(data_home(), sid).read_text())
        assert saved == {"version": 2, "roles": {"player:d6": ["mem:2"]}}
        assert "[b]Player: any d6[/b]: mem:2" in [
            w.text for w in popup.ids.roles.children if hasattr(w, "text")
        ]
        self.tap("Done", within=popup)
        self.settle()  # the popup fades out
        assert app.hub.feed(source.event(3, die="mem:1")) is None
        assert app.session.request is not None
        app.hub.feed(source.event(3, die="mem:2"))
        assert app.session.request is None and app.session.state.last_roll == [4]
        # per session, not per user: the settings file knows nothing of dice
        self.tap("Settings", within=app.screen("session"))
        self.tap("Light")
        assert "dice" not in json.loads(settings_file().read_text())
        # the app restarted: the session's dice are as the table left them
        app = self.start_app()
        self.tap("Continue")
        assert app.session.id == sid
        assert app.hub.assignments.roles == {"player:d6": ["mem:2"]}
