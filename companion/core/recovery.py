"""Reading what is left of a damaged session file, page by page.

A session file cut short (a full SD card, a copy interrupted) makes SQLite refuse the
whole database, even though most of the game is still on disk.  Because the log is
append-only and its rows are never updated, every leaf page of the `log` table that
survived holds valid events, wherever it sits in the file; we parse those pages directly
(the file format is documented and stable, and Python's sqlite3 offers no `.recover`),
following a row's overflow pages where it spilled over, and keep the unbroken run of
events from the start, ended at the last complete transaction: a gap ends it, and a
command is kept whole or not at all.
"""

from __future__ import annotations

import json
import struct
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Generic, TypeVar

import msgspec

from companion.core.checksums import event_sum, meta_sum
from companion.core.entries import (
    CardChecked,
    CommandDone,
    Corrected,
    Redone,
    RequestOpened,
    SessionStarted,
    Undone,
)

# A value of a record as SQLite stores it: null, integer, real, blob or text.
_Value = int | float | bytes | str | None

R = TypeVar("R")

META_KEYS = {"game", "packs", "define", "options", "summary"}


def _varint(buf: bytes, i: int) -> tuple[int, int]:
    value = 0
    for n in range(9):
        b = buf[i + n]
        if n == 8:
            return (value << 8) | b, i + 9
        value = (value << 7) | (b & 0x7F)
        if b < 0x80:
            return value, i + n + 1
    raise IndexError


def _record(payload: bytes) -> list[_Value]:
    header_len, i = _varint(payload, 0)
    types = []
    while i < header_len:
        t, i = _varint(payload, i)
        types.append(t)
    pos = header_len
    values: list[_Value] = []
    for t in types:
        if t == 0:
            values.append(None)
        elif 1 <= t <= 6:
            size = (1, 2, 3, 4, 6, 8)[t - 1]
            values.append(int.from_bytes(payload[pos : pos + size], "big", signed=True))
            pos += size
        elif t == 7:
            values.append(struct.unpack(">d", payload[pos : pos + 8])[0])
            pos += 8
        elif t in (8, 9):
            values.append(t - 8)
        elif t >= 12:
            size = (t - 12) // 2 if t % 2 == 0 else (t - 13) // 2
            raw = payload[pos : pos + size]
            if len(raw) < size:
                raise IndexError
            values.append(raw if t % 2 == 0 else raw.decode("utf-8"))
            pos += size
        else:
            raise ValueError("reserved serial type")
    return values


def _payload(pages: list[bytes], page: bytes, at: int, size: int, usable: int) -> bytes | None:
    """A table leaf cell's record, with the part that spilled onto overflow pages.

    None when an overflow page is missing (a file cut short) or the chain runs wrong."""
    max_local = usable - 35
    if size <= max_local:
        return page[at : at + size] if at + size <= len(page) else None
    min_local = (usable - 12) * 32 // 255 - 23
    local = min_local + (size - min_local) % (usable - 4)
    if local > max_local:
        local = min_local
    if at + local + 4 > len(page):
        return None
    parts = [page[at : at + local]]
    got = local
    nxt = struct.unpack(">I", page[at + local : at + local + 4])[0]
    seen: set[int] = set()
    while got < size:
        if nxt < 1 or nxt > len(pages) or nxt in seen:
            return None
        seen.add(nxt)
        over = pages[nxt - 1]
        take = min(usable - 4, size - got)
        parts.append(over[4 : 4 + take])
        got += take
        nxt = struct.unpack(">I", over[:4])[0]
    return b"".join(parts)


