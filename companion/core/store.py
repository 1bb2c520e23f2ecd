"""The session file: an append-only event log in one SQLite file.

WAL with `synchronous=FULL` and one transaction per accepted command, committed before
the caller sees the result: killing the app at any instant loses nothing it showed.
Snapshots are a cache for fast resume and are ignored whenever they do not fit.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec

SCHEMA_VERSION = 2
APPLICATION_ID = 0x54434D50  # "TCMP": tells our files from any other SQLite database

_decode = msgspec.json.decode
_encode = msgspec.json.encode


class SessionFileError(Exception):
    """A session file problem, said for a player: which file, what is wrong, what is left."""

    def __init__(self, path: Path | str, problem: str, recoverable: int | None = None) -> None:
        self.path = Path(path)
        self.problem = problem
        self.recoverable = recoverable
        text = f"{self.path.name}: {problem}"
        if recoverable is not None:
            text += f" ({recoverable} event(s) can be recovered with 'companion session recover')"
        super().__init__(text)


class SessionDamaged(SessionFileError):
    pass


class SessionLocked(SessionFileError):
    pass


class SessionTooNew(SessionFileError):
    pass


class SessionNotFound(SessionFileError):
    pass


@dataclass(frozen=True)
class Row:
    seq: int
    tx: int
    type: str
    data: dict[str, Any]
    at: float


_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS log (
    seq INTEGER PRIMARY KEY,
    tx INTEGER NOT NULL,
    type TEXT NOT NULL,
    data TEXT NOT NULL,
    at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS log_tx ON log(tx);
CREATE TABLE IF NOT EXISTS snapshots (tx INTEGER PRIMARY KEY, rules TEXT NOT NULL, state TEXT NOT NULL);
"""


def _migrate_1_to_2(db: sqlite3.Connection) -> None:
    """Version 1 files had no snapshots table; version 2 adds it (snapshots are a cache)."""
    db.execute(
        "CREATE TABLE IF NOT EXISTS snapshots "
        "(tx INTEGER PRIMARY KEY, rules TEXT NOT NULL, state TEXT NOT NULL)"
    )


MIGRATIONS: dict[int, Callable[[sqlite3.Connection], None]] = {1: _migrate_1_to_2}


def _connect(path: Path, *, create: bool) -> sqlite3.Connection:
    mode = "rwc" if create else "rw"
    db = sqlite3.connect(
        f"file:{path}?mode={mode}",
        uri=True,
        isolation_level=None,
        timeout=2.0,
        check_same_thread=False,
    )
    db.execute("PRAGMA busy_timeout = 2000")
    return db


