"""The chime and buzz when the table must act (issue 12): asked for when a roll or a card
is asked for, never for anything else, and quiet when the player turns it off."""

from __future__ import annotations

import wave

import pytest

from companion.ui.cue import CHIME, Cue, write_chime
from tests.ui.kivyharness import AppTestCase


def test_the_shipped_chime_is_the_one_write_chime_makes(tmp_path) -> None:
    made = write_chime(tmp_path / "cue.wav")
    assert made.read_bytes() == CHIME.read_bytes()
    with wave.open(str(CHIME)) as w:
        seconds = w.getnframes() / w.getframerate()
    assert 0.1 < seconds < 0.5  # a chime, not a tune


def test_a_muted_cue_is_still_asked_but_gives_nothing() -> None:
    cue = Cue(enabled=False)
    assert cue.table_must("roll") is False
    assert cue.asked == ["roll"] and cue.given == []


@pytest.mark.ui
class TestCueInTheApp(AppTestCase):
    def test_a_roll_asked_for_chimes_once_and_quiet_turns_it_off(self) -> None:
        from companion.games import get_game

        app = self.start_app()
        session = app.start_session(get_game("hexplore"), {}, ["demo"])
        self.frames(3)
        assert app.cue.asked == []  # opening a game asks nothing of the table
        screen = app.screen("session")
        hero = next(iter(session.state.heroes))
        screen.do("roll_skills", {"hero": hero})
        self.frames(2)
        assert app.cue.asked == ["roll"]
        self.frames(3)
        assert app.cue.asked == ["roll"]  # the same roll still waiting: no second chime
        app.settings.cues = False
        app.apply_settings()
        screen.answer([5])  # the next skill's die is asked for: asked, but quiet
        self.frames(2)
        assert app.cue.asked == ["roll", "roll"]
        assert app.cue.given == ["roll"]
