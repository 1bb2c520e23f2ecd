"""A Direwild session saved by the release before typed events (untyped dict events, the
`cmd_`/`on_` game object; written by that release's own code from a recorded self-play of
the default set-up through chapter 1 into chapter 2, then an undo, a redo and a
correction) opens to the state that release saved beside it."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from companion.core.session import Session

SAVED = Path(__file__).resolve().parent / "saved" / "direwild-0.1.session"


def test_the_release_before_typed_events_opens_to_the_same_state(tmp_path: Path) -> None:
    copy = tmp_path / SAVED.name
    shutil.copy(SAVED, copy)
    expected = json.loads(SAVED.with_suffix(".state.json").read_text())
    assert expected["chapter"] == 2 and expected["outcome"] == "lost"
    with Session.open(copy) as session:
        assert session.to_json() == expected
        kinds = {row.type for tx in session.history() for row in tx}
    assert {"BattleResolved", "EnemyDefeated", "ChapterStarted", "EnemyMoved"} <= kinds
    with Session.open(copy) as session:
        assert session.to_json() == expected