def _leaf_cells(
    pages: list[bytes], n: int, offset: int, usable: int
) -> Iterator[tuple[int, list[_Value]]]:
    """Yield (rowid, record values) for each cell of a table leaf page."""
    page = pages[n]
    if page[offset] != 0x0D:
        return
    count = struct.unpack(">H", page[offset + 3 : offset + 5])[0]
    for c in range(count):
        try:
            ptr = struct.unpack(">H", page[offset + 8 + 2 * c : offset + 10 + 2 * c])[0]
            size, i = _varint(page, ptr)
            rowid, i = _varint(page, i)
            payload = _payload(pages, page, i, size, usable)
            if payload is None:
                continue
            yield rowid, _record(payload)
        except (IndexError, ValueError, UnicodeDecodeError, struct.error):
            continue


def _wal_checksum(data: bytes, big: bool, s0: int, s1: int) -> tuple[int, int]:
    words = struct.unpack(f"{'>' if big else '<'}{len(data) // 4}I", data)
    for i in range(0, len(words), 2):
        s0 = (s0 + words[i] + s1) & 0xFFFFFFFF
        s1 = (s1 + words[i + 1] + s0) & 0xFFFFFFFF
    return s0, s1


def wal_pages(wal: bytes) -> dict[int, bytes]:
    """The newest committed copy of each page the write-ahead log holds.

    Frames are taken in order while their salts and running checksums hold (the WAL
    format's own test of what was committed), and kept only up to the last commit frame.
    """
    if len(wal) < 32:
        return {}
    magic, _version, page_size, _ckpt, salt1, salt2, c0, c1 = struct.unpack(">8I", wal[:32])
    if magic not in (0x377F0682, 0x377F0683) or page_size < 512 or page_size & (page_size - 1):
        return {}
    big = magic == 0x377F0683
    s0, s1 = _wal_checksum(wal[:24], big, 0, 0)
    if (s0, s1) != (c0, c1):
        return {}
    committed: dict[int, bytes] = {}
    pending: dict[int, bytes] = {}
    pos = 32
    while pos + 24 + page_size <= len(wal):
        number, commit, f1, f2, k0, k1 = struct.unpack(">6I", wal[pos : pos + 24])
        page = wal[pos + 24 : pos + 24 + page_size]
        if (f1, f2) != (salt1, salt2):
            break
        s0, s1 = _wal_checksum(wal[pos : pos + 8], big, s0, s1)
        s0, s1 = _wal_checksum(page, big, s0, s1)
        if (s0, s1) != (k0, k1):
            break
        pending[number] = page
        if commit:
            committed.update(pending)
            pending = {}
        pos += 24 + page_size
    return committed


