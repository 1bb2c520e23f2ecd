"""Dice reach the session through the hub: an in-memory source, then the simulated tray."""

from __future__ import annotations

import asyncio

import pytest

from companion.core.library import Library
from companion.games import get_game
from companion.ui.dice_hub import DiceHub
from companion.ui.panels.dice import keypad_faces, request_words
from hardware.source import ROLLING
from tests.ui.memsource import MemorySource


@pytest.fixture
def session(tmp_path):
    s = Library(tmp_path).new(get_game("tiny"))
    yield s
    s.close()


async def wait_for(check, timeout: float = 5.0) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not check():
        assert asyncio.get_running_loop().time() < deadline, "timed out"
        await asyncio.sleep(0.01)


def test_keypad_shows_each_face_as_the_die_shows_it():
    assert keypad_faces("d3") == [("1", 1), ("2", 2), ("3", 3)]
    assert keypad_faces("hex_d6")[-1] == ("hex", 6)
    assert keypad_faces("skill_d10")[0] == ("hex", 1)
    assert [label for label, _v in keypad_faces("fate_d8")] == ["hex", *map(str, range(2, 9))]


def test_request_in_words(session):
    session.do("roll", {"count": 2})
    assert request_words(session.request) == "Player: roll 2 x d6\nto score"


async def test_rolls_from_a_source_answer_the_request(session):
    changes = []
    hub = DiceHub(on_change=lambda: changes.append(1))
    hub.attach(session)
    source = MemorySource()
    hub.add(source)
    session.do("roll", {"count": 2})
    source.push(2, state=ROLLING)  # still tumbling: not an answer
    source.push(2)
    source.push(4, die="mem:2")
    await wait_for(lambda: session.request is None)
    assert session.state.last_roll == [3, 5]
    assert session.history()[-1][0].data["by"] == "test tray"
    assert hub.seen_dice == ["mem:1", "mem:2"]
    await wait_for(lambda: hub.batteries.get("test tray") == 80)
    source.status = "reconnecting"
    assert hub.alarm == "test tray reconnecting"
    await hub.close()
    assert source.status == "disconnected"


async def test_a_roll_with_nothing_asked_changes_nothing(session):
    hub = DiceHub()
    hub.attach(session)
    before = session.to_json()
    assert hub.feed(MemorySource().event(3)) is None
    assert session.to_json() == before


async def test_simulated_tray_answers_a_roll(session):
    simulated = pytest.importorskip("hardware.simulated")
    tray, source = await simulated.open_simulated_source()
    hub = DiceHub()
    hub.attach(session)  # no assignments: any die answers (the keypad-less default)
    hub.add(source)
    try:
        session.do("roll")
        tray.roll([3])
        await wait_for(lambda: session.request is None, timeout=10)
        assert session.state.last_roll == [4]
    finally:
        await hub.close()
        tray.stop()


async def test_assignments_are_the_sessions_own_and_decide_which_die_answers(tmp_path):
    library = Library(tmp_path)
    first, other = library.new(get_game("tiny")), library.new(get_game("tiny"))
    hub = DiceHub()
    hub.attach(first)
    hub.assign("d6", ["mem:2"])
    source = MemorySource()
    first.do("roll")
    assert hub.feed(source.event(0, die="mem:1")) is None  # not the d6's die
    assert first.request is not None
    assert hub.feed(source.event(2, die="mem:2")) == "player: roll d6 (to score): rolled 3"
    hub.attach(other)
    assert hub.assignments.roles == {}
    hub.attach(first)  # as when the session is opened again
    assert hub.assignments.roles == {"d6": ["mem:2"]}
    first.close()
    other.close()
