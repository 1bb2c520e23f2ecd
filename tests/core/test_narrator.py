"""The action log as the narrator tells it (core/narrator.py): the table's steps, the
headings the rules mark, the core's own rows in the log's words, and nothing read out
of an event type's name."""

from __future__ import annotations

from pathlib import Path

from companion.core.narrator import LogLine, log_lines
from companion.games import get_game
from tests.core.helpers import tiny_session


def test_a_tiny_game_told_line_by_line(tmp_path: Path) -> None:
    s = tiny_session(tmp_path)
    s.do("roll", {"count": 1})
    s.answer([2])
    s.do("next_round")
    s.correct("score", 10)
    s.do("draw")
    s.answer("tiny/token/silver", by="tap")
    lines = log_lines(s)
    assert lines[0] == LogLine("New game of Tiny", "line")
    assert LogLine("Roll", "step") in lines
    assert LogLine("Rolled: 2 on the keypad", "line") in lines
    assert LogLine("Next round", "step") in lines
    assert LogLine("RoundStarted: round 1", "heading") in lines
    assert LogLine("Card: Silver tapped", "line") in lines
    assert any(
        line.text.startswith("Corrected score: ") and " to 10" in line.text for line in lines
    )
    assert not any(line.text.startswith("Waiting") for line in lines)  # the dice panel's
    assert [line.kind for line in lines].count("heading") == 1
    s.close()


def old_heading(event_type: str) -> bool:
    """How the log panel told a heading before the rules said it: by the type's name."""
    words = ("Round", "Chapter", "Turn", "Level")
    return event_type.endswith("Started") and any(w in event_type for w in words)


def test_the_rules_mark_as_headings_what_the_log_made_headings_before() -> None:
    for game_id in ("direwild", "hexplore", "kradia", "tiny"):
        events = get_game(game_id).events
        assert events is not None
        marked = {name for name in events if events.is_heading(name)}
        assert marked == {name for name in events if old_heading(name)}, game_id
        assert bool(marked) == (game_id != "hexplore"), game_id  # HEXplore has none
