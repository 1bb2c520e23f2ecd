"""Sessions saved by earlier releases open to the same state in this one.

The fixtures in tests/fixtures/sessions/ were written by `tests/fixtures/sessions/make.py`
(one per game and release, with undo, redo, a correction and a snapshot).  A change to an
event, a handler or the fold that would make an old save read differently fails here.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from companion.core.session import Session

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "sessions"
SAVED = sorted(FIXTURES.glob("*.session"))


@pytest.mark.parametrize("saved", SAVED, ids=[p.stem for p in SAVED])
def test_a_saved_session_opens_to_the_state_it_was_saved_with(saved, tmp_path):
    copy = tmp_path / saved.name  # opening may rewrite the snapshot: keep the fixture as released
    shutil.copy(saved, copy)
    expected = json.loads(saved.with_suffix(".state.json").read_text())
    with Session.open(copy) as session:
        assert session.to_json() == expected
    with Session.open(copy) as session:  # and again, now from the snapshot it rewrote
        assert session.to_json() == expected


def test_every_game_has_a_saved_session():
    games = {p.stem.rsplit("-", 1)[0] for p in SAVED}
    assert {"direwild", "kradia", "hexplore"} <= games
