"""The app never stops on an unexpected exception (issue 17, finding 2).

Faults are injected into a view (its refresh fails after a command) and into the storage
layer (SQLite told the file is read-only, or that the disk is full), the way Kivy's main
loop would meet them.  Each is shown in words on the screen the player is looking at; a
bug is also written, with the session's name and its traceback, to errors.log in the
user data folder; and play goes on.
"""

from __future__ import annotations

import asyncio

import pytest

from companion.games import get_game
from companion.paths import data_home
from tests.ui.kivyharness import AppTestCase

pytestmark = pytest.mark.ui


class TestErrorHandler(AppTestCase):
    def _playing(self):
        app = self.start_app()
        session = app.library.new(get_game("tiny"))
        app.attach(session)
        self.frames(3)
        return app, session

    def test_a_failing_view_is_logged_and_shown_and_play_goes_on(self) -> None:
        app, session = self._playing()
        screen = app.screen("session")
        working = screen.refresh

        def broken(*_args, **_kw):
            raise ZeroDivisionError("the view divided by zero")

        screen.refresh = broken
        self.as_main_loop(lambda: session.do("add", {"n": 2}))  # a view's button handler
        screen.refresh = working
        self.frames(2)  # the screen is redrawn from the file on the next frame
        self.find("Tiny: Round 0, score 2")
        assert "Something went wrong" in screen.error and "errors.log" in screen.error
        log = (data_home() / "errors.log").read_text()
        assert f"session {session.id}" in log and "ZeroDivisionError" in log
        assert session.to_json()["score"] == 2  # the command itself was saved
        self.shoot("error-shown")
        screen.do("add", {"n": 1})
        assert session.to_json()["score"] == 3 and screen.error == ""

    def test_storage_faults_are_said_in_words_and_play_goes_on(self) -> None:
        app, session = self._playing()
        screen = app.screen("session")
        session.store.db.execute("PRAGMA query_only = 1")
        self.as_main_loop(lambda: session.do("add", {"n": 2}))  # a view calling the session
        assert "read-only. Nothing was changed" in screen.error
        session.store.db.execute("PRAGMA query_only = 0")
        pages = session.store.db.execute("PRAGMA page_count").fetchone()[0]
        session.store.db.execute(f"PRAGMA max_page_count = {pages}")
        for _ in range(3000):
            if screen.do("add", {"n": 1}):
                break
        assert "storage is full" in screen.error
        score = session.to_json()["score"]
        session.store.db.execute(f"PRAGMA max_page_count = {pages * 100}")
        assert screen.do("add", {"n": 1}) == ""
        assert session.to_json()["score"] == score + 1
        assert not (data_home() / "errors.log").exists()  # words, not bugs

    def test_an_exception_in_a_background_task_is_shown_not_fatal(self) -> None:
        app, session = self._playing()
        loop = asyncio.new_event_loop()
        try:
            app._loop_error(loop, {"message": "task failed", "exception": KeyError("boom")})
        finally:
            loop.close()
        assert "Something went wrong" in app.screen("session").error
        assert "KeyError: 'boom'" in (data_home() / "errors.log").read_text()
