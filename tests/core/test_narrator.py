"""The narrator (core/narrator.py): the core's own rows and the game's events in words, the
result card's titles, and the action log as it is told (the table's steps, the headings the
rules mark, nothing read out of an event type's name); telling changes nothing."""

from __future__ import annotations

from pathlib import Path

from companion.core.narrator import LogLine
from companion.games import get_game
from tests.core.helpers import log_rows, tiny_session


def words(session) -> list[list[tuple[str, str]]]:
    return [
        [(row.type, session.narrator.describe(row)) for row in rows]
        for rows in session.narrator.history()
    ]


def test_every_row_the_core_writes_reads_in_words(tmp_path):
    s = tiny_session(tmp_path)
    s.engine.do("add", {"n": 2})
    s.engine.do("roll", {"count": 1})
    s.engine.answer([6])
    s.engine.answer([2])
    s.engine.correct("score", 1)
    s.engine.undo()
    s.engine.redo()
    said = words(s)
    assert said[0] == [("SessionStarted", "New game of Tiny")]
    assert said[1] == [("CommandIssued", "Add"), ("Added", "Score +2"), ("CommandDone", "")]
    assert said[2] == [
        ("CommandIssued", "Roll"),
        ("RequestOpened", "Waiting: Player: roll the d6 (to score)"),
    ]
    assert said[3][0] == ("RequestAnswered", "Player: rolled 6 on the d6")
    assert said[-1] == [("Corrected", "Corrected score: 10 -> 1")]
    undone, redone = (s.store.tx_rows(tx)[0] for tx in (6, 7))
    assert [s.narrator.describe(undone), s.narrator.describe(redone)] == ["Undo", "Redo"]


def test_a_roll_is_titled_by_the_step_it_answers(tmp_path):
    s = tiny_session(tmp_path)
    assert s.narrator.last_step() is None  # nothing played yet
    s.engine.do("roll", {"count": 1})
    s.engine.answer([6])
    card = s.narrator.last_step()
    assert card is not None
    assert card["title"] == "Roll"
    assert card["lines"] == ["Player: rolled 6 on the d6"]
    assert card["waiting"] == "Player: roll the d3 (bonus for all sixes)"
    assert [h.words for h in card["headlines"]] == ["Roll"]  # no news: the step itself


def test_cards_are_named_by_the_packs_and_checked_in_words(tmp_path):
    s = tiny_session(tmp_path)
    assert s.narrator.names()["tiny/token/silver"] == "Silver"
    s.engine.do("draw")
    s.engine.answer("tiny/token/silver")
    card = s.narrator.last_step()
    assert card is not None and card["lines"][0] == "Player: drew Silver"
    s.engine.check_card("tiny/token/silver", {"value": 7})
    card = s.narrator.last_step()
    assert card is not None
    assert card["title"] == "Silver checked against your card: value 5 -> 7"


def test_telling_changes_nothing(tmp_path):
    s = tiny_session(tmp_path)
    s.engine.do("roll", {"count": 1})
    before, state = log_rows(s), s.engine.to_json()
    s.narrator.last_step()
    words(s)
    s.narrator.unchecked()
    assert log_rows(s) == before and s.engine.to_json() == state


def test_a_tiny_game_told_line_by_line(tmp_path: Path) -> None:
    s = tiny_session(tmp_path)
    s.do("roll", {"count": 1})
    s.answer([2])
    s.do("next_round")
    s.correct("score", 10)
    s.do("draw")
    s.answer("tiny/token/silver", by="tap")
    lines = s.narrator.log_lines()
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
