"""HEXplore through the real session: save-file round trips, undo, and plain-word refusals."""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest

from companion.core.rules import RuleError
from companion.core.session import Session
from companion.games import get_game
from companion.games.hexplore.state import HexploreState

HEROES = [
    {"id": "stormcaller", "hero": "stormcaller-sprite"},
    {"id": "keeper", "hero": "verdant-keeper-wood-elf"},
]


def _villagers_round(tmp_path: Path) -> Session:
    s = Session.create(
        tmp_path / "g.session", get_game("hexplore"), {"difficulty": "easy", "heroes": HEROES}
    )
    s.do("start_combat", {"opponent": "mindwiped-villagers"})
    s.do(
        "declare",
        {
            "hero": "stormcaller",
            "action": "mastery",
            "amount": 10,
            "vital": "energy",
            "inflicts": {"drained": 2},
        },
    )
    s.do("declare", {"hero": "keeper", "action": "mastery", "amount": 8})
    s.do("opponent_action")
    s.answer([4])
    return s


def test_state_round_trips_strictly(tmp_path: Path) -> None:
    s = _villagers_round(tmp_path)
    s.do("resolve_round")
    data = msgspec.to_builtins(s.state)
    assert msgspec.convert(data, HexploreState, strict=True) == s.state
    s.close()


def test_reopening_the_file_gives_the_same_table(tmp_path: Path) -> None:
    s = _villagers_round(tmp_path)
    s.do("resolve_round")
    before = s.to_json()
    s.close()
    with Session.open(tmp_path / "g.session") as again:
        assert again.to_json() == before
        assert again.state.combat.opponent.soul_shield == 0


def test_undo_takes_back_the_opponent_action_and_its_energy(tmp_path: Path) -> None:
    s = _villagers_round(tmp_path)
    assert s.state.combat.opponent.energy == 13
    s.undo()  # the answer
    s.undo()  # the command
    assert s.state.combat.opponent.energy == 14
    assert s.state.combat.last_action is None and s.request is None
    s.close()


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"heroes": HEROES, "difficulty": "nightmare"}, "difficulty must be one of"),
        ({"heroes": HEROES, "play_style": "speedrun"}, "play_style must be one of"),
        ({"heroes": []}, "name 1 to 6 heroes"),
        ({"heroes": [{"id": "Bad Name"}]}, "lower case"),
        ({"heroes": [{"id": "a", "hero": "nobody"}]}, "no hero 'nobody'"),
        ({"heroes": [{"id": "a", "health": 3}]}, "say the hero's energy rank"),
        ({"heroes": [*HEROES, {"id": "keeper", "hero": "stormcaller-sprite"}]}, "two heroes"),
    ],
)
def test_bad_setups_are_refused_in_words(tmp_path: Path, options, words) -> None:
    with pytest.raises(RuleError) as err:
        Session.create(tmp_path / "x.session", get_game("hexplore"), options)
    assert words in err.value.message
    assert not (tmp_path / "x.session").exists()


def test_a_refused_command_changes_nothing(tmp_path: Path) -> None:
    s = _villagers_round(tmp_path)
    before = s.to_json()
    with pytest.raises(RuleError, match="not now"):
        s.do("declare", {"hero": "keeper", "action": "attack"})
    with pytest.raises(RuleError, match="no hero 'nobody'"):
        s.do("roll_skills", {"hero": "nobody"})
    assert s.to_json() == before
    s.close()


def test_summary_names_the_turn_cycle_and_fight(tmp_path: Path) -> None:
    s = _villagers_round(tmp_path)
    assert get_game("hexplore").summary(s.state) == (
        "Turn 1, Fate Cycle 0 (0), fighting Mindwiped Villagers! (round 1)"
    )
    s.close()
