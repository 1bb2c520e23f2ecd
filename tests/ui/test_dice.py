"""Dice reach the session through the hub: an in-memory source, then the simulated tray."""

from __future__ import annotations

import asyncio
import random

import pytest

from companion.core.library import Library
from companion.core.rules import Request, RuleError, request_words
from companion.games import get_game
from companion.table.assignments import Assignments
from companion.table.dice_answers import RequestAnswerer
from companion.table.dice_hub import DiceHub, simulated_dice_for
from companion.ui.panels.dice import keypad_faces
from hardware.simulated import DEFAULT_DICE, open_simulated_source
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
    tray, source = await open_simulated_source()
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
    assert hub.feed(source.event(2, die="mem:2")) == "Player: roll the d6 (to score): rolled 3"
    hub.attach(other)
    assert hub.assignments.roles == {}
    hub.attach(first)  # as when the session is opened again
    assert hub.assignments.roles == {"d6": ["mem:2"]}
    first.close()
    other.close()


def test_the_demo_rolls_the_dice_a_person_would_pick():
    def picked(profile, count=1, roles=None, for_=""):
        answerer = RequestAnswerer(None, Assignments(roles or {}))
        request = Request("dice", "why", for_, profile, count)
        return [d.id for d in simulated_dice_for(request, answerer, list(DEFAULT_DICE), "sim")]

    assert picked("d3") == ["1"]  # the Direwild d3 is a six-sided die
    assert picked("fate_d8") == ["4"]
    assert picked("skill_d10", 2) == ["5", "6"]
    assert picked("d6", 5) == ["1", "2", "3", "4", "5"]  # then bigger dice, read as d6
    assert picked("d6", 2, {"fate_d8": ["sim:1"]}) == ["2", "3"]  # die 1 plays another role
    assert picked("d6", 2, {"d6": ["sim:3"]}) == ["3", "3"]  # the only d6, rolled twice
    assert picked("skill_d10", 1, {"amara": ["sim:7"]}, "amara") == ["7"]  # her own die
    with pytest.raises(RuleError, match="has 7 free dice for a d6, not 8"):
        picked("d6", 8)
    with pytest.raises(RuleError, match="none of the dice assigned to this roll"):
        picked("d6", 1, {"d6": ["pixels:1"]})


async def test_the_demo_button_rolls_the_simulated_tray_through_its_port(session):
    hub = DiceHub()
    hub.tray_luck = random.Random(2026)  # throws 1 and 3: not two sixes, which ask for a d3 too
    hub.attach(session)
    await hub.start_simulated()
    try:
        assert [s.name for s in hub.sources] == ["sim-tray"]
        with pytest.raises(RuleError, match="nothing is waiting"):
            hub.roll_simulated()
        hub.assign("d6", ["sim-tray:2"])
        session.do("roll", {"count": 2})
        hub.roll_simulated()  # die 2, twice: it is the only d6 assigned
        await wait_for(lambda: session.request is None)
        rows = [r for tx in session.history() for r in tx if r.type == "RequestAnswered"]
        assert rows[0].data["by"] == "sim-tray" and len(session.state.last_roll) == 2
        assert hub.answerer.last.die_id == "sim-tray:2"
    finally:
        await hub.close()
    assert hub.simulated is None
