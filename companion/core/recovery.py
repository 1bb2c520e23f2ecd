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


def _leaf_cells(page: bytes, offset: int, usable: int):
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


def scan(path: Path) -> tuple[dict[str, Any], dict[int, tuple[int, str, dict[str, Any], float]]]:
    """Every log row and meta record still readable in the file's pages."""
    data = Path(path).read_bytes()
    meta: dict[str, Any] = {}
    rows: dict[int, tuple[int, str, dict[str, Any], float]] = {}
    if len(data) < 100 or not data.startswith(b"SQLite format 3\x00"):
        return meta, rows
    page_size = struct.unpack(">H", data[16:18])[0]
    page_size = 65536 if page_size == 1 else page_size
    usable = page_size - data[20]
    for n in range(len(data) // page_size):
        page = data[n * page_size : (n + 1) * page_size]
        for rowid, values in _leaf_cells(page, 100 if n == 0 else 0, usable):
            if (
                len(values) == 5
                and values[0] is None
                and isinstance(values[1], int)
                and isinstance(values[2], str)
                and isinstance(values[3], str)
                and isinstance(values[4], float)
            ):
                try:
                    event = msgspec.json.decode(values[3])
                except msgspec.DecodeError:
                    continue
                if isinstance(event, dict):
                    rows.setdefault(rowid, (values[1], values[2], event, values[4]))
            elif (
                len(values) == 2
                and values[0] in META_KEYS
                and isinstance(values[1], str)
                and values[0] not in meta
            ):
                try:
                    meta[values[0]] = json.loads(values[1])
                except ValueError:
                    continue
    return meta, rows
