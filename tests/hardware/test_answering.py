"""RequestAnswerer against a real session of the tiny test game."""

from __future__ import annotations

from hardware.answering import RequestAnswerer
from hardware.assignments import Assignments
from hardware.source import RollEvent


def ev(die, face, state="settled", seq=1, source="tray"):
    return RollEvent(die, face, state, 0.0, seq, source)


def test_nothing_asked_nothing_answered(tiny_session):
    answerer = RequestAnswerer(tiny_session)
    assert answerer.feed(ev("tray:1", 2)) is None
    assert len(tiny_session.history()) == 1


def test_assigned_die_answers_through_the_profile(tiny_session):
    tiny_session.do("roll", {"count": 1})
    answerer = RequestAnswerer(tiny_session, Assignments({"d6": ["tray:2"]}))
    assert answerer.feed(ev("tray:1", 5)) is None  # not the d6's die
    message = answerer.feed(ev("tray:2", 5))
    assert message == "Player: roll the d6 (to score): rolled 6"
    # all sixes: the tiny game now asks for the d3 bonus
    assert tiny_session.request.profile == "d3"


def test_d3_reads_its_six_faces(tiny_session):
    tiny_session.do("roll", {"count": 1})
    answerer = RequestAnswerer(tiny_session, Assignments({"d6": ["a"], "d3": ["b"]}))
    answerer.feed(ev("a", 5))
    assert answerer.feed(ev("b", 4)) == "Player: roll the d3 (bonus for all sixes): rolled 2"
    assert (answerer.last.die_id, answerer.last.face_index, answerer.last.value) == ("b", 4, 2)
    assert tiny_session.state.score == 6 + 2


def test_crooked_asks_for_a_reroll_and_records_nothing(tiny_session):
    tiny_session.do("roll", {"count": 1})
    answerer = RequestAnswerer(tiny_session)
    assert answerer.feed(ev("tray:1", 2, "crooked")) == "tray:1 landed crooked: roll it again"
    assert tiny_session.request is not None
    assert answerer.feed(ev("tray:1", 2, seq=2)) is not None
    assert tiny_session.state.last_roll == [3]


def test_face_the_profile_lacks_is_rejected(tiny_session):
    tiny_session.do("roll", {"count": 1})
    answerer = RequestAnswerer(tiny_session)
    message = answerer.feed(ev("tray:5", 9))
    assert message.startswith("tray:5 reported face 10, but the d6 has only 6 faces")
    assert tiny_session.request is not None and len(tiny_session.history()) == 2


def test_two_dice_one_value_each_and_a_reroll_replaces(tiny_session):
    tiny_session.do("roll", {"count": 2})
    answerer = RequestAnswerer(tiny_session, Assignments({"d6": ["a", "b"]}))
    assert answerer.feed(ev("a", 0)) is None
    assert answerer.feed(ev("a", 0, "rolling", seq=2)) is None  # a is rolled again
    assert answerer.feed(ev("a", 1, seq=2)) is None
    assert answerer.feed(ev("b", 2)) is not None
    assert tiny_session.state.last_roll == [2, 3]


def test_one_die_rolled_twice_when_it_is_the_only_one(tiny_session):
    tiny_session.do("roll", {"count": 2})
    answerer = RequestAnswerer(tiny_session, Assignments({"d6": ["a"]}))
    assert answerer.feed(ev("a", 0, seq=1)) is None
    assert answerer.feed(ev("a", 3, seq=2)) is not None
    assert tiny_session.state.last_roll == [1, 4]


def test_the_only_die_rolled_again_keeps_its_first_result(tiny_session):
    """A tray reports each roll as rolling, then settled: the second roll's tumbling must
    not throw away the first roll's result, nor a crooked landing the results before it."""
    tiny_session.do("roll", {"count": 3})
    answerer = RequestAnswerer(tiny_session, Assignments({"d6": ["a"]}))
    assert answerer.feed(ev("a", -1, "rolling", seq=1)) is None
    assert answerer.feed(ev("a", 1, seq=1)) is None
    assert answerer.feed(ev("a", -1, "rolling", seq=2)) is None
    assert answerer.feed(ev("a", 4, "crooked", seq=2)) == "a landed crooked: roll it again"
    assert answerer.feed(ev("a", -1, "rolling", seq=3)) is None
    assert answerer.feed(ev("a", 4, seq=3)) is None
    assert answerer.feed(ev("a", 5, seq=4)) is not None
    assert tiny_session.state.last_roll == [2, 5, 6]


def test_duplicates_are_ignored(tiny_session):
    tiny_session.do("roll", {"count": 2})
    answerer = RequestAnswerer(tiny_session, Assignments({"d6": ["a"]}))
    answerer.feed(ev("a", 0, seq=1))
    assert answerer.feed(ev("a", 0, seq=1)) is None
    assert tiny_session.request is not None


def test_die_with_another_role_does_not_answer(tiny_session):
    tiny_session.do("roll", {"count": 1})
    answerer = RequestAnswerer(tiny_session, Assignments({"fate_d8": ["f"]}), {"x": 8})
    assert answerer.feed(ev("f", 1)) is None
    assert answerer.feed(ev("x", 1)) is None  # eight faces: not a d6
    assert answerer.feed(ev("y", 1)) is not None  # faces unknown: any free die


def test_hero_roles_by_skill_named_in_why():
    from companion.core.rules import Request

    a = Assignments({"amara:might": ["m"], "amara:wits": ["w"], "fate_d8": ["f"]})
    answerer = RequestAnswerer(None, a)
    assert answerer.eligible(Request("dice", "Might test", "amara", "skill_d10")) == ["m"]
    assert answerer.eligible(Request("dice", "skill", "amara", "skill_d10")) == ["m", "w"]
    assert answerer.eligible(Request("dice", "fate", "", "fate_d8")) == ["f"]
    assert answerer.eligible(Request("dice", "x", "", "d6")) is None


def test_timeout_offers_on_screen_entry_once(tiny_session):
    now = [100.0]
    answerer = RequestAnswerer(tiny_session, timeout=20, clock=lambda: now[0])
    tiny_session.do("roll", {"count": 1})
    assert answerer.overdue() is None
    now[0] += 21
    assert "enter the roll on screen" in answerer.overdue()
    assert answerer.overdue() is None


def test_assignments_persist_per_session(tmp_path):
    a = Assignments(session_id="s1")
    a.assign("d3", ["tray:1"])
    a.assign("fate_d8", ["tray:4", "tray:1"])  # tray:1 moves to the fate role
    a.save()
    b = Assignments.load("s1")
    assert b.roles == {"fate_d8": ["tray:4", "tray:1"]}
    assert Assignments.load("other").roles == {}


def test_unreadable_assignments_start_afresh(caplog):
    from hardware.assignments import assignments_file

    assignments_file("broken").write_text("{not json")
    assert Assignments.load("broken").roles == {}
    assert "could not be read" in caplog.text
