"""The engine on its own: commands, chance, undo/redo and corrections, each its own call,
folded back the same when the file is opened again."""

from __future__ import annotations

from dataclasses import dataclass, field

import msgspec
import pytest

from companion.core.rules import RuleError
from companion.core.session import Session
from companion.core.shape import convert_state
from tests.core.helpers import log_rows, tiny_session


def test_command_is_committed_and_folded_back(tmp_path):
    s = tiny_session(tmp_path)
    s.engine.do("add", {"n": 4})
    s.close()
    again = Session.open(tmp_path / "t.session")
    assert again.to_json()["score"] == 4


def test_dice_request_waits_in_the_state_until_answered(tmp_path):
    s = tiny_session(tmp_path)
    result = s.engine.do("roll", {"count": 2})
    assert result.request is not None and result.request.profile == "d6"
    assert s.engine.to_json()["requests"] == [
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
    assert s.engine.to_json()["score"] == 0
    s.close()
    s = Session.open(tmp_path / "t.session")  # the request survives a restart
    assert s.engine.request is not None and s.engine.request.count == 2
    s.engine.answer([2, 3])
    assert s.engine.to_json()["score"] == 5
    assert s.engine.to_json()["requests"] == []


def test_second_request_follows_the_first_and_answers_are_stored(tmp_path):
    s = tiny_session(tmp_path)
    s.engine.do("roll", {"count": 1})
    s.engine.answer([6])
    assert s.engine.request is not None and s.engine.request.profile == "d3"
    s.engine.answer([2])
    assert s.engine.to_json()["score"] == 8
    answered = [r.data["values"] for r in s.store.rows() if r.type == "RequestAnswered"]
    assert answered == [[6], [2]]


def test_answer_outside_the_profile_is_refused_and_changes_nothing(tmp_path):
    s = tiny_session(tmp_path)
    s.engine.do("roll")
    before = log_rows(s)
    with pytest.raises(RuleError, match="7 is not a face of the d6"):
        s.engine.answer([7])
    with pytest.raises(RuleError, match="needs 1 value"):
        s.engine.answer([1, 2])
    assert log_rows(s) == before
    assert s.engine.request is not None


def test_other_commands_wait_while_a_request_is_open(tmp_path):
    s = tiny_session(tmp_path)
    s.engine.do("roll")
    with pytest.raises(RuleError, match="waiting for: Player: roll the d6"):
        s.engine.do("add", {"n": 1})


def test_draw_request_takes_only_listed_cards(tmp_path):
    s = tiny_session(tmp_path)
    s.engine.do("draw")
    with pytest.raises(RuleError, match="cannot be drawn"):
        s.engine.answer("direwild/ai/standard-3")
    s.engine.answer("tiny/token/silver")
    assert s.engine.to_json()["hand"] == ["tiny/token/silver"]


def test_refused_command_leaves_log_and_state_unchanged(tmp_path):
    s = tiny_session(tmp_path)
    s.engine.do("add", {"n": 2})
    before, state = log_rows(s), s.engine.to_json()
    with pytest.raises(RuleError, match="positive"):
        s.engine.do("add", {"n": 0})
    with pytest.raises(RuleError, match="has no command 'fly'"):
        s.engine.do("fly")
    assert log_rows(s) == before
    assert s.engine.to_json() == state


def test_undo_and_redo_survive_a_restart(tmp_path):
    s = tiny_session(tmp_path)
    s.engine.do("add", {"n": 2})
    s.engine.do("add", {"n": 3})
    s.engine.undo()
    assert s.engine.to_json()["score"] == 2
    s.close()
    s = Session.open(tmp_path / "t.session")
    assert s.engine.to_json()["score"] == 2
    s.engine.redo()
    assert s.engine.to_json()["score"] == 5
    s.close()
    s = Session.open(tmp_path / "t.session")
    assert s.engine.to_json()["score"] == 5
    with pytest.raises(RuleError, match="nothing to redo"):
        s.engine.redo()


def test_new_command_after_undo_clears_redo(tmp_path):
    s = tiny_session(tmp_path)
    s.engine.do("add", {"n": 2})
    s.engine.undo()
    s.engine.do("add", {"n": 7})
    with pytest.raises(RuleError, match="nothing to redo"):
        s.engine.redo()
    assert s.engine.to_json()["score"] == 7


def test_undo_of_an_answer_reopens_the_request(tmp_path):
    s = tiny_session(tmp_path)
    s.engine.do("roll")
    s.engine.answer([4])
    s.engine.undo()
    assert s.engine.request is not None and s.engine.to_json()["score"] == 0
    s.engine.undo()
    assert s.engine.request is None
    with pytest.raises(RuleError, match="nothing to undo"):
        s.engine.undo()


def test_correction_is_validated_against_the_state_shape(tmp_path):
    s = tiny_session(tmp_path)
    s.engine.correct("names.a", 3)
    assert s.engine.to_json()["names"]["a"] == 3
    with pytest.raises(RuleError, match="cannot be 'three'"):
        s.engine.correct("score", "three")
    with pytest.raises(RuleError, match="no value 'nmes'|no 'nmes'"):
        s.engine.correct("nmes.a", 1)
    with pytest.raises(RuleError, match="no value 'names.c'"):
        s.engine.correct("names.c", 1)
    s.engine.correct("score", 9)
    s.close()
    s = Session.open(tmp_path / "t.session")
    assert s.engine.to_json()["score"] == 9 and s.engine.to_json()["names"]["a"] == 3
    s.engine.undo()
    assert s.engine.to_json()["score"] == 0


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


def test_the_tables_own_calls_are_not_game_commands(tmp_path):
    """Undo, answers and corrections are the engine's own calls, never a command name."""
    s = tiny_session(tmp_path)
    for name in ("undo", "answer", "correct", "check_card"):
        with pytest.raises(RuleError, match=f"has no command '{name}'"):
            s.engine.do(name)
