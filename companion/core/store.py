"""The session file: an append-only event log in one SQLite file.

A rollback journal (`journal_mode=DELETE`, `synchronous=FULL`, no write-ahead log) and
one transaction per accepted command, committed before the caller sees the result:
killing the app at any instant loses nothing it showed, and the `.session` file alone,
copied at any moment, holds every acknowledged command (with a write-ahead log the last
moves sat in `FILE-wal`, and a copy of the file alone lost them).  Its p99 stays within
1.5x a bare commit in the same mode (benchmarks/bench_core.py).  Files written by
earlier versions are WAL files: they are turned into rollback-journal files on opening,
or, while another program still holds one open in WAL mode, checkpointed after every
command instead.  New files use 1 KB pages, so a file cut short keeps its events from
the first few kilobytes on (recovery.py reads them page by page).  Every event and
record carries a checksum (version 3), so a row changed on disk is named instead of
silently becoming a different history.  Snapshots are a cache for fast resume and are
ignored whenever they do not fit.
"""

from __future__ import annotations

import contextlib
import json
import re
import shutil
import sqlite3
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any

import msgspec

from companion.core.checksums import event_sum, meta_sum
from companion.core.recovery import Recovered, complete_run, cut_short, scan

SCHEMA_VERSION = 3
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
            text += (
                f" ({recoverable} move(s) can be recovered with 'companion session recover')"
                if recoverable
                else " (no move can be recovered from it)"
            )
        super().__init__(text)


class SessionDamaged(SessionFileError):
    pass


class SessionLocked(SessionFileError):
    pass


class SessionTooNew(SessionFileError):
    pass


class SessionNotFound(SessionFileError):
    pass


class SessionReadOnly(SessionFileError):
    pass


class SessionDiskFull(SessionFileError):
    pass


class SessionStorageError(SessionFileError):
    """The device refused a read or write (an I/O error): nothing was changed."""


# SQLite's primary result codes (the low byte of `sqlite_errorcode`).
_BUSY, _LOCKED, _READONLY, _IOERR, _CORRUPT, _FULL, _CANTOPEN, _NOTADB = 5, 6, 8, 10, 11, 13, 14, 26
_PERM = 3


# What SQLite raises reading a damaged file: its own errors, and text it cannot decode.
_SQLITE_FAILURES = (sqlite3.Error, UnicodeDecodeError)


def storage_error(path: Path, exc: Exception, count: bool = True) -> SessionFileError:
    """A SQLite failure said for a player, chosen by its result code (never its wording).

    `count` says whether to count what `session recover` would get back (a damaged file
    is read page by page for that)."""
    code = (getattr(exc, "sqlite_errorcode", None) or 0) & 0xFF
    if code in (_BUSY, _LOCKED):
        return SessionLocked(
            path, "is in use by another program (waited 2 s); close it there and try again"
        )
    if code in (_READONLY, _PERM):
        return SessionReadOnly(
            path, "cannot be saved: the file or its folder is read-only. Nothing was changed"
        )
    if code == _FULL:
        return SessionDiskFull(
            path, "cannot be saved: the device's storage is full. Free some space and try again"
        )
    if code in (_IOERR, _CANTOPEN):
        return SessionStorageError(
            path, "could not be read or written (the device reported a storage error)"
        )
    return damaged(path, count)


def damaged(path: Path, count: bool = True) -> SessionDamaged:
    """A damaged file said for a player: cut short, or overwritten in part (never SQLite's
    own text, which names pages and b-trees no player can act on)."""
    return SessionDamaged(path, damage_words(path), count_recoverable(path) if count else None)


def damage_words(path: Path) -> str:
    """What is wrong with a file SQLite refuses, from what its header says of its size."""
    try:
        size = path.stat().st_size
        with open(path, "rb") as fh:
            head = fh.read(100)
    except OSError:
        return "is damaged: part of it cannot be read"
    if not head:
        return "is empty: the save was never written"
    if not head.startswith(b"SQLite format 3\x00"):
        return "is not a Table Companion session (it is another kind of file)"
    if len(head) == 100:
        if int.from_bytes(head[68:72], "big") != APPLICATION_ID:
            return "is a database, but not a Table Companion session"
        page_size = int.from_bytes(head[16:18], "big")
        page_size = 65536 if page_size == 1 else page_size
        pages = int.from_bytes(head[28:32], "big")
        whole = page_size * pages
        if 0 < size < whole and page_size >= 512:
            return (
                f"is cut short: it holds {_kb(size)} of the {_kb(whole)} it was saved with "
                "(a copy or a save that did not finish)"
            )
    return "is damaged: part of the file was overwritten or lost since it was saved"


