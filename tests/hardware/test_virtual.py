"""The virtual roller answers like any source, and a replay never rolls again."""

from __future__ import annotations

import asyncio
import random

import pytest

from companion.core.library import Library
from companion.core.roller import virtual_answer
from companion.core.rules import DIE_FACES, Request, RuleError
from hardware.virtual import VirtualRoller


async def test_virtual_roller_answers_and_the_answer_is_stored(tiny_session, tmp_path):
    roller = VirtualRoller(random.Random(7))
    tiny_session.do("roll", {"count": 3})
    message = roller.answer(tiny_session)
    rolled = tiny_session.state.last_roll
    assert len(rolled) == 3 and all(1 <= v <= 6 for v in rolled)
    assert message.startswith("Player: roll 3 x d6 (to score): rolled ")
    assert tiny_session.history()[-1][0].data["by"] == "virtual roller"
    # the stream shows each die rolling, then settled with its value
    it = roller.rolls().__aiter__()
    events = [await asyncio.wait_for(it.__anext__(), 1) for _ in range(6)]
    assert [e.value for e in events if e.state == "settled"] == rolled
    # replaying the log gives the same state: nothing is rolled again
    path = tiny_session.path
    tiny_session.close()
    with Library(path.parent).open(path.stem) as again:
        assert again.state.last_roll == rolled


def test_virtual_roller_uses_the_profile_faces():
    roller = VirtualRoller(random.Random(1))
    values = {e.value for _ in range(200) for e in roller.roll("d3")}
    assert values == {1, 2, 3}
    with pytest.raises(RuleError, match="the virtual roller has no d7"):
        roller.roll("d7")


def test_values_are_chosen_by_the_core_roller():
    """One way of choosing values: the source's dice are the core roller's, face for face."""
    request = Request("dice", "", profile="skill_d10", count=5)
    rolled = VirtualRoller(random.Random(11)).roll("skill_d10", 5)
    assert [e.value for e in rolled] == virtual_answer(request, random.Random(11))
    assert [DIE_FACES["skill_d10"][e.face_index][1] for e in rolled] == [e.value for e in rolled]


def test_nothing_to_answer(tiny_session):
    with pytest.raises(RuleError, match="nothing is waiting"):
        VirtualRoller().answer(tiny_session)
