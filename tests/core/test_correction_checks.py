"""Corrections the rules could not play on from are refused in words (issue 17, finding 5).

For every game: a session played through one of its own scenarios, then any path of its
state corrected to a value of the right type (ids of the content, nonsense text, numbers
in and out of range), then play goes on with commands from the game's scenarios.  A
correction is either refused with a RuleError, or every later command is accepted or
refused in words: never a KeyError or any other crash.
"""

from __future__ import annotations

import random
import shutil
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from companion.core.rules import RuleError
from companion.core.session import Session
from companion.scenario.file import parse
from companion.scenario.runner import StepFailed, run_step, start
from tests.core.helpers import tiny_session

ROOT = Path(__file__).resolve().parents[2]
GAMES = ("direwild", "kradia", "hexplore")
PLAY_ON = 8


def _leaves(value: Any, path: str = "") -> list[tuple[str, Any]]:
    out = [(path, value)] if path else []
    if isinstance(value, dict):
        for k, v in value.items():
            out += _leaves(v, f"{path}.{k}" if path else str(k))
    elif isinstance(value, list):
        for i, v in enumerate(value[:4]):
            out += _leaves(v, f"{path}.{i}")
    return out


def _scenarios(game: str) -> list[Path]:
    return sorted((ROOT / "tests" / "scenarios" / game).glob("*.yaml"))


class Played:
    """One game's session played through its longest scenario, and its command pool."""

    def __init__(self, game: str, folder: Path) -> None:
        files = _scenarios(game)
        pool: list[tuple[str, dict, list, list]] = []
        for f in files:
            for step in parse(f).steps:
                if step.do and step.refused is None:
                    pool.append((step.do, dict(step.args), list(step.dice), list(step.cards)))
        self.pool = pool
        longest = max(files, key=lambda f: len(parse(f).steps))
        scenario = parse(longest)
        session = start(scenario, folder)
        for step in scenario.steps:
            try:
                run_step(session, step)
            except StepFailed:
                break
        self.path = session.path
        self.paths = _leaves({k: v for k, v in session.to_json().items() if k != "requests"})
        self.ids = sorted({i for items in session.content.items.values() for i in items})
        session.close()


_PLAYED: dict[str, Played] = {}


def _played(game: str, tmp_factory) -> Played:
    if game not in _PLAYED:
        _PLAYED[game] = Played(game, tmp_factory.mktemp(game))
    return _PLAYED[game]


def _value_like(old: Any, ids: list[str]) -> st.SearchStrategy:
    if isinstance(old, bool):
        return st.booleans()
    if isinstance(old, int):
        return st.integers(-3, 40)
    if isinstance(old, float):
        return st.floats(-3, 40, allow_nan=False)
    if isinstance(old, str):
        return st.sampled_from([*ids, "nonsense", "", old.upper() or "x"])
    if isinstance(old, list):
        return st.lists(st.sampled_from([*ids[:5], "nonsense"]), max_size=3) | st.just([])
    if isinstance(old, dict):
        return st.just({})
    return st.sampled_from([None, "nonsense", 3])


def _answer(session: Session, rng: random.Random, dice: list, cards: list) -> Any:
    request = session.request
    if request.kind == "dice":
        faces = list(getattr(request, "faces", ()) or range(1, 7))
        return [rng.choice(faces) for _ in range(request.count)]
    options = list(request.options or cards or ["nonsense"])
    return rng.choice(options)


def _play_on(session: Session, pool: list, rng: random.Random) -> None:
    for _ in range(PLAY_ON):
        name, args, dice, cards = rng.choice(pool)
        try:
            if session.request is None:
                session.do(name, args)
            for _ in range(6):
                if session.request is None:
                    break
                session.answer(_answer(session, rng, dice, cards))
        except RuleError:
            continue


@pytest.mark.parametrize("game", GAMES)
@settings(
    max_examples=30,
    deadline=None,
    derandomize=True,
    phases=(Phase.explicit, Phase.reuse, Phase.generate, Phase.shrink),
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_a_correction_is_refused_in_words_or_play_goes_on(game, tmp_path_factory, data):
    played = _played(game, tmp_path_factory)
    path, old = data.draw(st.sampled_from(played.paths), label="path")
    value = data.draw(_value_like(old, played.ids), label="value")
    copy = tmp_path_factory.mktemp("c") / "c.session"
    shutil.copyfile(played.path, copy)
    with Session.open(copy) as session:
        try:
            session.correct(path, value)
        except RuleError as exc:
            assert exc.message and "Traceback" not in exc.message
            return
        _play_on(session, played.pool, random.Random(data.draw(st.integers(0, 10**6))))


def test_an_id_that_names_no_content_is_refused(tmp_path):
    s = tiny_session(tmp_path)
    s.do("draw")
    card = s.request.options[0]
    s.answer(card)
    with pytest.raises(RuleError, match="hand.0 cannot be 'nonsense': it must name one of"):
        s.correct("hand.0", "nonsense")
    s.correct("hand.0", s.content.ids("tokens")[-1])  # another token is fine
    s.do("add", {"n": 1})
    s.close()


def test_kradia_boss_id_nonsense_is_refused_and_play_goes_on(tmp_path):
    files = _scenarios("kradia")
    scenario = parse(files[0])
    session = start(scenario, tmp_path)
    before = session.to_json()
    with pytest.raises(RuleError, match="boss.id cannot be 'nonsense'"):
        session.correct("boss.id", "nonsense")
    assert session.to_json() == before
    session.close()
