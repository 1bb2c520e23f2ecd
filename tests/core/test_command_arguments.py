"""Random details thrown at every command of every game, and random corrections (issue 26,
part 4).

Whatever a command is given, the session either refuses it in words (a RuleError, the
log and the state as they were) or applies it to a state of the declared shape, with
nothing stored that no table could mean: no number past the bounds, no list where the
rules list one name.  Never another exception.  The positions are reached by self-play,
so hero turns, battles and waiting rolls are among them.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.core.arguments import MAX_NUMBER, check_value, kind_of, listed_kinds
from companion.core.rules import RuleError
from companion.core.selfplay import play, random_answer
from companion.core.session import Session
from companion.core.shape import convert_state
from companion.games import get_game
from tests.core.helpers import log_rows

GAMES = ["tiny", "kradia", "direwild", "hexplore"]

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.integers(min_value=-3, max_value=12),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12),
    st.text(min_size=250, max_size=300),
)
values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)


def _position(game: str, steps: int, folder: Path) -> Session:
    """A session of `game` played at random for `steps`, with nothing waiting on chance."""
    path = folder / f"{game}-{steps}.session"
    packs = () if game == "tiny" else (["demo"],)
    s = Session.create(path, get_game(game), {}, *packs)
    s.store.db.execute("PRAGMA synchronous = OFF")  # a throw-away game needs no fsync
    play(s, seed=26, steps=steps)
    rng = random.Random(26)
    while (waiting := s.actions()["waiting"]) is not None:
        s.answer(random_answer(waiting, rng, s), by="test")
    return s


def _ints(value: Any) -> list[int]:
    if isinstance(value, bool):
        return []
    if isinstance(value, int):
        return [value]
    if isinstance(value, dict):
        return [i for v in value.values() for i in _ints(v)]
    if isinstance(value, list):
        return [i for v in value for i in _ints(v)]
    return []


def _listed_kinds(s: Session, name: str) -> dict[str, set[str]]:
    return listed_kinds(a for a in s.listed() if a["do"] == name)


def _throw(s: Session, data: st.DataObject) -> str:
    names = s.game.command_names()
    listed = [a for a in s.listed() if a["do"] != "answer"]
    name = data.draw(st.sampled_from(names), label="command")
    keys = sorted({k for a in listed if a["do"] == name for k in a["with"]})
    base: dict[str, Any] = {}
    same = [a for a in listed if a["do"] == name]
    from_listed: bool = data.draw(st.booleans(), label="start from a listed action")
    if same and from_listed:
        base = dict(data.draw(st.sampled_from(same), label="listed")["with"])
    for key in data.draw(
        st.lists(st.sampled_from([*keys, "target", "n", "hero", "zz"]), max_size=3), label="keys"
    ):
        base[key] = data.draw(values, label=key)
    kinds = _listed_kinds(s, name)
    before_log, before_state = log_rows(s), s.to_json()
    try:
        s.do(name, base)
    except RuleError as exc:
        assert isinstance(exc.message, str) and exc.message.strip(), name
        assert "Traceback" not in exc.message
        assert log_rows(s) == before_log and s.to_json() == before_state
        return "refused"
    # accepted: a state of the declared shape, and nothing stored no table could mean
    convert_state(msgspec.to_builtins(s.state), s.game.state_type)
    assert all(abs(i) <= 10**9 for i in _ints(s.to_json())), (name, base)
    stored = [r for r in log_rows(s)[len(before_log) :] if r[2] == "CommandIssued"]
    for row in stored:
        args = row[3]["args"]
        check_value(args, f"{name}'s details")
        for key, value in args.items():
            if value is not None and kinds.get(key) and row[3]["name"] == name:
                assert kind_of(value) in kinds[key] or (
                    kind_of(value) == "a whole number" and "a number with a fraction" in kinds[key]
                ), (name, key, value, kinds[key])
    while log_rows(s) != before_log and s.chain.alive[-1] >= 1 and len(s.chain.alive) > 1:
        if s.to_json() == before_state and not s.request:
            break
        s.undo()
    return "applied"


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("steps", [0, 25, 60])
def test_random_details_are_refused_in_words_or_applied_cleanly(game, steps, tmp_path):
    s = _position(game, steps, tmp_path)
    seen: dict[str, int] = {"refused": 0, "applied": 0}

    @settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))
    @given(data=st.data())
    def throw(data: st.DataObject) -> None:
        seen[_throw(s, data)] += 1

    try:
        throw()
    finally:
        s.close()
    print(f"{game} after {steps} steps: {seen}")
    assert seen["refused"] > 0


@pytest.mark.parametrize("game", GAMES)
def test_random_corrections_are_refused_in_words_or_applied_cleanly(game, tmp_path):
    s = _position(game, 25, tmp_path)
    fields = [p for p in _paths(s.to_json()) if not p.startswith(("requests", "actions"))]

    @settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))
    @given(path=st.sampled_from(fields), value=values)
    def correct(path: str, value: Any) -> None:
        before_log, before_state = log_rows(s), s.to_json()
        try:
            s.correct(path, value)
        except RuleError as exc:
            assert exc.message.strip()
            assert log_rows(s) == before_log and s.to_json() == before_state
            return
        assert all(abs(i) <= MAX_NUMBER for i in _ints(value)), (path, value)
        convert_state(msgspec.to_builtins(s.state), s.game.state_type)
        s.undo()
        assert s.to_json() == before_state

    try:
        correct()
    finally:
        s.close()


def _paths(value: Any, prefix: str = "", depth: int = 0) -> list[str]:
    out = [prefix] if prefix else []
    if isinstance(value, dict) and depth < 3:
        for key, item in value.items():
            if isinstance(key, str) and "." not in key:
                out += _paths(item, f"{prefix}.{key}" if prefix else key, depth + 1)
    return out


def test_the_issues_two_values_are_refused_in_words(tmp_path):
    """`do correct` with boss HP 10^29 and `use_item` with a list as target (issue 26)."""
    s = Session.create(tmp_path / "k.session", get_game("kradia"), {}, ["demo"])
    s.store.db.execute("PRAGMA synchronous = OFF")
    with pytest.raises(RuleError, match="numbers here go up to 9999"):
        s.correct("boss.hp", 10**29)
    for seed in range(60):  # on to a hero's turn with an item to use
        if any(a["do"] == "use_item" for a in s.listed()):
            break
        play(s, seed=seed, steps=3)
    use = next(a for a in s.listed() if a["do"] == "use_item")
    before = log_rows(s)
    words = r"'use item' (takes a name or text as its target, not a list|does not use target here)"
    with pytest.raises(RuleError, match=words):
        s.do("use_item", {**use["with"], "target": [use["with"].get("target", "x"), "y"]})
    assert log_rows(s) == before
    s.close()
