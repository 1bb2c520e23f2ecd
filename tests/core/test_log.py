"""The log on its own: transactions and the chain undo and redo choose, the core's own
rows typed and read back as every release wrote them, and the snapshots it trusts."""

from __future__ import annotations

import shutil

import pytest

from companion.core import entries
from companion.core import log as log_mod
from companion.core.entries import (
    CommandDone,
    CommandIssued,
    RequestAnswered,
    SessionStarted,
    Undone,
)
from companion.core.log import Chain, Log
from companion.core.session import Session
from companion.core.store import SessionDamaged
from tests.core.helpers import tiny_session
from tests.core.test_saved_sessions import SAVED


def test_the_chain_follows_undo_and_redo_and_a_new_step_clears_redo():
    chain = Chain()
    chain.add(0, SessionStarted(game="tiny"))
    chain.add(1, CommandIssued(name="add"))
    chain.add(2, CommandIssued(name="add"))
    chain.add(3, Undone(tx=2))
    assert (chain.alive, chain.redo) == ([0, 1], [2])
    chain.add(4, Undone(tx=2))  # not the last step: changes nothing
    assert (chain.alive, chain.redo) == ([0, 1], [2])
    chain.add(5, entries.Redone(tx=2))
    assert (chain.alive, chain.redo) == ([0, 1, 2], [])
    chain.add(6, Undone(tx=2))
    chain.add(7, CommandIssued(name="add"))
    assert (chain.alive, chain.redo) == ([0, 1, 7], [])


def test_a_log_is_written_and_read_back_without_any_rules(tmp_path):
    path = tmp_path / "t.session"
    log = Log.create(path, {"game": "tiny"}, SessionStarted(game="tiny"), "new")
    with log.transaction():
        tx, rows = log.append([entries.written(CommandIssued(name="add", args={"n": 1}))])
        log.append([("Added", {"n": 1}), entries.written(CommandDone())])  # another writer
    log.committed(tx, rows, CommandIssued(name="add", args={"n": 1}))
    assert log.behind(), "the second transaction was written by someone else"
    log.close()
    log = Log.open(path)
    heads = log.heads()
    assert [tx for tx, _ in heads] == log.chain.alive == [0, 1, 2]
    assert heads[1][1] == CommandIssued(name="add", args={"n": 1})
    assert heads[2][1] is None  # a game's event: not the log's to read
    assert log.store.meta()["summary"] == "new"
    log.close()


def test_a_file_without_a_game_record_is_damaged(tmp_path):
    path = tmp_path / "t.session"
    Log.create(path, {"packs": []}, SessionStarted(), "").close()
    with pytest.raises(SessionDamaged, match="has no game record"):
        Log.open(path)


def test_the_cores_rows_are_written_with_the_keys_they_always_had():
    assert entries.written(CommandIssued(name="add", args={"n": 1})) == (
        "CommandIssued",
        {"name": "add", "args": {"n": 1}},
    )
    labelled = CommandIssued(name="add", args={}, label="Add", auto=True)
    assert entries.written(labelled)[1] == {"name": "add", "args": {}, "label": "Add", "auto": True}
    assert entries.written(CommandDone()) == ("CommandDone", {})
    answered = RequestAnswered(values=[3], by="keypad", request={"kind": "dice"})
    assert list(entries.written(answered)[1]) == ["values", "by", "request"]


def test_the_cores_rows_read_as_older_releases_wrote_them():
    """A field an early row lacks reads as the default the code always assumed; one it
    has beyond today's fields is left alone; a row that cannot be read is named."""
    answered = entries.read("RequestAnswered", {"values": [2]})
    assert isinstance(answered, RequestAnswered) and answered.asked.kind == "dice"
    issued = entries.read("CommandIssued", {"name": "add", "args": {}, "later": 1})
    assert isinstance(issued, CommandIssued) and not issued.auto and not issued.label
    assert entries.read("Added", {"n": 1}) is None
    with pytest.raises(ValueError, match="Undone"):
        entries.read("Undone", {"tx": "two"})


@pytest.mark.parametrize("saved", SAVED, ids=[p.stem for p in SAVED])
def test_every_row_a_release_saved_reads_as_its_entry_and_writes_back_the_same(saved, tmp_path):
    copy = tmp_path / saved.name  # opening may migrate: keep the fixture as released
    shutil.copy(saved, copy)
    log = Log.open(copy)
    try:
        rows = list(log.store.rows())
    finally:
        log.close()
    kinds = set()
    for row in rows:
        entry = entries.read(row.type, row.data)
        if entry is not None:
            kinds.add(row.type)
            assert entries.written(entry) == (row.type, row.data)
    assert kinds >= {"SessionStarted", "CommandIssued", "RequestAnswered", "Undone", "Redone"}


def test_snapshot_resume_equals_full_fold(tmp_path, monkeypatch):
    monkeypatch.setattr(log_mod, "SNAPSHOT_EVERY", 10)
    s = tiny_session(tmp_path)
    for i in range(35):
        s.do("add", {"n": 1 + i % 3})
    s.undo()
    s.undo()
    live = s.to_json()
    s.close()
    assert Session.open(tmp_path / "t.session").to_json() == live
    snaps = Session.open(tmp_path / "t.session").store.snapshots()
    assert snaps, "snapshots were written"
    # a snapshot written by other rules is ignored, not trusted
    s = Session.open(tmp_path / "t.session")
    s.store.db.execute("UPDATE snapshots SET rules = 'tiny:0', state = 'garbage'")
    s.close()
    assert Session.open(tmp_path / "t.session").to_json() == live


def test_snapshot_of_the_same_rules_is_used(tmp_path, monkeypatch):
    monkeypatch.setattr(log_mod, "SNAPSHOT_EVERY", 10)
    s = tiny_session(tmp_path)
    for _ in range(25):
        s.do("add", {"n": 1})
    s.close()
    reopened = Session.open(tmp_path / "t.session")
    keys = [key.partition("#")[0] for _, key in reopened.store.snapshots()]
    assert keys == [reopened.rules_version] * 2
    assert reopened.to_json()["score"] == 25


def test_a_snapshot_changed_on_disk_is_not_trusted(tmp_path, monkeypatch):
    """The state blob edited in place (a bad sector, another program): the file still folds
    to the log's answer, and the snapshot is written anew."""
    monkeypatch.setattr(log_mod, "SNAPSHOT_EVERY", 10)
    s = tiny_session(tmp_path)
    for _ in range(12):
        s.do("add", {"n": 1})
    live = s.to_json()
    s.close()
    s = Session.open(tmp_path / "t.session")
    s.store.db.execute("UPDATE snapshots SET state = replace(state, '\"score\":9', '\"score\":90')")
    changed = "SELECT count(*) FROM snapshots WHERE state LIKE '%\"score\":90%'"
    assert s.store.db.execute(changed).fetchone()[0] == 1
    s.close()
    with Session.open(tmp_path / "t.session") as reopened:
        assert reopened.to_json() == live
