"""The session core: commands, chance, undo/redo, corrections, persistence."""

from __future__ import annotations

from dataclasses import dataclass, field

import msgspec
import pytest

from companion.core import session as session_mod
from companion.core.rules import RuleError
from companion.core.session import Session
from companion.core.shape import convert_state
from tests.core.helpers import log_rows, tiny_session


def test_command_is_committed_and_folded_back(tmp_path):
    s = tiny_session(tmp_path)
    s.do("add", {"n": 4})
    s.close()
    again = Session.open(tmp_path / "t.session")
    assert again.to_json()["score"] == 4


def test_dice_request_waits_in_the_state_until_answered(tmp_path):
    s = tiny_session(tmp_path)
    result = s.do("roll", {"count": 2})
    assert result.request is not None and result.request.profile == "d6"
    assert s.to_json()["requests"] == [
        {
            "kind": "dice",
            "for": "player",
            "role": "score",
            "who": "Player",
            "why": "to score",
            "profile": "d6",
            "count": 2,
            "faces": [1, 2, 3, 4, 5, 6],
        }
    ]
    assert s.to_json()["score"] == 0
    s.close()
    s = Session.open(tmp_path / "t.session")  # the request survives a restart
    assert s.request is not None and s.request.count == 2
    s.answer([2, 3])
    assert s.to_json()["score"] == 5
    assert s.to_json()["requests"] == []


def test_second_request_follows_the_first_and_answers_are_stored(tmp_path):
    s = tiny_session(tmp_path)
    s.do("roll", {"count": 1})
    s.answer([6])
    assert s.request is not None and s.request.profile == "d3"
    s.answer([2])
    assert s.to_json()["score"] == 8
    answered = [r.data["values"] for r in s.store.rows() if r.type == "RequestAnswered"]
    assert answered == [[6], [2]]


def test_answer_outside_the_profile_is_refused_and_changes_nothing(tmp_path):
    s = tiny_session(tmp_path)
    s.do("roll")
    before = log_rows(s)
    with pytest.raises(RuleError, match="7 is not a face of the d6"):
        s.answer([7])
    with pytest.raises(RuleError, match="needs 1 value"):
        s.answer([1, 2])
    assert log_rows(s) == before
    assert s.request is not None


def test_other_commands_wait_while_a_request_is_open(tmp_path):
    s = tiny_session(tmp_path)
    s.do("roll")
    with pytest.raises(RuleError, match="waiting for: Player: roll the d6"):
        s.do("add", {"n": 1})


def test_draw_request_takes_only_listed_cards(tmp_path):
    s = tiny_session(tmp_path)
    s.do("draw")
    with pytest.raises(RuleError, match="cannot be drawn"):
        s.answer("direwild/ai/standard-3")
    s.answer("tiny/token/silver")
    assert s.to_json()["hand"] == ["tiny/token/silver"]


def test_refused_command_leaves_log_and_state_unchanged(tmp_path):
    s = tiny_session(tmp_path)
    s.do("add", {"n": 2})
    before, state = log_rows(s), s.to_json()
    with pytest.raises(RuleError, match="positive"):
        s.do("add", {"n": 0})
    with pytest.raises(RuleError, match="has no command 'fly'"):
        s.do("fly")
    assert log_rows(s) == before
    assert s.to_json() == state


def test_undo_and_redo_survive_a_restart(tmp_path):
    s = tiny_session(tmp_path)
    s.do("add", {"n": 2})
    s.do("add", {"n": 3})
    s.undo()
    assert s.to_json()["score"] == 2
    s.close()
    s = Session.open(tmp_path / "t.session")
    assert s.to_json()["score"] == 2
    s.redo()
    assert s.to_json()["score"] == 5
    s.close()
    s = Session.open(tmp_path / "t.session")
    assert s.to_json()["score"] == 5
    with pytest.raises(RuleError, match="nothing to redo"):
        s.redo()


def test_new_command_after_undo_clears_redo(tmp_path):
    s = tiny_session(tmp_path)
    s.do("add", {"n": 2})
    s.undo()
    s.do("add", {"n": 7})
    with pytest.raises(RuleError, match="nothing to redo"):
        s.redo()
    assert s.to_json()["score"] == 7


def test_undo_of_an_answer_reopens_the_request(tmp_path):
    s = tiny_session(tmp_path)
    s.do("roll")
    s.answer([4])
    s.undo()
    assert s.request is not None and s.to_json()["score"] == 0
    s.undo()
    assert s.request is None
    with pytest.raises(RuleError, match="nothing to undo"):
        s.undo()


def test_correction_is_validated_against_the_state_shape(tmp_path):
    s = tiny_session(tmp_path)
    s.correct("names.a", 3)
    assert s.to_json()["names"]["a"] == 3
    with pytest.raises(RuleError, match="cannot be 'three'"):
        s.correct("score", "three")
    with pytest.raises(RuleError, match="no value 'nmes'|no 'nmes'"):
        s.correct("nmes.a", 1)
    with pytest.raises(RuleError, match="no value 'names.c'"):
        s.correct("names.c", 1)
    s.do("correct", {"path": "score", "value": 9})
    s.close()
    s = Session.open(tmp_path / "t.session")
    assert s.to_json()["score"] == 9 and s.to_json()["names"]["a"] == 3
    s.undo()
    assert s.to_json()["score"] == 0


def test_bad_setup_writes_no_file(tmp_path):
    with pytest.raises(RuleError, match="start must be"):
        tiny_session(tmp_path, start=-1)
    assert not (tmp_path / "t.session").exists()


def test_snapshot_resume_equals_full_fold(tmp_path, monkeypatch):
    monkeypatch.setattr(session_mod, "SNAPSHOT_EVERY", 10)
    s = tiny_session(tmp_path)
    for i in range(35):
        s.do("add", {"n": 1 + i % 3})
    s.undo()
    s.undo()
    live = s.to_json()
    s.close()
    assert Session.open(tmp_path / "t.session").to_json() == live
    snaps = Session.open(tmp_path / "t.session").store.snapshots()
    assert snaps, "snapshots were written"
    # a snapshot written by other rules is ignored, not trusted
    s = Session.open(tmp_path / "t.session")
    s.store.db.execute("UPDATE snapshots SET rules = 'tiny:0', state = 'garbage'")
    s.close()
    assert Session.open(tmp_path / "t.session").to_json() == live


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


@dataclass
class _Cond:
    stacks: int = 0
    turns: int = 1


@dataclass
class _CondState:
    conds: dict[str, _Cond] = field(default_factory=dict)


def test_partial_objects_keep_their_other_fields():
    """msgspec leaves omitted dataclass fields unset; the core must fill them in."""
    state = convert_state({"conds": {"bleeding": {"stacks": 2}}}, _CondState)
    assert msgspec.to_builtins(state) == {"conds": {"bleeding": {"stacks": 2, "turns": 1}}}