def _pages(path: Path) -> tuple[list[bytes], int]:
    """The file's pages with the write-ahead log's committed pages laid over them."""
    data = Path(path).read_bytes()
    if len(data) < 100 or not data.startswith(b"SQLite format 3\x00"):
        return [], 0
    page_size = struct.unpack(">H", data[16:18])[0]
    page_size = 65536 if page_size == 1 else page_size
    if page_size < 512 or page_size & (page_size - 1):
        return [], 0
    pages = [data[n * page_size : (n + 1) * page_size] for n in range(len(data) // page_size)]
    wal_path = Path(str(path) + "-wal")
    if wal_path.exists():
        for number, page in wal_pages(wal_path.read_bytes()).items():
            if len(page) != page_size or number < 1:
                continue
            while len(pages) < number:
                pages.append(bytes(page_size))
            pages[number - 1] = page
    return pages, page_size - data[20]


_Found = tuple[int, str, dict[str, object], float, str, _Value]


# A log row found: its transaction, type, fields and time (the seq is its key).
_Kept = tuple[int, str, dict[str, object], float]


def _event(values: list[_Value]) -> _Found | None:
    """A log record's fields (seq is the rowid), its stored text and checksum (files of
    version 3 on), if its fields have the right types."""
    if len(values) not in (5, 6) or values[0] is not None:
        return None
    _, tx, etype, data, at, *check = values
    if not (
        isinstance(tx, int)
        and isinstance(etype, str)
        and isinstance(data, str)
        and isinstance(at, float)
    ):
        return None
    try:
        event = msgspec.json.decode(data)
    except msgspec.DecodeError:
        return None
    if not isinstance(event, dict):
        return None
    return tx, etype, event, at, data, check[0] if check else None


def scan(path: Path) -> tuple[dict[str, object], dict[int, _Kept]]:
    """Every log row and meta record still readable in the file's pages and its WAL."""
    meta: dict[str, object] = {}
    rows: dict[int, _Kept] = {}
    pages, usable = _pages(path)
    for n in range(len(pages)):
        for rowid, values in _leaf_cells(pages, n, 100 if n == 0 else 0, usable):
            found = _event(values)
            if found is not None:
                tx, etype, event, at, text, check = found
                if check is not None and check != event_sum(rowid, tx, etype, text, at):
                    continue
                rows.setdefault(rowid, (tx, etype, event, at))
            elif (
                len(values) in (2, 3)
                and isinstance(key := values[0], str)  # as every key of META_KEYS is
                and key in META_KEYS
                and isinstance(stored := values[1], str)
                and key not in meta
            ):
                if len(values) == 3 and values[2] != meta_sum(key, stored):
                    continue
                try:
                    meta[key] = json.loads(stored)
                except ValueError:
                    continue
    return meta, rows


def file_version(path: Path) -> int:
    """The log version written in the file's header (0 when it cannot be read)."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(64)
    except OSError:
        return 0
    if len(head) < 64 or not head.startswith(b"SQLite format 3\x00"):
        return 0
    value: int = struct.unpack(">I", head[60:64])[0]
    return value


# The last event of every kind of transaction: one that ends elsewhere was cut off.
LAST_EVENTS = frozenset(
    kind.__name__ for kind in (CommandDone, RequestOpened, Corrected, CardChecked, Undone, Redone)
)


@dataclass(frozen=True)
class Recovered(Generic[R]):
    """What `session recover` gets back from a damaged file, and what it cannot.  `R` is
    the store's row (store.Row), which this module reads pages for but does not know."""

    meta: dict[str, object]
    rows: list[R]  # every event of the complete transactions kept
    moves: int  # transactions after the new game's own
    lost: int  # transactions seen after the last kept one (at least this many lost)
    cut_short: bool  # the file is shorter than its header says: more may be lost

    @property
    def words(self) -> str:
        """How much came back and how much did not, for a player."""
        came = f"{self.moves} move(s) came back"
        if self.lost:
            return f"{came}, {'at least ' if self.cut_short else ''}{self.lost} move(s) were lost"
        if self.cut_short:
            return f"{came}; any made after them were cut off"
        return f"{came}, none lost"


def complete_run(found: dict[int, _Kept]) -> list[int]:
    """The seqs of the complete transactions in order from the start: a gap in the events
    or a transaction whose last event is missing ends it."""
    kept: list[int] = []
    seq = 0
    tx_start = 0
    current: int | None = None
    while seq in found:
        tx, etype, _data, _at = found[seq]
        if current is not None and tx != current:
            if tx < current:
                break  # out of order: what follows is not this file's history
            tx_start = seq
        current = tx
        last = seq + 1 not in found or found[seq + 1][0] != tx
        if last:
            if etype not in LAST_EVENTS and not (tx == 0 and etype == SessionStarted.__name__):
                break
            kept.extend(range(tx_start, seq + 1))
        seq += 1
    return kept


def cut_short(path: Path) -> bool:
    """True when the file holds fewer bytes than its header says it was saved with."""
    try:
        size = path.stat().st_size
        with open(path, "rb") as fh:
            head = fh.read(100)
    except OSError:
        return False
    if len(head) < 100 or not head.startswith(b"SQLite format 3\x00"):
        return False
    page_size = struct.unpack(">H", head[16:18])[0]
    page_size = 65536 if page_size == 1 else page_size
    pages: int = struct.unpack(">I", head[28:32])[0]
    return size < page_size * pages
