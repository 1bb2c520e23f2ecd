"""Storage errors said in words, with nothing lost (issue 17, finding 2).

Faults are injected into SQLite itself: a second connection holding the write lock, a
connection told it may only read (`query_only`, as a read-only copy behaves: the tests
run as root, which file permissions do not stop), and a full disk (`max_page_count`
pinned to the file's size).  Each command fails with its own SessionFileError, the file
and the state in memory stay as they were, and the next command after the fault works.
"""

from __future__ import annotations

import sqlite3
import time

import pytest

from companion.core.session import Session
from companion.core.store import SessionDiskFull, SessionLocked, SessionReadOnly
from tests.core.helpers import log_rows, tiny_session
from tests.core.test_scenario_runner import companion


def _played(tmp_path, n=3) -> Session:
    s = tiny_session(tmp_path)
    for _ in range(n):
        s.do("add", {"n": 1})
    return s


def _unchanged(s: Session, before_state: dict, before_log: list) -> None:
    assert s.to_json() == before_state
    assert log_rows(s) == before_log
    with Session.open(s.path) as again:
        assert again.to_json() == before_state


def test_locked_file_is_said_in_words_and_nothing_changes(tmp_path):
    s = _played(tmp_path)
    state, log = s.to_json(), log_rows(s)
    other = sqlite3.connect(s.path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    started = time.monotonic()
    with pytest.raises(SessionLocked, match="in use by another program"):
        s.do("add", {"n": 5})
    assert time.monotonic() - started < 10
    other.execute("ROLLBACK")
    other.close()
    _unchanged(s, state, log)
    s.do("add", {"n": 5})
    assert s.to_json()["score"] == 8
    s.close()


def test_read_only_file_is_said_in_words_and_nothing_changes(tmp_path):
    s = _played(tmp_path)
    state, log = s.to_json(), log_rows(s)
    s.store.db.execute("PRAGMA query_only = 1")
    for attempt in (lambda: s.do("add", {"n": 2}), s.undo, lambda: s.correct("score", 9)):
        with pytest.raises(SessionReadOnly, match="read-only. Nothing was changed"):
            attempt()
        assert s.to_json() == state
    s.store.db.execute("PRAGMA query_only = 0")
    _unchanged(s, state, log)
    s.close()


def test_full_disk_is_said_in_words_and_nothing_changes(tmp_path):
    s = _played(tmp_path)
    pages = s.store.db.execute("PRAGMA page_count").fetchone()[0]
    s.store.db.execute(f"PRAGMA max_page_count = {pages}")
    with pytest.raises(SessionDiskFull, match="storage is full"):
        for _ in range(5000):  # until the file would have to grow
            state, log = s.to_json(), log_rows(s)
            s.do("add", {"n": 1})
    assert s.to_json() == state and log_rows(s) == log
    s.store.db.execute(f"PRAGMA max_page_count = {pages * 100}")
    s.do("add", {"n": 1})
    assert s.to_json()["score"] == state["score"] + 1
    s.close()


def test_cli_says_a_locked_file_in_words_with_exit_code_2(tmp_path):
    assert companion("new", "tiny", "--name", "locked").returncode == 0
    from companion.core.library import Library

    path = Library().path_for("locked")
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        run = companion("do", "locked", "add", "--with", '{"n": 1}')
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert run.returncode == 2
    assert "Traceback" not in run.stderr
    assert "locked.session: is in use by another program" in run.stderr
