"""A session saved by the previous release opens to the same table.

`saved/release-1.session` was written by the release before the typed events (story mode,
two rounds, items, a Charge Attack, corrections, an undo and a redo, snapshots every 10
transactions); `release-1.state.json` is the state that release showed, less the boss's dice
and overdrive, which are now read off the boss card for its HP instead of being stored.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import msgspec
import pytest

from companion.core.session import Session
from companion.core.tables import EventTypeError
from companion.games.kradia.events import EVENTS, BossDamaged

SAVED = Path(__file__).parent / "saved"

# State fields added since that release, each with the value an old game means by leaving
# it out: no Extra card used, no house rule chosen (the defaults), nothing held for a round.
ADDED = {"extras_used": [], "house": {}}
ADDED_BATTLEFIELD = {"held": []}


def as_released(state: dict) -> dict:
    """The state less the fields added since, after checking each holds its default."""
    out = dict(state)
    for key, default in ADDED.items():
        assert out.pop(key) == default
    out["battlefield"] = dict(out["battlefield"])
    for key, default in ADDED_BATTLEFIELD.items():
        assert out["battlefield"].pop(key) == default
    return out


@pytest.mark.parametrize("snapshots", [True, False], ids=["with-snapshots", "log-only"])
def test_previous_release_session_opens_to_the_same_state(tmp_path, snapshots):
    path = tmp_path / "release-1.session"
    shutil.copy(SAVED / "release-1.session", path)
    if not snapshots:
        with sqlite3.connect(path) as db:
            db.execute("delete from snapshots")
    wanted = json.loads((SAVED / "release-1.state.json").read_text())
    with Session.open(path) as session:
        assert as_released(msgspec.to_builtins(session.state)) == wanted
        assert session.state.phase == "boss" and session.request is None
        session.do("boss_attack")  # and play goes on: 1 HP left shows 3 dice
        assert session.request is not None and session.request.count == 3


def test_a_version_1_boss_hp_event_reads_without_its_stored_dice():
    """Version 1 stored the boss's dice and overdrive beside its new HP; they are dropped on
    reading (the state reads them off the card), and the event is written back as the current
    version (3 added the boss's name, empty for an old event)."""
    old = {"amount": 2, "hp": 4, "dice": 3, "overdrive": True, "why": "Oakla's Basic Attack"}
    event = EVENTS.read("BossDamaged", old)
    assert event == BossDamaged(amount=2, hp=4, why="Oakla's Basic Attack")
    assert EVENTS.write(event) == ("BossDamaged", {**event_fields(event), "_v": 3})
    assert EVENTS.describe("BossDamaged", old) == (
        "The boss takes 2 damage (Oakla's Basic Attack): 4 HP left"
    )
    with pytest.raises(EventTypeError):
        EVENTS.read("BossDamaged", {**old, "_v": 2})  # version 2 has no dice field


def event_fields(event: BossDamaged) -> dict[str, object]:
    return {"amount": event.amount, "hp": event.hp, "why": event.why, "name": event.name}