class Store:
    """Low-level access to one session file.  Knows nothing about games."""

    def __init__(self, path: Path, db: sqlite3.Connection) -> None:
        self.path = path
        self.db = db

    # -- opening -----------------------------------------------------------------------

    @classmethod
    def create(cls, path: Path, meta: dict[str, Any]) -> Store:
        path = Path(path)
        if path.exists():
            raise SessionFileError(path, "already exists; choose another name")
        path.parent.mkdir(parents=True, exist_ok=True)
        db = _connect(path, create=True)
        db.execute("PRAGMA journal_mode = WAL")
        db.execute("PRAGMA synchronous = FULL")
        db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        db.executescript(_SCHEMA)
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        store = cls(path, db)
        with store.transaction():
            for key, value in meta.items():
                store.set_meta(key, value)
        return store

    @classmethod
    def open(cls, path: Path) -> Store:
        path = Path(path)
        if not path.exists():
            raise SessionNotFound(path, "no such session file")
        with open(path, "rb") as fh:
            head = fh.read(16)
        if head != b"SQLite format 3\x00":
            if not head:
                raise SessionDamaged(path, "is empty: the save was never written", 0)
            raise SessionDamaged(path, "is not a Table Companion session (not a database file)", 0)
        try:
            db = _connect(path, create=False)
            db.execute("PRAGMA synchronous = FULL")
            version = db.execute("PRAGMA user_version").fetchone()[0]
            app_id = db.execute("PRAGMA application_id").fetchone()[0]
        except sqlite3.OperationalError as exc:
            if "locked" in str(exc) or "busy" in str(exc):
                raise SessionLocked(path, "is in use by another program; close it there") from exc
            raise SessionDamaged(path, f"cannot be read ({exc})", count_recoverable(path)) from exc
        except sqlite3.DatabaseError as exc:
            raise SessionDamaged(path, f"is damaged ({exc})", count_recoverable(path)) from exc
        if app_id != APPLICATION_ID:
            db.close()
            raise SessionDamaged(path, "is a database, but not a Table Companion session", 0)
        if version > SCHEMA_VERSION:
            db.close()
            raise SessionTooNew(
                path,
                f"was saved by a newer Table Companion (log version {version}; this app "
                f"reads up to {SCHEMA_VERSION}). Update the app to open it",
            )
        store = cls(path, db)
        try:
            ok = db.execute("PRAGMA quick_check").fetchone()[0]
        except sqlite3.OperationalError as exc:
            db.close()
            if "locked" in str(exc) or "busy" in str(exc):
                raise SessionLocked(path, "is in use by another program; close it there") from exc
            raise SessionDamaged(path, f"is damaged ({exc})", count_recoverable(path)) from exc
        except sqlite3.DatabaseError as exc:
            db.close()
            raise SessionDamaged(path, f"is damaged ({exc})", count_recoverable(path)) from exc
        if ok != "ok":
            db.close()
            raise SessionDamaged(path, f"is damaged ({ok})", count_recoverable(path))
        if version < SCHEMA_VERSION:
            store._migrate(version)
        return store

    def _migrate(self, version: int) -> None:
        backup = self.path.with_name(f"{self.path.name}.v{version}.bak")
        if not backup.exists():
            self.db.execute("PRAGMA wal_checkpoint(FULL)")
            shutil.copy2(self.path, backup)
        with self.transaction():
            while version < SCHEMA_VERSION:
                MIGRATIONS[version](self.db)
                version += 1
                self.db.execute(f"PRAGMA user_version = {version}")

    def close(self) -> None:
        self.db.close()

    # -- writing -----------------------------------------------------------------------

    class _Tx:
        def __init__(self, store: Store) -> None:
            self.store = store

        def __enter__(self) -> Store:
            self.store.db.execute("BEGIN IMMEDIATE")
            return self.store

        def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> None:
            if exc_type is None:
                self.store.db.execute("COMMIT")
            else:
                self.store.db.execute("ROLLBACK")

    def transaction(self) -> Store._Tx:
        try:
            return Store._Tx(self)
        except sqlite3.OperationalError as exc:  # pragma: no cover - locked mid-session
            raise SessionLocked(self.path, "is in use by another program") from exc

    def last_seq(self) -> int:
        return self.db.execute("SELECT coalesce(max(seq), -1) FROM log").fetchone()[0]

    def last_tx(self) -> int:
        return self.db.execute("SELECT coalesce(max(tx), -1) FROM log").fetchone()[0]

    def append(self, tx: int, events: Iterable[tuple[str, dict[str, Any]]]) -> list[Row]:
        """Append events as transaction `tx`; call inside `transaction()`."""
        now = time.time()
        rows = []
        seq = self.last_seq()
        for etype, data in events:
            seq += 1
            rows.append(Row(seq, tx, etype, data, now))
        self.db.executemany(
            "INSERT INTO log (seq, tx, type, data, at) VALUES (?, ?, ?, ?, ?)",
            [(r.seq, r.tx, r.type, _encode(r.data).decode(), r.at) for r in rows],
        )
        return rows

    def set_meta(self, key: str, value: Any) -> None:
        self.db.execute(
            "INSERT INTO meta (key, value) VALUES (?, ?) "
            "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            (key, json.dumps(value)),
        )

    def put_snapshot(self, tx: int, rules: str, state: bytes) -> None:
        self.db.execute(
            "INSERT OR REPLACE INTO snapshots (tx, rules, state) VALUES (?, ?, ?)",
            (tx, rules, state.decode()),
        )

    # -- reading -----------------------------------------------------------------------

    def meta(self) -> dict[str, Any]:
        out = {}
        for key, value in self.db.execute("SELECT key, value FROM meta"):
            try:
                out[key] = json.loads(value)
            except ValueError:
                raise SessionDamaged(self.path, f"its '{key}' record is unreadable") from None
        return out

    def rows(self, after_tx: int = -1) -> Iterator[Row]:
        cur = self.db.execute(
            "SELECT seq, tx, type, data, at FROM log WHERE tx > ? ORDER BY seq", (after_tx,)
        )
        for seq, tx, etype, data, at in cur:
            try:
                yield Row(seq, tx, etype, _decode(data), at)
            except msgspec.DecodeError:
                raise SessionDamaged(
                    self.path, f"event {seq} is unreadable", count_recoverable(self.path)
                ) from None

    def tx_rows(self, tx: int) -> list[Row]:
        cur = self.db.execute(
            "SELECT seq, tx, type, data, at FROM log WHERE tx = ? ORDER BY seq", (tx,)
        )
        return [Row(s, t, ty, _decode(d), a) for s, t, ty, d, a in cur]

    def tx_heads(self) -> list[tuple[int, str, dict[str, Any]]]:
        """The first event of every transaction: enough to work out undo and redo."""
        cur = self.db.execute(
            "SELECT l.tx, l.type, l.data FROM log l "
            "JOIN (SELECT min(seq) AS s FROM log GROUP BY tx) f ON l.seq = f.s ORDER BY l.tx"
        )
        return [(tx, etype, _decode(data)) for tx, etype, data in cur]

    def snapshots(self) -> list[tuple[int, str]]:
        return list(self.db.execute("SELECT tx, rules FROM snapshots ORDER BY tx DESC"))

    def snapshot(self, tx: int) -> bytes | None:
        row = self.db.execute("SELECT state FROM snapshots WHERE tx = ?", (tx,)).fetchone()
        return row[0].encode() if row else None


def recover_rows(path: Path) -> tuple[dict[str, Any], list[Row]]:
    """What can be read from a damaged file: the unbroken run of events from the start.

    Reads through SQLite where it still can, else page by page (see recovery.py).
    """
    from companion.core.recovery import scan

    meta, found = scan(path)
    rows: list[Row] = []
    seq = 0
    while seq in found:
        tx, etype, data, at = found[seq]
        rows.append(Row(seq, tx, etype, data, at))
        seq += 1
    return meta, rows


def count_recoverable(path: Path) -> int:
    """How many events a damaged file still yields, read without writing to it."""
    try:
        return len(recover_rows(path)[1])
    except OSError:
        return 0
