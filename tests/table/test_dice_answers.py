"""RequestAnswerer against a real session of the tiny test game."""

from __future__ import annotations

import json

from companion.core.rules import Request
from companion.table.assignments import (
    Assignments,
    assignments_file,
    key_words,
    keys_for,
    names_in,
)
from companion.table.dice_answers import RequestAnswerer
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
    assert (
        answerer.feed(ev("tray:1", 2, "crooked"))
        == "tray:1 landed crooked or was set down by hand: roll it again"
    )
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
    assert (
        answerer.feed(ev("a", 4, "crooked", seq=2))
        == "a landed crooked or was set down by hand: roll it again"
    )
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


def dice(who, role="", profile="skill_d10", why="Navigate (rank 3)"):
    return Request("dice", why, who, profile, role=role)


def test_each_kind_of_key_claims_its_rolls_most_specific_first():
    a = Assignments(
        {
            "amara:skill:navigate": ["nav"],
            "amara:skill_d10": ["amara-d10"],
            "amara": ["amara-any"],
            "skill_d10": ["d10"],
            "fate_d8": ["f"],
        }
    )
    assert a.claiming(dice("amara", "skill:navigate")) == ["nav"]  # who:role
    assert a.claiming(dice("amara", "skill:survival")) == ["amara-d10"]  # who:profile
    assert a.claiming(dice("amara", "wake", "hex_d6")) == ["amara-any"]  # who
    assert a.claiming(dice("bryn", "skill:navigate")) == ["d10"]  # profile
    assert a.claiming(dice("group", "vanish", "fate_d8")) == ["f"]
    assert a.claiming(dice("", "", "d6")) is None  # nothing claims it: any free die
    a.assign("amara", [])  # each fallback in turn once the finer key has no dice
    assert a.claiming(dice("amara", "wake", "hex_d6")) is None
    a.assign("amara:skill_d10", [])
    assert a.claiming(dice("amara", "skill:survival")) == ["d10"]


def test_the_words_of_a_request_never_choose_its_dice():
    a = Assignments({"amara:skill:might": ["m"], "amara:skill:wits": ["w"]})
    worded = dice("amara", "skill:wits", why="Might test (the Might die, surely?)")
    assert a.claiming(worded) == ["w"]
    assert a.claiming(dice("amara", "", why="might")) is None
    assert keys_for(dice("amara", "skill:wits")) == [
        "amara:skill:wits",
        "amara:skill_d10",
        "amara",
        "skill_d10",
    ]
    assert keys_for(dice("", "wander", "hex_d6")) == ["hex_d6"]


def test_a_die_claimed_by_a_role_answers_only_that_role(tiny_session):
    """The tiny game's d6 roll is ("player", "score", "d6"), its d3 ("player", "bonus", "d3")."""
    tiny_session.do("roll", {"count": 1})
    answerer = RequestAnswerer(tiny_session, Assignments({"player:score": ["s"], "d3": ["b"]}))
    assert answerer.feed(ev("b", 5)) is None  # the d3's die
    assert answerer.feed(ev("x", 5)) is None  # free, but the role has its own die
    assert answerer.feed(ev("s", 5)) is not None  # a six: the game asks for the bonus d3
    assert tiny_session.request.profile == "d3" and tiny_session.request.role == "bonus"
    assert answerer.feed(ev("s", 1, seq=2)) is None  # it plays the score role only
    assert answerer.feed(ev("b", 1, seq=2)) == "Player: roll the d3 (bonus for all sixes): rolled 2"


def test_key_words_name_the_player_and_the_roll():
    asked = Request("dice", "why", "giant_fox", "d3", role="battle", who="the Giant Fox")
    assert names_in(asked) == {"giant_fox": "the Giant Fox"}  # the rules' own name
    assert key_words("giant_fox:battle", names_in(asked)) == "the Giant Fox: battle"
    assert key_words("giant_fox:battle") == "Giant Fox: battle"  # unnamed: the id as words
    assert key_words("stormbringer:battle") == "Stormbringer: battle"
    assert key_words("amara:skill:navigate") == "Amara: skill: navigate"
    assert key_words("amara:skill_d10") == "Amara: any skill d10"
    assert key_words("amara") == "Amara: any roll"
    assert key_words("fate_d8") == "any fate d8"


def test_timeout_offers_on_screen_entry_once(tiny_session):
    now = [100.0]
    answerer = RequestAnswerer(tiny_session, timeout=20, clock=lambda: now[0])
    tiny_session.do("roll", {"count": 1})
    assert answerer.overdue() is None
    now[0] += 21
    assert "enter the roll on screen" in answerer.overdue()
    assert answerer.overdue() is None


def test_assignments_persist_per_session(tmp_path):
    a = Assignments(session_id="s1", data_home=tmp_path)
    a.assign("d3", ["tray:1"])
    a.assign("fate_d8", ["tray:4", "tray:1"])  # tray:1 moves to the fate role
    a.save()
    b = Assignments.load("s1", tmp_path)
    assert b.roles == {"fate_d8": ["tray:4", "tray:1"]}
    assert json.loads(assignments_file(tmp_path, "s1").read_text())["version"] == 2
    assert Assignments.load("other", tmp_path).roles == {}


def test_old_assignments_are_read_with_their_keys_migrated(tmp_path):
    """Before structured roles a file had no version and "<hero>:<skill>" keys (as the
    CLI's help said) that matched a skill named in the request's words."""
    assignments_file(tmp_path, "old").write_text(
        json.dumps(
            {
                "roles": {
                    "d3": ["a"],
                    "amara:skill_d10": ["b"],
                    "amara:navigate": ["c"],
                    "bryn:survival": ["d", "e"],
                }
            }
        )
    )
    old = Assignments.load("old", tmp_path)
    assert old.roles == {
        "d3": ["a"],
        "amara:skill_d10": ["b"],
        "amara:skill:navigate": ["c"],
        "bryn:skill:survival": ["d", "e"],
    }
    assert old.claiming(dice("amara", "skill:navigate")) == ["c"]
    assert old.claiming(dice("amara", "skill:explore")) == ["b"]
    old.save()  # written back in today's form, read back the same
    assert Assignments.load("old", tmp_path).roles == old.roles
    assert json.loads(assignments_file(tmp_path, "old").read_text())["version"] == 2


def test_unreadable_or_newer_assignments_start_afresh(caplog, tmp_path):
    assignments_file(tmp_path, "broken").write_text("{not json")
    assert Assignments.load("broken", tmp_path).roles == {}
    assignments_file(tmp_path, "newer").write_text('{"version": 3, "roles": {"d6": ["a"]}}')
    assert Assignments.load("newer", tmp_path).roles == {}
    assert caplog.text.count("could not be read") == 2
