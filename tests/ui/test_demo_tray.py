"""`companion app --demo` by touch: the simulated tray on a real pseudo-terminal, read by
the real serial source on an asyncio loop beside Kivy's frames.

Kivy's `GraphicUnitTest` owns the window and steps its frames; these tests step an
asyncio loop between frames, as `App.async_run` interleaves the two in the app.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from hardware.linked import Backoff
from tests.ui.kivyharness import AppTestCase

pytestmark = pytest.mark.ui


class LoopAppTestCase(AppTestCase):
    def setUp(self) -> None:
        super().setUp()
        self.loop = asyncio.new_event_loop()

    def tearDown(self, fake: bool = False) -> None:
        if not fake and self.app is not None:
            self.run_async(self.app.hub.close())  # what launch.run_app does after the loop
        super().tearDown(fake)
        if not fake:
            self.loop.close()

    def run_async(self, coro: Any) -> Any:
        return self.loop.run_until_complete(coro)

    def spin_until(self, check: Any, timeout: float = 10.0) -> None:
        """Run the loop and draw frames until `check()` holds."""
        deadline = time.monotonic() + timeout
        while not check():
            assert time.monotonic() < deadline, "timed out"
            self.run_async(asyncio.sleep(0.02))
            self.frames(1)

    def start_demo(self) -> Any:
        app = self.start_app()
        app.demo = True

        async def start() -> None:
            app.dispatch("on_start")  # as App.async_run does, on the running loop

        self.run_async(start())
        self.spin_until(lambda: app.hub.sources and app.hub.sources[0].status == "connected")
        return app

    def new_tiny_game(self) -> Any:
        self.tap("New game")
        self.tap("Tiny")
        self.tap("Start the game")
        return self.app.screen("session")


class TestDemoTray(LoopAppTestCase):
    def test_roll_on_the_simulated_tray_answers_through_its_serial_port(self) -> None:
        app = self.start_demo()
        screen = self.new_tiny_game()
        panel = screen.panels["dice"]
        with pytest.raises(AssertionError, match="nothing shows"):
            self.find("Roll on the simulated tray")  # nothing asked: no button
        self.tap("Roll")
        button = self.find("Roll on the simulated tray", within=panel)
        assert button.height >= 90 and button.font_size > 1.3 * panel.ids.roll_for_me.font_size
        self.shoot("session-demo-tray")
        while app.session.request is not None:  # a six asks for the bonus d3 as well
            asked = app.session.request
            self.tap("Roll on the simulated tray", within=panel)
            self.spin_until(lambda asked=asked: app.session.request != asked)
        rows = [r for tx in app.session.history() for r in tx if r.type == "RequestAnswered"]
        assert rows and all(r.data["by"] == "sim-tray" for r in rows)
        assert 1 <= app.session.state.last_roll[0] <= 6
        self.spin_until(lambda: "rolled" in panel.ids.message.text)  # the answerer's words
        assert not panel.can_roll_on_tray

    def test_banner_when_the_tray_is_unplugged_and_gone_when_it_is_back(self) -> None:
        app = self.start_demo()
        source, tray = app.hub.sources[0], app.hub.simulated
        source.backoff = Backoff(first=0.05, cap=0.3)  # the patience of a test, not a table
        screen = self.new_tiny_game()
        assert screen.alarm == ""
        tray.unplug()
        self.spin_until(lambda: screen.alarm.startswith("Dice: sim-tray "))
        assert screen.alarm in ("Dice: sim-tray reconnecting", "Dice: sim-tray lost")
        self.find(screen.alarm)  # the banner is on screen
        self.shoot("session-tray-unplugged", both=False)
        tray.replug()
        self.spin_until(lambda: screen.alarm == "")
        assert source.status == "connected" and source.reconnects == 1
        # and it rolls again after the reconnection
        self.tap("Roll")
        asked = app.session.request
        self.tap("Roll on the simulated tray", within=screen.panels["dice"])
        self.spin_until(lambda: app.session.request != asked)
        rows = [r for tx in app.session.history() for r in tx if r.type == "RequestAnswered"]
        assert [r.data["by"] for r in rows] == ["sim-tray"]


class TestNeverBlocks(LoopAppTestCase):
    def test_no_die_answers_in_time_so_the_keypad_is_offered_and_answers(self) -> None:
        """Issue 6: when no device answers within the timeout the screen offers on-screen
        entry.  The tray is connected but nobody rolls it."""
        app = self.start_demo()
        app.hub.timeout = 0.5  # the answerer's timeout (20 s at the table)
        screen = self.new_tiny_game()
        panel = screen.panels["dice"]
        self.tap("Roll", within=screen.view)
        self.tap("Log")  # someone reading the log while the roll is awaited
        assert screen.tab == "log" and panel.offer_text == ""
        self.spin_until(lambda: panel.offer_text, timeout=5)
        assert panel.offer_text.startswith("No dice answered for 0.5 s: enter the roll on screen")
        assert screen.tab == "dice"  # brought forward
        self.find(panel.offer_text, within=panel)  # on screen, above the keypad
        self.shoot("session-dice-overdue", both=False)
        self.tap("4", within=panel)
        assert app.session.request is None and app.session.state.last_roll == [4]
        assert app.session.history()[-1][0].data["by"] == "keypad"
        self.frames(2)
        assert panel.offer_text == ""  # answered: the offer goes
        # once per request: the next roll waits its own timeout again (the button, not the
        # result card's title, which now names the step the roll answered)
        self.tap("Roll", within=screen.view)
        self.spin_until(lambda: panel.offer_text, timeout=5)

    def test_a_roll_from_the_tray_in_time_offers_nothing(self) -> None:
        app = self.start_demo()
        app.hub.timeout = 3.0
        screen = self.new_tiny_game()
        panel = screen.panels["dice"]
        self.tap("Roll")
        asked = app.session.request
        self.tap("Roll on the simulated tray", within=panel)
        self.spin_until(lambda: app.session.request != asked)  # a six asks for a d3 next
        deadline = time.monotonic() + 1.5  # the screen checks every second
        while time.monotonic() < deadline:
            self.run_async(asyncio.sleep(0.05))
            self.frames(1)
        assert panel.offer_text == ""


class TestAssignByName(LoopAppTestCase):
    def test_the_trays_dice_are_offered_by_their_names_and_saved_by_id(self) -> None:
        import json

        from companion.paths import data_home
        from companion.table.assignments import assignments_file

        app = self.start_demo()
        screen = self.new_tiny_game()
        self.tap("Roll")
        self.tap("Assign dice", within=screen.panels["dice"])
        popup = self.find(cls="AssignPopup", within=self.Window)
        second_grid = popup.ids.roles.children[-4]  # under "Player: any d6"
        names = [w.text for w in reversed(second_grid.children)]
        assert names == ["red-d6", "blue-d6", "green-d6", "fate-d8"] + [
            f"skill-d10-{c}" for c in "abc"
        ]
        self.shoot("session-assign-named-dice", both=False)
        from companion.ui.style import style

        before, style.font_scale = style.font_scale, 1.8  # the largest text setting
        try:
            self.frames(3)
            self.shoot("session-assign-named-dice-largest")
        finally:
            style.font_scale = before
            self.frames(2)
        self.tap("blue-d6", within=second_grid)
        self.spin_until(lambda: app.hub.assignments.roles == {"player:d6": ["sim-tray:2"]})
        saved = json.loads(assignments_file(data_home(), app.session.id).read_text())
        assert saved["roles"] == {"player:d6": ["sim-tray:2"]}
        self.spin_until(
            lambda: (
                "[b]Player: any d6[/b]: blue-d6"
                in [w.text for w in popup.ids.roles.children if hasattr(w, "text")]
            )
        )
