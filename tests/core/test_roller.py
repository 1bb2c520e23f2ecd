"""The virtual roller answers like a die would, and its answers are stored."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from companion.core.roller import virtual_answer
from companion.core.rules import Request, RuleError
from companion.core.session import Session
from tests.core.helpers import tiny_session


def test_d3_profile_lands_on_its_faces_evenly():
    rng = random.Random(1)
    counts = Counter(
        v for _ in range(3000) for v in virtual_answer(Request("dice", "x", profile="d3"), rng)
    )
    assert set(counts) == {1, 2, 3}
    assert all(900 < c < 1100 for c in counts.values())


def test_hex_faces_are_one_face_of_ten():
    rng = random.Random(2)
    values = [
        virtual_answer(Request("dice", "x", profile="skill_d10", count=2), rng) for _ in range(500)
    ]
    assert all(len(v) == 2 and all(1 <= x <= 10 for x in v) for v in values)


def test_a_draw_without_options_must_come_from_the_table():
    with pytest.raises(RuleError, match="draw the card from ai at the table"):
        virtual_answer(Request("draw", "x", deck="ai"))


def test_virtual_answers_are_stored_and_replay_without_rolling(tmp_path):
    s = tiny_session(tmp_path)
    s.do("roll", {"count": 2})
    rng = random.Random(3)
    while s.request is not None:
        s.answer(virtual_answer(s.request, rng), by="virtual roller")
    live = s.to_json()
    answers = [r.data for r in s.store.rows() if r.type == "RequestAnswered"]
    assert answers and all(a["by"] == "virtual roller" for a in answers)
    s.close()
    assert Session.open(tmp_path / "t.session").to_json() == live
