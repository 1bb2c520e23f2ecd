"""The fourth game of docs/adding-a-game.md, played through the real session core: the
skeleton the walk-through shows is a game the app can run, and its examples cannot rot."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path

import msgspec
import pytest

from companion.content.pack import Content
from companion.core.registry import register_game, unregister_game
from companion.core.rules import RuleError
from companion.core.session import Session
from tests.fourth_game import GAME
from tests.fourth_game.schema import Track


@pytest.fixture
def race(tmp_path: Path) -> Iterator[Session]:
    register_game(GAME)
    track = Track(id="dash/tracks/short", length=5)
    content = Content("dash", items={"tracks": {track.id: track}})
    try:
        with Session.create(
            tmp_path / "race.session", GAME, {"track": track.id}, content=content
        ) as session:
            yield session
    finally:
        unregister_game(GAME.id)


def test_runners_take_turns_and_the_first_to_the_finish_wins(race: Session) -> None:
    assert race.actions()["actions"] == [
        {"do": "run", "with": {"runner": "runner1"}, "label": "runner1 runs", "primary": True}
    ]
    with pytest.raises(RuleError, match="runner1's turn"):
        race.do("run", {"runner": "runner2"})
    for runner, roll in [("runner1", 3), ("runner2", 1), ("runner1", 4)]:
        race.do("run", {"runner": runner})
        race.answer([roll])
    assert race.state.square == {"runner1": 5, "runner2": 1}
    assert race.actions() == {"actions": [], "waiting": None, "outcome": "won"}
    assert race.state.winner == "runner1"
    with pytest.raises(RuleError, match=r"^the race is over \(race won\)$"):
        race.do("run", {"runner": "runner2"})  # the core's refusal: Dash checks no outcome


def test_every_listed_action_converts_to_its_commands_typed_details(race: Session) -> None:
    """The listing (the wire form) and each command's `CommandArgs` can never drift: a
    whole race of listed actions, every one's `with` converted strictly."""
    rng = random.Random(5)
    while race.state.outcome is None:
        actions = race.actions()["actions"]
        for action in actions:
            declared = GAME.commands.args_type(action["do"])
            assert declared is not None, f"{action['do']} takes untyped details"
            msgspec.convert(action["with"], declared, strict=True)
        race.do(actions[0]["do"], actions[0]["with"])
        race.answer([rng.randint(1, 6)])
    assert race.state.winner is not None


def test_a_track_too_short_to_race_on_is_a_problem_of_the_pack() -> None:
    content = Content(
        "dash", items={"tracks": {"dash/tracks/x": Track(id="dash/tracks/x", length=1)}}
    )
    assert GAME.validate_content(content) == [("dash/tracks/x", "a track needs 2 squares or more")]


def test_bad_set_up_is_refused_in_words() -> None:
    with pytest.raises(RuleError, match="runners must be 2, 3 or 4"):
        GAME.initial_state({"runners": 5}, Content("dash"))


DOC = Path(__file__).resolve().parents[2] / "docs" / "adding-a-game.md"
SHOWN = re.compile(r"^\*\*(tests/fourth_game/\w+\.py)\*\*\n\n```python\n(.*?)^```$", re.M | re.S)


def test_the_walk_through_shows_each_file_as_it_is() -> None:
    shown = dict(SHOWN.findall(DOC.read_text(encoding="utf-8")))
    here = Path(__file__).resolve().parent
    files = {f"tests/fourth_game/{p.name}" for p in here.glob("*.py")}
    assert set(shown) == files - {"tests/fourth_game/__init__.py", "tests/fourth_game/test_dash.py"}
    root = here.parents[1]
    for path, text in shown.items():
        assert (root / path).read_text(encoding="utf-8") == text, f"{path} is not as the doc shows"
