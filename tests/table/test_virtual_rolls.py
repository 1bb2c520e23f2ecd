"""The virtual roller answers like any source, and a replay never rolls again."""

from __future__ import annotations

import asyncio
import random

import pytest

from companion.core.library import Library
from companion.core.rules import RuleError
from companion.table.dice_answers import roll_virtually
from hardware.virtual import VirtualRoller


async def test_virtual_roller_answers_and_the_answer_is_stored(tiny_session, tmp_path):
    roller = VirtualRoller(random.Random(7))
    tiny_session.do("roll", {"count": 3})
    message = roll_virtually(tiny_session, roller)
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


def test_nothing_to_answer(tiny_session):
    with pytest.raises(RuleError, match="nothing is waiting"):
        roll_virtually(tiny_session)
