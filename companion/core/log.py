"""A session's append-only event log: its transactions, which of them make up the game
(the chain), and the snapshots that spare a long game its fold.  No rules here.

Every accepted command is one transaction.  Its first row (core/entries.py) says what kind
of transaction it is; undo and redo delete nothing, they choose which transactions make up
the history, so they survive a restart and can themselves be undone by redo.  The rows
are read once and kept by transaction; the store (core/store.py) holds the SQL.
"""

from __future__ import annotations

import contextlib
import hashlib
import sqlite3
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.core import entries
from companion.core import store as store_mod
from companion.core.entries import Entry, Redone, SessionStarted, Undone
from companion.core.store import Row, SessionDamaged, SessionFileError, Store

SNAPSHOT_EVERY = 200  # chain transactions between snapshots written to the file


def digest(blob: bytes) -> str:
    return hashlib.blake2b(blob, digest_size=8).hexdigest()


@dataclass
class Chain:
    """Which transactions make up the history, worked out from undo and redo alone."""

    alive: list[int] = field(default_factory=list)
    redo: list[int] = field(default_factory=list)

    def add(self, tx: int, head: Entry | None) -> None:
        if isinstance(head, Undone):
            if self.alive and self.alive[-1] == head.tx:
                self.redo.append(self.alive.pop())
        elif isinstance(head, Redone):
            if self.redo and self.redo[-1] == head.tx:
                self.alive.append(self.redo.pop())
        else:
            self.alive.append(tx)
            if not isinstance(head, SessionStarted):
                self.redo.clear()


class Log:
    """One session file's log.  `last_seq` is the newest row this process has read: a
    store holding more means another program wrote since (`behind`)."""

    def __init__(self, store: Store, meta: dict[str, Any]) -> None:
        self.store = store
        self.meta = meta
        self.chain = Chain()
        self.last_seq = -1
        self._rows: dict[int, list[Row]] = {}
        self.stale = False  # a snapshot of other rules, or changed on disk, was met

    @property
    def path(self) -> Path:
        return self.store.path

    @classmethod
    def create(cls, path: Path, meta: dict[str, Any], started: SessionStarted, summary: str) -> Log:
        """A new file holding `meta` and its first transaction."""
        log = cls(Store.create(path, meta), meta)
        with log.store.transaction():
            rows = log.store.append(0, [entries.written(started)])
            log.write_summary(summary)
        log.committed(0, rows, started)
        return log

    @classmethod
    def open(cls, path: Path) -> Log:
        """An existing file, its meta read and checked; the caller closes it on failure."""
        store = Store.open(path)
        try:
            meta = store.meta()
            if "game" not in meta:
                raise SessionDamaged(path, "has no game record", store_mod.count_recoverable(path))
        except BaseException:
            store.close()
            raise
        return cls(store, meta)

    def close(self) -> None:
        self.store.close()

    def transaction(self) -> Store._Tx:
        return self.store.transaction()

    def reading(self) -> contextlib.AbstractContextManager[Store]:
        return self.store.reading()

    # -- reading -------------------------------------------------------------------------

    def heads(self) -> list[tuple[int, Entry | None]]:
        """Every transaction's first row, as the core's entry, with the chain they make."""
        self.chain = Chain()
        found: list[tuple[int, Entry | None]] = []
        for tx, head, data in self.store.tx_heads():
            try:
                entry = entries.read(head, data)
            except ValueError as exc:
                raise SessionDamaged(
                    self.path, f"its events no longer fit the rules ({exc})", len(found)
                ) from exc
            self.chain.add(tx, entry)
            found.append((tx, entry))
        return found

    def rows(self, tx: int) -> list[Row]:
        """One transaction's rows, read from the file once."""
        rows = self._rows.get(tx)
        if rows is None:
            rows = self.store.tx_rows(tx)
            self._rows[tx] = rows
        return rows

    def head(self, tx: int) -> Entry | None:
        """The entry that says what transaction `tx` is."""
        row = self.rows(tx)[0]
        return entries.read(row.type, row.data)

    def read_after(self, first_tx: int, wanted: set[int]) -> int:
        """Read the rows of the transactions `wanted` after `first_tx` in one pass; how
        many transactions are held."""
        for row in self.store.rows(after_tx=first_tx):
            self.last_seq = row.seq
            if row.tx in wanted:
                self._rows.setdefault(row.tx, []).append(row)
        self.last_seq = max(self.last_seq, self.store.last_seq())
        return len(self._rows)

    def behind(self) -> bool:
        """Whether another program appended since this one last read or wrote."""
        return self.store.last_seq() != self.last_seq

    def forget(self) -> None:
        self._rows.clear()

    # -- writing -------------------------------------------------------------------------

    def append(self, rows: Iterable[tuple[str, dict[str, object]]]) -> tuple[int, list[Row]]:
        """Append one transaction; call inside `transaction()`."""
        tx = self.store.last_tx() + 1
        return tx, self.store.append(tx, rows)

    def committed(self, tx: int, rows: list[Row], head: Entry) -> None:
        """The transaction `tx` is in the file: keep its rows and follow its head."""
        self._rows[tx] = rows
        self.last_seq = rows[-1].seq
        self.chain.add(tx, head)

    def write_summary(self, text: str) -> None:
        self.store.set_meta("summary", text)

    # -- snapshots -----------------------------------------------------------------------

    def snapshots(self, rules: str) -> Iterator[tuple[int, bytes]]:
        """The snapshots of `rules` on the chain, newest first, each as stored.  One of
        other rules, or changed on disk, is skipped and marks the log `stale`."""
        self.stale = False
        position = set(self.chain.alive)
        for tx, key in self.store.snapshots():
            written_by, _, blob_digest = key.partition("#")
            if written_by != rules or tx not in position:
                self.stale = self.stale or written_by != rules
                continue
            blob = self.store.snapshot(tx) or b""
            if blob_digest != digest(blob):
                self.stale = True
                continue  # a changed snapshot is only a damaged cache: fold instead
            yield tx, blob

    def put_snapshot(self, tx: int, rules: str, blob: bytes) -> None:
        """Stored with the rules' fingerprint and the blob's own digest, so a snapshot of
        other rules, or one changed on disk, is never trusted; call inside a transaction."""
        self.store.put_snapshot(tx, f"{rules}#{digest(blob)}", blob)

    def replace_snapshots(self, tx: int, rules: str, blob: bytes) -> None:
        """Snapshots other rules wrote are dropped and one of today's state written.

        A file opened read-only keeps its old snapshots: they are never used anyway.
        """
        try:
            with self.store.transaction():
                self.store.drop_snapshots()
                self.put_snapshot(tx, rules, blob)
        except (sqlite3.Error, SessionFileError):
            pass  # read-only or locked: the stale snapshots are never used anyway
        self.stale = False

    def snapshot_due(self) -> bool:
        return len(self.chain.alive) % SNAPSHOT_EVERY == 0
