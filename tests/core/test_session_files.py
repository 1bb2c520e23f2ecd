"""Damaged, locked, foreign and newer session files: clear words, nothing overwritten."""

from __future__ import annotations

import sqlite3

import pytest

from companion.core.library import Library
from companion.core.session import Session
from companion.core.store import (
    SCHEMA_VERSION,
    SessionDamaged,
    SessionLocked,
    SessionNotFound,
    SessionTooNew,
)
from companion.core.transfer import recover_session
from tests.core.helpers import tiny_session


def _played(tmp_path, n=30):
    s = tiny_session(tmp_path)
    for _ in range(n):
        s.do("add", {"n": 1})
    s.store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    s.close()
    return tmp_path / "t.session"


def test_missing_file(tmp_path):
    with pytest.raises(SessionNotFound, match="t.session: no such session file"):
        Session.open(tmp_path / "t.session")


@pytest.mark.parametrize(
    "content, words",
    [(b"", "is empty"), (b"hello, not a save\n" * 10, "not a Table Companion session")],
)
def test_garbage_file_is_named_and_left_alone(tmp_path, content, words):
    path = tmp_path / "t.session"
    path.write_bytes(content)
    with pytest.raises(SessionDamaged, match=words) as err:
        Session.open(path)
    assert err.value.path == path
    assert path.read_bytes() == content


def test_other_sqlite_database_is_refused(tmp_path):
    path = tmp_path / "t.session"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE x (y)")
    db.commit()
    db.close()
    with pytest.raises(SessionDamaged, match="not a Table Companion session"):
        Session.open(path)


def test_truncated_file_reports_what_can_be_recovered_and_is_not_overwritten(tmp_path):
    path = _played(tmp_path, 400)
    data = path.read_bytes()
    cut = data[: len(data) * 2 // 3]
    path.write_bytes(cut)
    with pytest.raises(SessionDamaged) as err:
        Session.open(path)
    assert "t.session" in str(err.value)
    assert err.value.recoverable is not None
    assert path.read_bytes() == cut


def test_recover_copies_the_readable_start_into_a_new_session(tmp_path):
    path = _played(tmp_path, 400)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) * 2 // 3])
    lib = Library(tmp_path / "lib")
    new_id, found = recover_session(path, lib)
    assert found.moves > 0 and found.cut_short
    recovered = lib.open(new_id)
    score = recovered.to_json()["score"]
    assert 0 < score < 400
    listed = {i.id: i.summary for i in lib.list()}[new_id]
    assert listed == recovered.game.summary(recovered.state)  # not the lost game's summary
    assert path.read_bytes() == data[: len(data) * 2 // 3]


def test_locked_file_says_another_program_has_it(tmp_path):
    path = _played(tmp_path, 3)
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("PRAGMA locking_mode = EXCLUSIVE")
    holder.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(SessionLocked, match="in use by another program"):
            Session.open(path)
    finally:
        holder.execute("ROLLBACK")
        holder.close()


def test_file_from_a_newer_version_is_refused_untouched(tmp_path):
    path = _played(tmp_path, 3)
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    db.commit()
    db.close()
    before = path.read_bytes()
    with pytest.raises(SessionTooNew, match="newer Table Companion"):
        Session.open(path)
    assert path.read_bytes() == before


def test_old_version_is_migrated_with_a_backup(tmp_path):
    path = _played(tmp_path, 5)
    db = sqlite3.connect(path)
    db.execute("DROP TABLE snapshots")
    db.execute("PRAGMA user_version = 1")
    db.commit()
    db.close()
    s = Session.open(path)
    assert s.to_json()["score"] == 5
    assert s.store.db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    s.do("add", {"n": 1})
    s.close()
    assert (tmp_path / "t.session.v1.bak").exists()


def test_damaged_event_row_is_reported(tmp_path):
    path = _played(tmp_path, 3)
    db = sqlite3.connect(path)
    db.execute("UPDATE log SET data = '{broken' WHERE seq = 2")
    db.commit()
    db.close()
    with pytest.raises(SessionDamaged, match="event 2 is unreadable"):
        Session.open(path)


def test_library_lists_damaged_sessions_with_a_problem(tmp_path):
    lib = Library(tmp_path)
    s = lib.new(__import__("companion.games", fromlist=["get_game"]).get_game("tiny"))
    s.do("add", {"n": 2})
    s.close()
    (tmp_path / "broken.session").write_bytes(b"junk" * 100)
    infos = {i.id: i for i in lib.list()}
    assert infos["tiny-1"].summary == "Round 0, score 2" and not infos["tiny-1"].problem
    assert (
        infos["broken"].problem == "is not a Table Companion session (it is another kind of file)"
    )
