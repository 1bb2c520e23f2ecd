"""Damaged files are noticed and named, the WAL is read by recover, copies hold every move
(issue 17, findings 3 and 4).

The trial repeats the issue's: 100 copies of a played session, each with a run of random
bytes overwritten somewhere in the file.  Every copy either opens to exactly the same
history and state, or is refused as a file problem naming what can be recovered; no
other exception, and never a silently different game.
"""

from __future__ import annotations

import random
import shutil
import sqlite3

import pytest

from companion.core.library import Library
from companion.core.session import Session
from companion.core.store import (
    SCHEMA_VERSION,
    SessionDamaged,
    SessionFileError,
    SessionTooNew,
)
from companion.core.transfer import export_session, recover_session
from tests.core.helpers import log_rows, tiny_session

TRIALS = 100


def _played(folder, name="t", n=60) -> Session:
    s = tiny_session(folder, name)
    for i in range(n):
        if i % 7 == 3:
            s.do("roll")
            s.answer([1 + i % 5])
        else:
            s.do("add", {"n": 1 + i % 3})
    return s


def test_random_damage_is_refused_or_changes_nothing(tmp_path):
    rng = random.Random(17)
    s = _played(tmp_path)
    s.close()
    original = tmp_path / "t.session"
    with Session.open(original) as s:
        history, state = log_rows(s), s.to_json()
    size = original.stat().st_size
    outcomes = {"same": 0, "refused": 0}
    for n in range(TRIALS):
        copy = tmp_path / f"d{n}.session"
        shutil.copyfile(original, copy)
        data = bytearray(copy.read_bytes())
        start = rng.randrange(size)
        for i in range(start, min(size, start + rng.randint(1, 32))):
            data[i] = rng.randrange(256)
        copy.write_bytes(bytes(data))
        try:
            with Session.open(copy) as opened:
                got = (log_rows(opened), opened.to_json())
        except SessionFileError as exc:
            assert str(exc).startswith(copy.name), exc
            if isinstance(exc, SessionDamaged):
                assert exc.recoverable is not None, exc
            outcomes["refused"] += 1
            continue
        assert got == (history, state), f"trial {n}: opened with a different game"
        outcomes["same"] += 1
    assert sum(outcomes.values()) == TRIALS
    print(f"damage trial: {TRIALS} tried, {outcomes}")


def test_a_changed_event_is_named(tmp_path):
    s = _played(tmp_path, n=5)
    s.close()
    db = sqlite3.connect(tmp_path / "t.session")
    db.execute("UPDATE log SET data = replace(data, '\"n\":2', '\"n\":9') WHERE seq = 4")
    db.commit()
    db.close()
    with pytest.raises(SessionDamaged, match=r"event \d+ is unreadable .*changed"):
        Session.open(tmp_path / "t.session")


def test_a_missing_event_is_named(tmp_path):
    s = _played(tmp_path, n=5)
    s.close()
    db = sqlite3.connect(tmp_path / "t.session")
    db.execute("DELETE FROM log WHERE seq = 3")
    db.commit()
    db.close()
    with pytest.raises(SessionDamaged, match="event 3 is missing"):
        Session.open(tmp_path / "t.session")


def test_version_2_files_gain_checksums_with_a_backup(tmp_path):
    s = _played(tmp_path, n=5)
    s.close()
    path = tmp_path / "t.session"
    db = sqlite3.connect(path)
    db.execute("ALTER TABLE log DROP COLUMN sum")
    db.execute("ALTER TABLE meta DROP COLUMN sum")
    db.execute("PRAGMA user_version = 2")
    db.commit()
    db.close()
    with Session.open(path) as s:
        assert s.store.db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 3
        score = s.to_json()["score"]
        s.do("add", {"n": 1})
    assert (tmp_path / "t.session.v2.bak").exists()
    with Session.open(path) as s:
        assert s.to_json()["score"] == score + 1


def _in_wal_only(folder, n=60) -> Session:
    """A live session of an earlier version (WAL mode) whose moves are all still in its
    write-ahead log."""
    s = tiny_session(folder, "w")
    s.store.db.execute("PRAGMA journal_mode = WAL")
    s.store.checkpoint_each = False
    s.store.db.execute("PRAGMA wal_autocheckpoint = 0")
    for _ in range(n):
        s.do("add", {"n": 1})
    return s


def test_recover_reads_the_write_ahead_log(tmp_path):
    s = _in_wal_only(tmp_path)
    events = len(log_rows(s))
    away = tmp_path / "away"
    away.mkdir()
    shutil.copyfile(s.path, away / "w.session")
    shutil.copyfile(str(s.path) + "-wal", away / "w.session-wal")
    s.close()
    lib = Library(tmp_path / "lib")
    new_id, found = recover_session(away / "w.session", lib)
    assert len(found.rows) == events and (found.moves, found.lost) == (60, 0)
    with lib.open(new_id) as rescued:
        assert rescued.to_json()["score"] == 60


def test_recover_refuses_a_file_from_a_newer_version(tmp_path):
    s = _played(tmp_path, n=3)
    s.close()
    db = sqlite3.connect(tmp_path / "t.session")
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    db.commit()
    db.close()
    with pytest.raises(SessionTooNew, match="newer Table Companion"):
        recover_session(tmp_path / "t.session", Library(tmp_path / "lib"))


def test_export_to_a_session_name_copies_through_the_backup_api(tmp_path):
    s = _in_wal_only(tmp_path, n=10)
    out = export_session(s.path, tmp_path / "copy.session")
    s.close()
    with Session.open(out) as copy:
        assert copy.to_json()["score"] == 10
