"""The session as its callers hold it: created and opened, its parts wired, every
transaction under its lock, its listeners told, another writer caught up with."""

from __future__ import annotations

import pytest

from companion.core.rules import RuleError
from companion.core.session import Session
from tests.core.helpers import log_rows, tiny_session


def test_bad_setup_writes_no_file(tmp_path):
    with pytest.raises(RuleError, match="start must be"):
        tiny_session(tmp_path, start=-1)
    assert not (tmp_path / "t.session").exists()


def test_listener_hears_every_commit(tmp_path):
    s = tiny_session(tmp_path)
    heard = []
    s.subscribe(lambda sess, result: heard.append(sess.to_json()["score"]))
    s.do("add", {"n": 1})
    s.undo()
    s.redo()
    assert heard == [1, 0, 1]


def test_another_process_writing_is_picked_up(tmp_path):
    a = tiny_session(tmp_path)
    b = Session.open(tmp_path / "t.session")
    a.do("add", {"n": 2})
    b.do("add", {"n": 3})  # b catches up with a's command before deciding
    assert b.to_json()["score"] == 5
    a.do("add", {"n": 1})
    assert a.to_json()["score"] == 6


def test_the_tables_calls_by_name_reach_the_engine(tmp_path):
    """Scenarios, the CLI and the shell name every call; the session sends each on."""
    s = tiny_session(tmp_path)
    s.do("roll", {"count": 1})
    s.do("answer", {"values": [6]})
    s.do("answer", {"values": [1], "by": "die"})
    s.do("correct", {"path": "score", "value": 3})
    s.do("undo")
    assert s.to_json()["score"] == 7
    s.do("redo")
    s.do("check_card", {"card": "tiny/token/silver"})
    assert [r.data["by"] for r in s.store.rows() if r.type == "RequestAnswered"] == ["cli", "die"]
    assert [rows[0].type for rows in s.history()][-2:] == ["Corrected", "CardChecked"]
    with pytest.raises(RuleError, match="numbers are the card's fields"):
        s.do("check_card", {"card": "tiny/token/silver", "numbers": 3})


class _Refuse:
    def check(self) -> None:
        raise RuleError("not this roll")

    def wrote(self, tx: int) -> None:
        raise AssertionError("never written")


class _FailsWriting:
    def check(self) -> None:
        pass

    def wrote(self, tx: int) -> None:
        raise OSError("the disk is full")


def test_a_guard_refusing_or_failing_leaves_file_and_memory_as_they_were(tmp_path):
    s = tiny_session(tmp_path)
    s.do("add", {"n": 2})
    before, state = log_rows(s), s.to_json()
    with s.guarded(_Refuse()), pytest.raises(RuleError, match="not this roll"):
        s.do("add", {"n": 1})
    with s.guarded(_FailsWriting()), pytest.raises(OSError):
        s.do("add", {"n": 1})
    assert log_rows(s) == before and s.to_json() == state
    s.do("add", {"n": 1})  # a guard holds for one transaction only
    assert s.to_json()["score"] == 3