def _kb(size: int) -> str:
    return f"{size / 1024:.0f} KB" if size >= 1024 else f"{size} bytes"


@dataclass(frozen=True)
class Row:
    seq: int
    tx: int
    type: str
    data: dict[str, Any]
    at: float


_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (
    key TEXT PRIMARY KEY, value TEXT NOT NULL, sum TEXT NOT NULL DEFAULT ''
);
CREATE TABLE IF NOT EXISTS log (
    seq INTEGER PRIMARY KEY,
    tx INTEGER NOT NULL,
    type TEXT NOT NULL,
    data TEXT NOT NULL,
    at REAL NOT NULL,
    sum TEXT NOT NULL DEFAULT ''
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


def _columns(db: sqlite3.Connection, table: str) -> set[str]:
    return {row[1] for row in db.execute(f"PRAGMA table_info({table})")}


def _migrate_2_to_3(db: sqlite3.Connection) -> None:
    """Version 3 adds a checksum to every event and record, computed from what is there."""
    for table in ("log", "meta"):
        if "sum" not in _columns(db, table):
            db.execute(f"ALTER TABLE {table} ADD COLUMN sum TEXT NOT NULL DEFAULT ''")
    rows = list(db.execute("SELECT seq, tx, type, data, at FROM log"))
    db.executemany(
        "UPDATE log SET sum = ? WHERE seq = ?",
        [(event_sum(seq, tx, ty, d, at), seq) for seq, tx, ty, d, at in rows],
    )
    records = list(db.execute("SELECT key, value FROM meta"))
    db.executemany(
        "UPDATE meta SET sum = ? WHERE key = ?", [(meta_sum(k, v), k) for k, v in records]
    )


MIGRATIONS: dict[int, Callable[[sqlite3.Connection], None]] = {
    1: _migrate_1_to_2,
    2: _migrate_2_to_3,
}


JOURNAL_MODE = "DELETE"  # no write-ahead log: the .session file alone is the whole save
PAGE_SIZE = 1024  # new files: small pages, so a file cut short keeps most of its events


def _in_wal(db: sqlite3.Connection) -> bool:
    try:
        return str(db.execute("PRAGMA journal_mode").fetchone()[0]).lower() == "wal"
    except sqlite3.Error:
        return False


def _leave_wal(db: sqlite3.Connection) -> bool:
    """Turn an earlier version's WAL file into a rollback-journal file; True once it is one.

    SQLite allows this only while no other connection holds the file, so it is tried
    without waiting: a file another program still holds in WAL mode stays in WAL mode
    (and is checkpointed after every command) until it is let go."""
    if not _in_wal(db):
        return True
    db.execute("PRAGMA busy_timeout = 0")
    try:
        mode = db.execute(f"PRAGMA journal_mode = {JOURNAL_MODE}").fetchone()[0]
    except sqlite3.Error:
        mode = "wal"
    finally:
        db.execute("PRAGMA busy_timeout = 2000")
    return str(mode).lower() != "wal"


_INDEX_ONLY = re.compile(
    r"^(row \d+ missing from index log_tx|wrong # of entries in index log_tx)$"
)


def _index_rebuilt(db: sqlite3.Connection) -> bool:
    """Rebuild the log's index when it alone disagrees with the log; True if all is whole.

    Why: a copy of the file read during the instant a move's pages were written may hold
    the log's page from before that move and its index's page from after (or the other way
    round).  The log itself is whole, with every acknowledged move; the index is derived
    from it, so rebuilding it loses nothing.  Any other damage is left for the refusal."""
    problems = [row[0] for row in db.execute("PRAGMA integrity_check(20)")]
    if not problems or not all(_INDEX_ONLY.match(str(p)) for p in problems):
        return False
    try:
        db.execute("REINDEX log_tx")
    except sqlite3.Error:
        return False
    return bool(db.execute("PRAGMA integrity_check(1)").fetchone()[0] == "ok")


def _small_pages(db: sqlite3.Connection) -> None:
    """Rewrite an earlier version's file (4 KB pages, its first events 28 KB in) with the
    small pages new files use, the log's pages in order, so a copy of it cut short keeps
    its events from the first kilobytes on.  Tried once, without waiting: a file another
    program holds stays as it is (nothing in it changes meaning either way)."""
    if db.execute("PRAGMA page_size").fetchone()[0] == PAGE_SIZE:
        return
    db.execute("PRAGMA busy_timeout = 0")
    try:
        db.execute(f"PRAGMA page_size = {PAGE_SIZE}")
        db.execute("VACUUM")
    except sqlite3.Error:
        pass
    finally:
        db.execute("PRAGMA busy_timeout = 2000")


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
    """Low-level access to one session file.  Knows nothing about games.

    Every SQLite failure leaves here as a SessionFileError said for a player (see
    `storage_error`); callers never see a raw `sqlite3` exception.
    """

    def __init__(self, path: Path, db: sqlite3.Connection) -> None:
        self.path = path
        self.db = db
        # True while the file is still in WAL mode (an older version's file another program
        # holds open): then every command is checkpointed into the main file at once
        self.checkpoint_each = _in_wal(db)

    # -- opening -----------------------------------------------------------------------

    @classmethod
    def create(cls, path: Path, meta: Mapping[str, object]) -> Store:
        path = Path(path)
        if path.exists():
            raise SessionFileError(path, "already exists; choose another name")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise SessionStorageError(path, f"cannot be created ({exc.strerror})") from None
        try:
            db = _connect(path, create=True)
            db.execute(f"PRAGMA page_size = {PAGE_SIZE}")
            db.execute(f"PRAGMA journal_mode = {JOURNAL_MODE}")
            db.execute("PRAGMA synchronous = FULL")
            db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            db.executescript(_SCHEMA)
            db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        except _SQLITE_FAILURES as exc:
            raise storage_error(path, exc) from exc
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
        if path.is_dir():
            raise SessionFileError(path, "is a folder, not a session file")
        try:
            with open(path, "rb") as fh:
                head = fh.read(100)
        except PermissionError:
            raise SessionReadOnly(
                path, "may not be read by this app: the file's permissions keep it out"
            ) from None
        except OSError as exc:
            raise SessionStorageError(path, f"cannot be read ({exc.strerror})") from None
        if head[:16] != b"SQLite format 3\x00":
            if not head:
                raise SessionDamaged(path, "is empty: the save was never written", 0)
            raise SessionDamaged(
                path, "is not a Table Companion session (it is another kind of file)", 0
            )
        try:
            db = _connect(path, create=False)
        except _SQLITE_FAILURES as exc:
            raise storage_error(path, exc) from exc
        try:
            store = cls._checked(path, db)
        except _SQLITE_FAILURES as exc:
            db.close()
            raise storage_error(path, exc) from exc
        except BaseException:
            db.close()
            raise
        return store

    @classmethod
    def _checked(cls, path: Path, db: sqlite3.Connection) -> Store:
        db.execute("PRAGMA synchronous = FULL")
        version = db.execute("PRAGMA user_version").fetchone()[0]
        app_id = db.execute("PRAGMA application_id").fetchone()[0]
        if app_id != APPLICATION_ID:
            moves = count_recoverable(path)
            if moves:  # our log is in it: the header was overwritten
                raise SessionDamaged(path, "is damaged: its first bytes were overwritten", moves)
            raise SessionDamaged(path, "is a database, but not a Table Companion session", 0)
        if version > SCHEMA_VERSION:
            raise too_new(path, version)
        if (
            version < 1
            or not {"seq", "tx", "type", "data", "at"} <= _columns(db, "log")
            or not {"key", "value"} <= _columns(db, "meta")
        ):
            raise SessionDamaged(path, "is a database, but not a Table Companion session", 0)
        ok = db.execute("PRAGMA integrity_check(1)").fetchone()[0]
        if ok != "ok" and not _index_rebuilt(db):
            raise damaged(path)
        # only now, with the file known to be a sound session, is anything written to it
        if _leave_wal(db):
            _small_pages(db)
        store = cls(path, db)
        if version < SCHEMA_VERSION:
            store._migrate(version)
        return store

    def _migrate(self, version: int) -> None:
        backup = self.path.with_name(f"{self.path.name}.v{version}.bak")
        if not backup.exists():
            self.db.execute("PRAGMA wal_checkpoint(FULL)")
            try:
                self.backup_to(backup)
            except OSError:
                shutil.copy2(self.path, backup)
        with self.transaction():
            while version < SCHEMA_VERSION:
                MIGRATIONS[version](self.db)
                version += 1
                self.db.execute(f"PRAGMA user_version = {version}")

    def close(self) -> None:
        self.db.close()

    def backup_to(self, target: Path) -> None:
        """A consistent copy of the whole session through SQLite's backup API (WAL included)."""
        out = sqlite3.connect(target)
        try:
            self.db.backup(out)
            out.execute("PRAGMA journal_mode = DELETE")
        except _SQLITE_FAILURES as exc:
            raise storage_error(Path(target), exc) from exc
        finally:
            out.close()

    # -- writing -----------------------------------------------------------------------

    class _Tx:
        """One write transaction: BEGIN IMMEDIATE takes the write lock before anything is read,
        so what is decided inside it sees every other writer's commits and no one else's after."""

        def __init__(self, store: Store, mode: str = "IMMEDIATE") -> None:
            self.store = store
            self.mode = mode

        def __enter__(self) -> Store:
            try:
                self.store.db.execute(f"BEGIN {self.mode}")
            except _SQLITE_FAILURES as exc:
                raise storage_error(self.store.path, exc) from exc
            return self.store

        def __exit__(
            self,
            exc_type: type[BaseException] | None,
            exc: BaseException | None,
            tb: TracebackType | None,
        ) -> None:
            db = self.store.db
            if exc_type is None:
                try:
                    db.execute("COMMIT")
                except _SQLITE_FAILURES as err:
                    self._rollback()
                    raise storage_error(self.store.path, err) from err
                if self.store.checkpoint_each and self.mode == "IMMEDIATE":
                    self.store.committed()
                return
            self._rollback()
            if isinstance(exc, _SQLITE_FAILURES):
                raise storage_error(self.store.path, exc) from exc

        def _rollback(self) -> None:
            # SQLite may already have rolled back by itself when it could not go on
            if self.store.db.in_transaction:
                with contextlib.suppress(sqlite3.Error):
                    self.store.db.execute("ROLLBACK")

    def transaction(self) -> Store._Tx:
        return Store._Tx(self)

    def reading(self) -> contextlib.AbstractContextManager[Store]:
        """A read transaction: several queries see one moment of the file.  Inside a
        transaction already open (a command catching up under its write lock) the queries
        already see one moment, so nothing more is begun."""
        if self.db.in_transaction:
            return contextlib.nullcontext(self)
        return Store._Tx(self, "DEFERRED")

    def committed(self) -> None:
        """A write was committed to a file still in WAL mode: copy it into the main file now
        (and try again to leave WAL mode, once the other program has let go)."""
        self.checkpoint()
        if _leave_wal(self.db):
            self.checkpoint_each = False

    def checkpoint(self) -> None:
        """Copy committed pages from the write-ahead log into the main file.  The commit is
        already durable in the log, so a failure (a reader holds old pages) is not an error."""
        with contextlib.suppress(sqlite3.Error):
            self.db.execute("PRAGMA wal_checkpoint(FULL)").fetchall()

    def last_seq(self) -> int:
        return self._one("SELECT coalesce(max(seq), -1) FROM log")

    def last_tx(self) -> int:
        return self._one("SELECT coalesce(max(tx), -1) FROM log")

    def _one(self, sql: str) -> int:
        try:
            value: int = self.db.execute(sql).fetchone()[0]
            return value
        except _SQLITE_FAILURES as exc:
            raise storage_error(self.path, exc) from exc

    def append(self, tx: int, events: Iterable[tuple[str, dict[str, object]]]) -> list[Row]:
        """Append events as transaction `tx`; call inside `transaction()`."""
        now = time.time()
        rows = []
        seq = self.last_seq()
        for etype, data in events:
            seq += 1
            rows.append(Row(seq, tx, etype, data, now))
        self.insert(rows)
        return rows

    def insert(self, rows: Iterable[Row]) -> None:
        """Write rows exactly as given, each with its checksum; call inside `transaction()`."""
        values = []
        for r in rows:
            text = _encode(r.data).decode()
            values.append(
                (r.seq, r.tx, r.type, text, r.at, event_sum(r.seq, r.tx, r.type, text, r.at))
            )
        self.db.executemany(
            "INSERT INTO log (seq, tx, type, data, at, sum) VALUES (?, ?, ?, ?, ?, ?)", values
        )

    def set_meta(self, key: str, value: object) -> None:
        text = json.dumps(value)
        self.db.execute(
            "INSERT INTO meta (key, value, sum) VALUES (?, ?, ?) "
            "ON CONFLICT(key) DO UPDATE SET value = excluded.value, sum = excluded.sum",
            (key, text, meta_sum(key, text)),
        )

    def put_snapshot(self, tx: int, rules: str, state: bytes) -> None:
        self.db.execute(
            "INSERT OR REPLACE INTO snapshots (tx, rules, state) VALUES (?, ?, ?)",
            (tx, rules, state.decode()),
        )

    def drop_snapshots(self) -> None:
        """Forget every snapshot (written by other rules); call inside `transaction()`."""
        self.db.execute("DELETE FROM snapshots")

    # -- reading -----------------------------------------------------------------------

    def _query(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        try:
            return self.db.execute(sql, params).fetchall()
        except _SQLITE_FAILURES as exc:
            raise storage_error(self.path, exc) from exc

    def meta(self) -> dict[str, object]:
        out: dict[str, object] = {}
        for key, value, check in self._query("SELECT key, value, sum FROM meta"):
            if not isinstance(key, str) or not isinstance(value, str):
                raise SessionDamaged(
                    self.path, "a record is unreadable", count_recoverable(self.path)
                )
            try:
                if check != meta_sum(key, value):
                    raise ValueError
                out[key] = json.loads(value)
            except ValueError:
                raise SessionDamaged(
                    self.path,
                    f"its '{_safe(key)}' record is unreadable (changed after it was saved)",
                    count_recoverable(self.path),
                ) from None
        return out

    def _row(self, seq: Any, tx: Any, etype: Any, data: Any, at: Any, check: Any) -> Row:
        """One stored event, refused by name if it is not exactly what was written."""
        try:
            if check != event_sum(seq, tx, etype, data, at):
                raise ValueError
            value = _decode(data)
            if not isinstance(value, dict):
                raise ValueError
        except (ValueError, TypeError, msgspec.DecodeError):
            raise SessionDamaged(
                self.path,
                f"event {seq} is unreadable (it was changed after it was saved)",
                count_recoverable(self.path),
            ) from None
        return Row(seq, tx, etype, value, at)

    def rows(self, after_tx: int = -1) -> Iterator[Row]:
        expected: int | None = 0 if after_tx < 0 else None
        for fields in self._query(
            "SELECT seq, tx, type, data, at, sum FROM log WHERE tx > ? ORDER BY seq", (after_tx,)
        ):
            row = self._row(*fields)
            if expected is not None and row.seq != expected:
                raise SessionDamaged(
                    self.path, f"event {expected} is missing", count_recoverable(self.path)
                )
            expected = row.seq + 1
            yield row

    def tx_rows(self, tx: int) -> list[Row]:
        found = self._query(
            "SELECT seq, tx, type, data, at, sum FROM log WHERE tx = ? ORDER BY seq", (tx,)
        )
        rows = [self._row(*fields) for fields in found]
        if any(r.tx != tx for r in rows):
            raise SessionDamaged(self.path, "its index is damaged", count_recoverable(self.path))
        return rows

    def tx_heads(self) -> list[tuple[int, str, dict[str, object]]]:
        """The first event of every transaction: enough to work out undo and redo."""
        found = self._query(
            "SELECT l.seq, l.tx, l.type, l.data, l.at, l.sum FROM log l "
            "JOIN (SELECT min(seq) AS s FROM log GROUP BY tx) f ON l.seq = f.s ORDER BY l.tx"
        )
        heads = [self._row(*fields) for fields in found]
        return [(r.tx, r.type, r.data) for r in heads]

    def snapshots(self) -> list[tuple[int, str]]:
        return [
            (tx, rules)
            for tx, rules in self._query("SELECT tx, rules FROM snapshots ORDER BY tx DESC")
        ]

    def snapshot(self, tx: int) -> bytes | None:
        found = self._query("SELECT state FROM snapshots WHERE tx = ?", (tx,))
        if not found or not isinstance(found[0][0], str):
            return None
        return found[0][0].encode()


def too_new(path: Path, version: int) -> SessionTooNew:
    return SessionTooNew(
        path,
        f"was saved by a newer Table Companion (log version {version}; this app "
        f"reads up to {SCHEMA_VERSION}). Update the app to open it",
    )


def _safe(text: str) -> str:
    return text.encode("unicode_escape").decode("ascii")[:40]


def recover(path: Path) -> Recovered[Row]:
    """What can be read from a damaged file: the complete transactions from the start, in
    order (a gap ends them), and how many moves came back and were lost.

    Reads the file page by page, whether or not SQLite still opens it (see recovery.py).
    """
    meta, found = scan(path)
    rows = [Row(seq, *found[seq]) for seq in complete_run(found)]
    last_tx = rows[-1].tx if rows else -1
    newest = max((tx for tx, *_ in found.values()), default=-1)
    moves = len({r.tx for r in rows}) - (1 if rows else 0)
    return Recovered(meta, rows, moves, max(0, newest - last_tx), cut_short(path))


def recover_rows(path: Path) -> tuple[dict[str, object], list[Row]]:
    """The meta records and the events of the complete transactions `recover` finds."""
    found = recover(path)
    return found.meta, found.rows


def count_recoverable(path: Path) -> int:
    """How many moves a damaged file still yields, read without writing to it."""
    try:
        found = recover(path)
    except OSError:
        return 0
    return found.moves if "game" in found.meta and found.rows else 0
