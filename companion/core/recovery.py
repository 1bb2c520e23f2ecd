"""Reading what is left of a damaged session file, page by page.

A session file cut short (a full SD card, a copy interrupted) makes SQLite refuse the
whole database, even though most of the game is still on disk.  Because the log is
append-only and its rows are never updated, every leaf page of the `log` table that
survived holds valid events; we parse those pages directly (the file format is
documented and stable) and keep the unbroken run of events from the start.
"""

from __future__ import annotations

import json
import struct
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec

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


def _record(payload: bytes) -> list[Any]:
    header_len, i = _varint(payload, 0)
    types = []
    while i < header_len:
        t, i = _varint(payload, i)
        types.append(t)
    pos = header_len
    values: list[Any] = []
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


def _leaf_cells(page: bytes, offset: int, usable: int) -> Iterator[tuple[int, list[Any]]]:
    """Yield (rowid, record values) for each cell of a table leaf page held locally."""
    if page[offset] != 0x0D:
        return
    count = struct.unpack(">H", page[offset + 3 : offset + 5])[0]
    max_local = usable - 35
    for c in range(count):
        try:
            ptr = struct.unpack(">H", page[offset + 8 + 2 * c : offset + 10 + 2 * c])[0]
            size, i = _varint(page, ptr)
            rowid, i = _varint(page, i)
            if size > max_local or i + size > len(page):
                continue  # spilled onto overflow pages: not worth chasing for a rescue
            yield rowid, _record(page[i : i + size])
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


_Found = tuple[int, str, dict[str, Any], float, str, Any]


def _event(values: list[Any]) -> _Found | None:
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


def scan(path: Path) -> tuple[dict[str, Any], dict[int, tuple[int, str, dict[str, Any], float]]]:
    """Every log row and meta record still readable in the file's pages and its WAL."""
    from companion.core.store import event_sum, meta_sum

    meta: dict[str, Any] = {}
    rows: dict[int, tuple[int, str, dict[str, Any], float]] = {}
    pages, usable = _pages(path)
    for n, page in enumerate(pages):
        for rowid, values in _leaf_cells(page, 100 if n == 0 else 0, usable):
            found = _event(values)
            if found is not None:
                tx, etype, event, at, text, check = found
                if check is not None and check != event_sum(rowid, tx, etype, text, at):
                    continue
                rows.setdefault(rowid, (tx, etype, event, at))
            elif (
                len(values) in (2, 3)
                and values[0] in META_KEYS
                and isinstance(values[1], str)
                and values[0] not in meta
            ):
                if len(values) == 3 and values[2] != meta_sum(values[0], values[1]):
                    continue
                try:
                    meta[values[0]] = json.loads(values[1])
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
