"""A Direwild session saved by the release before typed events (untyped dict events, the
`cmd_`/`on_` game object; written by that release's own code from a recorded self-play of
the default set-up through chapter 1 into chapter 2, then an undo, a redo and a
correction) opens to the state that release saved beside it."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from companion.core.session import Session
from tests.fixtures.released import in_release_words

SAVED = Path(__file__).resolve().parent / "saved" / "direwild-0.1.session"


def as_released(session: Session) -> dict[str, Any]:
    """Today's state with the fields 0.1 kept as sentences in words (tests/fixtures/released.py)."""
    state = session.to_json()
    in_release_words("direwild", state, json.loads(SAVED.with_suffix(".state.json").read_text()))
    return state


def test_the_release_before_typed_events_opens_to_the_same_state(tmp_path: Path) -> None:
    copy = tmp_path / SAVED.name
    shutil.copy(SAVED, copy)
    expected = json.loads(SAVED.with_suffix(".state.json").read_text())
    assert expected["chapter"] == 2 and expected["outcome"] == "lost"
    with Session.open(copy) as session:
        assert as_released(session) == expected
        kinds = {row.type for tx in session.history() for row in tx}
    assert {"BattleResolved", "EnemyDefeated", "ChapterStarted", "EnemyMoved"} <= kinds
    with Session.open(copy) as session:
        assert as_released(session) == expected
