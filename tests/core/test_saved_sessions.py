"""Sessions saved by earlier releases open to the same state in this one.

The fixtures in tests/fixtures/sessions/ were written by `tests/fixtures/sessions/make.py`
(one per game and release, with undo, redo, a correction and a snapshot), each with the state
it folded to when it was released.  Those files are never edited afterwards (their hashes are
in `RELEASED.sha256`): a later release that adds a field to a game's state reads the saved
state with today's state type, which gives the new field its default, exactly as the old log
folds today (an event the old release never wrote leaves the field at its default).  A change
to an event, a handler or the fold that would make an old save read differently fails here.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import shutil
from pathlib import Path
from typing import Any

import msgspec
import pytest

from companion.core.session import Session
from companion.games import get_game
from tests.fixtures.released import in_release_words

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "sessions"
SAVED = sorted(FIXTURES.glob("*.session"))
RELEASED = FIXTURES / "RELEASED.sha256"


def with_defaults(value: Any) -> Any:
    """Every dataclass field set on its instance: msgspec leaves a field the JSON lacks to
    its class default, which `to_builtins` then leaves out."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            setattr(value, f.name, with_defaults(getattr(value, f.name)))
    elif isinstance(value, dict):
        for key in value:
            value[key] = with_defaults(value[key])
    elif isinstance(value, list):
        value[:] = [with_defaults(v) for v in value]
    return value


def saved_state_read_today(saved: Path) -> dict[str, Any]:
    """The state a release saved beside its session, as this release's state type reads it."""
    text = saved.with_suffix(".state.json").read_bytes()
    game = get_game(saved.stem.rsplit("-", 1)[0])
    state = with_defaults(msgspec.json.decode(text, type=game.state_type))
    out: dict[str, Any] = msgspec.to_builtins(state)
    out["requests"] = json.loads(text)["requests"]
    return out


def opened_and_saved(saved: Path, session: Session) -> tuple[dict[str, Any], dict[str, Any]]:
    """The state the session opens to and the state its release saved, both as the release
    saved it where a field was kept as words (`IN_WORDS`), as today's type reads it elsewhere."""
    state, expected = session.to_json(), saved_state_read_today(saved)
    raw = json.loads(saved.with_suffix(".state.json").read_text())
    for key in in_release_words(saved.stem.rsplit("-", 1)[0], state, raw):
        expected[key] = raw[key]
    return state, expected


@pytest.mark.parametrize("saved", SAVED, ids=[p.stem for p in SAVED])
def test_a_saved_session_opens_to_the_state_it_was_saved_with(saved, tmp_path):
    copy = tmp_path / saved.name  # opening may rewrite the snapshot: keep the fixture as released
    shutil.copy(saved, copy)
    with Session.open(copy) as session:
        state, expected = opened_and_saved(saved, session)
        assert state == expected
    with Session.open(copy) as session:  # and again, now from the snapshot it rewrote
        state, expected = opened_and_saved(saved, session)
        assert state == expected


def test_direwilds_saved_steps_are_held_to_their_words(tmp_path):
    """What `direwild_in_words` stands on: the 0.2 save keeps sentences for the walk-through,
    today's state the events they word (so a reworded sentence fails the test above)."""
    saved = FIXTURES / "direwild-0.2.session"
    raw = json.loads(saved.with_suffix(".state.json").read_text())
    assert raw["walkthrough"][1]["text"] == "Karn moves 1 right on his Hunting Track (square 2)"
    copy = tmp_path / saved.name
    shutil.copy(saved, copy)
    with Session.open(copy) as session:
        step = session.state.walkthrough[1]
        state, _ = opened_and_saved(saved, session)
    assert step.action == "KarnAdvanced" and step.data == {
        "track": 1
    }  # the square is worded (track + 1)
    assert not hasattr(step, "text")
    assert state["walkthrough"][1] == raw["walkthrough"][1]


def released() -> dict[str, str]:
    lines = RELEASED.read_text().splitlines()
    return {
        name: digest
        for digest, name in (line.split() for line in lines if line and not line.startswith("#"))
    }


def test_every_released_fixture_is_as_it_was_released():
    record = released()
    here = {p.name for p in FIXTURES.iterdir() if p.name.endswith((".session", ".state.json"))}
    assert here == set(record), "a fixture not saved by make.py, or a released one gone"
    for name, digest in record.items():
        assert hashlib.sha256((FIXTURES / name).read_bytes()).hexdigest() == digest, (
            f"{name} was edited after its release: a later release reads it as it is"
        )


def test_a_field_added_since_a_release_reads_as_its_default():
    """What `with_defaults` stands on: a state saved before a field existed decodes with
    the field at its default (HEXplore 0.2 saved no `workshop_built`)."""
    saved = FIXTURES / "hexplore-0.2.session"
    assert "workshop_built" not in json.loads(saved.with_suffix(".state.json").read_text())
    assert saved_state_read_today(saved)["workshop_built"] is False


def test_every_game_has_a_saved_session():
    games = {p.stem.rsplit("-", 1)[0] for p in SAVED}
    assert {"direwild", "kradia", "hexplore"} <= games
