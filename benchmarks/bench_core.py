"""Session core: a command's full path, folding 10,000 events, resuming from a snapshot.

Floors measured in the same run: a bare SQLite insert-and-commit in the session file's own
journal mode and page size (rollback journal, synchronous=FULL, on the same disk) and
reading and parsing 2,000 JSON rows.  Targets (issue 2): command p99 <= 2 ms, fold of
10,000 events <= 150 ms, resume of a 10,000-event session from its snapshot <= 50 ms.
Issue 26: a command's p99 at most 1.5x the commit floor's p99 (no write-ahead log, so the
`.session` file alone holds every move); the two are timed turn about, so a busy machine
weighs on both alike.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("COMPANION_EXTRA_GAMES", "tests.fixtures.tinygame:GAME")
os.environ.setdefault("COMPANION_CONTENT_PATH", str(ROOT / "tests" / "fixtures" / "content"))

from companion.core import store as store_mod  # noqa: E402
from companion.core.session import Session  # noqa: E402
from companion.games import get_game  # noqa: E402


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * p))]


def ms(values: list[float]) -> str:
    return f"median {statistics.median(values) * 1e3:.3f} ms, p99 {pct(values, 0.99) * 1e3:.3f} ms"


RATIO_TARGET = 1.5  # command p99 against the bare commit's p99 (issue 26)


def _floor_db(folder: Path) -> sqlite3.Connection:
    """A bare table in the session file's own journal mode, page size and sync level."""
    db = sqlite3.connect(folder / "floor.db", isolation_level=None)
    db.execute(f"PRAGMA page_size={store_mod.PAGE_SIZE}")
    db.execute(f"PRAGMA journal_mode={store_mod.JOURNAL_MODE}")
    db.execute("PRAGMA synchronous=FULL")
    db.execute("CREATE TABLE t (seq INTEGER PRIMARY KEY, data TEXT)")
    return db


def _commit_once(db: sqlite3.Connection, i: int) -> float:
    t = time.perf_counter()
    db.execute("BEGIN IMMEDIATE")
    db.execute("INSERT INTO t VALUES (?, ?)", (i, '{"n": 1}'))
    db.execute("COMMIT")
    return time.perf_counter() - t


def floor_and_commands(folder: Path, n: int = 2000) -> tuple[list[float], list[float]]:
    """The bare commit and the session command (`do` alone), timed turn about."""
    db = _floor_db(folder)
    s = Session.create(folder / "pair.session", get_game("tiny"), {})
    floor, cmd = [], []
    for i in range(n):
        floor.append(_commit_once(db, i))
        t = time.perf_counter()
        s.do("add", {"n": 1 + i % 3})
        cmd.append(time.perf_counter() - t)
    s.close()
    db.close()
    return floor, cmd


def floor_parse(folder: Path) -> list[float]:
    db = sqlite3.connect(folder / "floor.db")
    out = []
    for _ in range(30):
        t = time.perf_counter()
        rows = [json.loads(r[0]) for r in db.execute("SELECT data FROM t LIMIT 2000")]
        out.append(time.perf_counter() - t)
    assert len(rows) == 2000
    db.close()
    return out


def commands(folder: Path, n: int = 2000) -> tuple[list[float], Path]:
    s = Session.create(folder / "cmd.session", get_game("tiny"), {})
    out = []
    for i in range(n):
        t = time.perf_counter()
        s.do("add", {"n": 1 + i % 3})
        s.to_json()
        out.append(time.perf_counter() - t)
    s.close()
    return out, folder / "cmd.session"


def build_long(folder: Path, events: int = 10_000) -> Path:
    path = folder / "long.session"
    s = Session.create(path, get_game("tiny"), {})
    while s.store.last_seq() < events:
        s.do("add", {"n": 1})
    s.close()
    return path


def fold(path: Path, runs: int = 15) -> list[float]:
    """Opening a copy of the session with its snapshots dropped, so every event is folded."""
    bare = path.with_name("no-snapshots.session")
    shutil.copyfile(path, bare)
    db = sqlite3.connect(bare)
    with db:
        db.execute("DELETE FROM snapshots")
    db.close()
    out = []
    for _ in range(runs):
        t = time.perf_counter()
        Session.open(bare).close()
        out.append(time.perf_counter() - t)
    return out


def resume(path: Path, runs: int = 15) -> list[float]:
    out = []
    for _ in range(runs):
        t = time.perf_counter()
        Session.open(path).close()
        out.append(time.perf_counter() - t)
    return out


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        ins, alone = floor_and_commands(folder)
        parse = floor_parse(folder)
        mode = f"{store_mod.JOURNAL_MODE}, FULL, {store_mod.PAGE_SIZE} B pages"
        print(f"floor: SQLite insert+commit ({mode}): {ms(ins)}")
        print(f"floor: read+parse 2,000 JSON rows: {ms(parse)}")
        ratio = pct(alone, 0.99) / pct(ins, 0.99)
        print(
            f"command (Session.do, timed turn about with the floor): {ms(alone)}   "
            f"p99 ratio {ratio:.2f}x the commit floor's p99 (target <= {RATIO_TARGET}x)"
            f"{'' if ratio <= RATIO_TARGET else '  OVER'}"
        )
        cmd, _ = commands(folder)
        print(
            f"command full path (rules, commit, new state): {ms(cmd)}   target p99 <= 2 ms; "
            f"p99 is {pct(cmd, 0.99) / pct(ins, 0.99):.1f}x the insert floor's p99"
        )
        path = build_long(folder)
        f = fold(path)
        print(
            f"fold 10,000 events (no snapshot): {ms(f)}   target <= 150 ms; "
            f"{statistics.median(f) / (5 * statistics.median(parse)):.1f}x reading 10,000 rows"
        )
        r = resume(path)
        print(f"resume 10,000-event session from its snapshot: {ms(r)}   target <= 50 ms")


if __name__ == "__main__":
    main()
