"""`session recover` on files cut short at every kilobyte (issue 26, part 4).

A file cut short loses its last pages, but the log's rows may sit on any page, so what
survives is read page by page.  The truth to compare with comes from SQLite itself, on
the whole file before the cut: its `dbstat` table says on which pages every row of the
log lies (leaf and overflow pages alike).  For every cut, recover must get back exactly
the complete transactions at the start whose pages all survived, the same rows as saved,
in a session that opens, and say how many moves came back and how many were lost.
"""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from companion.core.library import Library
from companion.core.recovery import LAST_EVENTS
from companion.core.session import Session
from companion.core.store import SessionDamaged
from companion.core.transfer import recover_session
from tests.core.helpers import log_rows, tiny_session

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "sessions"


def _pages_of_rows(path: Path) -> tuple[int, dict[int, int]]:
    """The page size, and for each event the last page it needs (its leaf or overflow)."""
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        page_size = db.execute("PRAGMA page_size").fetchone()[0]
        found = db.execute(
            "SELECT path, pageno, pagetype, ncell FROM dbstat WHERE name = 'log' ORDER BY path"
        ).fetchall()
    finally:
        db.close()
    leaves = [(p, n, cells) for p, n, kind, cells in found if kind == "leaf"]
    overflow: dict[tuple[str, int], int] = {}
    for p, n, kind, _cells in found:
        if kind == "overflow":
            leaf, _, rest = p.rpartition("/")
            cell = int(rest.split("+")[0], 16)
            key = (leaf + "/", cell)
            overflow[key] = max(overflow.get(key, 0), n)
    need: dict[int, int] = {}
    seq = 0
    for leaf, page, cells in leaves:
        for cell in range(cells):
            need[seq] = max(page, overflow.get((leaf, cell), 0))
            seq += 1
    return page_size, need


def _expected(rows: list[tuple], need: dict[int, int], pages: int) -> int:
    """How many events recover must give back when the first `pages` pages survive."""
    run = 0
    while run < len(rows) and need[run] <= pages:
        run += 1
    while run and (rows[run - 1][2] not in LAST_EVENTS and run > 1):
        run -= 1
    if run and run < len(rows) and rows[run][1] == rows[run - 1][1]:
        run = 0  # unreachable: a transaction whose last event is missing is never kept
    return run


def _check_cuts(original: Path, tmp_path: Path) -> dict[str, int]:
    with Session.open(original) as s:
        rows = log_rows(s)
    page_size, need = _pages_of_rows(original)
    data = original.read_bytes()
    lib = Library(tmp_path / "lib")
    outcome = {"cuts": 0, "nothing": 0, "moves back": 0}
    for cut in [*range(1024, len(data), 1024), *range(1024 + 517, len(data), 4096)]:
        outcome["cuts"] += 1
        path = tmp_path / f"cut{cut}.session"
        path.write_bytes(data[:cut])
        want = _expected(rows, need, cut // page_size)
        try:
            new_id, found = recover_session(path, lib)
        except SessionDamaged as exc:
            assert want <= 1, f"cut at {cut}: {exc} (expected {want} events)"
            assert "nothing that can be recovered" in str(exc)
            outcome["nothing"] += 1
            continue
        assert [(r.seq, r.tx, r.type, r.data) for r in found.rows] == rows[:want], cut
        with lib.open(new_id) as rescued:
            assert log_rows(rescued) == rows[:want]
        moves = len({r[1] for r in rows[:want]}) - 1
        all_moves = len({r[1] for r in rows}) - 1
        assert found.moves == moves
        assert found.cut_short
        assert found.moves + found.lost <= all_moves
        assert f"{moves} move(s) came back" in found.words
        outcome["moves back"] += found.moves
        assert path.read_bytes() == data[:cut]  # the damaged file is never written
    return outcome


def test_a_new_file_cut_at_every_kilobyte(tmp_path):
    s = tiny_session(tmp_path, "played")
    i = 0
    while s.path.stat().st_size < 64 * 1024:
        if i % 7 == 3:
            s.do("roll")
            s.answer([1 + i % 5])
        elif i % 29 == 11:  # a correction too big for one page: its row spills over
            s.correct("names", {"a": i, "b": 0, **{f"player number {n:03}": n for n in range(60)}})
        elif i % 31 == 13:
            s.do("add", {"n": 2})
            s.undo()
        else:
            s.do("add", {"n": 1 + i % 3})
        i += 1
    s.close()
    outcome = _check_cuts(tmp_path / "played.session", tmp_path)
    assert outcome["nothing"] <= 8  # only the first pages (schema, records, roots) are lost
    print(f"new file cut at every 1 KB: {outcome}")


@pytest.mark.parametrize("saved", ["kradia-0.2", "direwild-0.2", "hexplore-0.2"])
def test_an_earlier_versions_file_cut_at_every_kilobyte(saved, tmp_path):
    original = tmp_path / f"{saved}.session"
    shutil.copy(FIXTURES / f"{saved}.session", original)
    with Session.open(original):
        pass  # as the app leaves it: migrated, out of WAL mode
    outcome = _check_cuts(original, tmp_path)
    print(f"{saved} cut at every 1 KB: {outcome}")
