"""Values the rules derive from the state follow a correction: nothing stored goes stale."""

from __future__ import annotations

from pathlib import Path

from companion.core.session import Session
from companion.games import get_game
from companion.games.hexplore.state import cycle_length, movement, solo


def test_a_corrected_play_style_changes_the_cycle_and_the_movement(tmp_path: Path) -> None:
    with Session.create(tmp_path / "g.session", get_game("hexplore"), {}) as s:
        assert (cycle_length(s.state), movement(s.state), solo(s.state)) == (6, 4, False)
        s.correct("play_style", "quick_play")
        assert (cycle_length(s.state), movement(s.state)) == (5, 5)
        for _ in range(5):
            s.do("end_game_turn")
        assert s.state.fate.cycle == 1 and s.state.fate.tracker == 0
        assert "fate" in s.to_json() and "length" not in s.to_json()["fate"]
