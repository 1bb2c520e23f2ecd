"""The narrator on its own: every row of the log in words, the result card's step, the
names the packs give; none of it changes the state or the file."""

from __future__ import annotations

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
