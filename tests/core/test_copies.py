"""A `.session` file copied alone, at any moment of play, holds every acknowledged move
(issue 26, part 4).

A person copies the file while the app runs (a file manager, `adb pull`, a cloud folder),
and never the files beside it.  Here a second thread copies the file at random moments
while commands run in the first; every copy must hold at least every move whose command
had returned before the copy began.  A copy opens with them, the rare copy read during
the instant SQLite writes the next move's pages into the file (a page of the log and one
of its index from different moments) too, its index rebuilt from the whole log; should a
copy still be refused, `session recover` must get every acknowledged move back from it.  With the write-ahead log of earlier versions the
copy held none of the moves still in `FILE-wal`.
"""

from __future__ import annotations

import random
import shutil
import sqlite3
import threading
import time

from companion.core.library import Library
from companion.core.session import Session
from companion.core.store import SessionDamaged
from companion.core.transfer import recover_session
from tests.core.helpers import log_rows, tiny_session

MOVES = 60


def test_copies_taken_during_play_hold_every_acknowledged_move(tmp_path):
    s = tiny_session(tmp_path, "live")
    acked = {"events": len(log_rows(s)), "score": 0}
    copies: list[tuple[int, int, str]] = []
    done = threading.Event()

    def copier() -> None:
        rng = random.Random(26)
        n = 0
        while not done.is_set():
            events, score = acked["events"], acked["score"]
            target = tmp_path / f"copy{n}.session"
            shutil.copyfile(s.path, target)
            copies.append((events, score, target.name))
            n += 1
            time.sleep(rng.random() * 0.004)

    thread = threading.Thread(target=copier)
    thread.start()
    try:
        for i in range(MOVES):
            if i % 7 == 3:
                s.do("roll")
                s.answer([1 + i % 5])
            else:
                s.do("add", {"n": 1})
            acked["events"], acked["score"] = len(log_rows(s)), s.to_json()["score"]
    finally:
        done.set()
        thread.join()
    final = log_rows(s)
    s.close()
    assert len(copies) >= 10, "the copier ran too rarely to test anything"
    short, torn = [], []
    lib = Library(tmp_path / "lib")
    for events, score, name in copies:
        try:
            with Session.open(tmp_path / name) as copy:
                rows = log_rows(copy)
                if len(rows) < events or copy.to_json()["score"] < score:
                    short.append(name)
        except SessionDamaged:  # read while a later move was being written
            torn.append(name)
            new_id, found = recover_session(tmp_path / name, lib)
            rows = [(r.seq, r.tx, r.type, r.data) for r in found.rows]
            if len(rows) < events:
                short.append(name)
        assert rows == final[: len(rows)]
    print(f"{len(copies)} copies taken during play: {len(torn)} read mid-write, {len(short)} short")
    assert short == [], f"{len(short)} of {len(copies)} copies lost acknowledged moves"


def test_a_copy_read_mid_write_opens_with_its_index_rebuilt(tmp_path):
    """The log's page from after a move and its index's page from before it, as a copy
    read during the write holds them: the file opens, with every move in the log."""
    s = tiny_session(tmp_path, "live")
    for _ in range(20):
        s.do("add", {"n": 1})
    before = s.path.read_bytes()
    s.do("add", {"n": 1})
    after = s.path.read_bytes()
    final = log_rows(s)
    s.close()
    db = sqlite3.connect(f"file:{s.path}?mode=ro", uri=True)
    index_pages = [n for (n,) in db.execute("SELECT pageno FROM dbstat WHERE name = 'log_tx'")]
    db.close()
    torn = bytearray(after)
    for n in index_pages:  # the index as it was before the last move
        torn[(n - 1) * 1024 : n * 1024] = before[(n - 1) * 1024 : n * 1024]
    assert bytes(torn) != after
    copy = tmp_path / "copy.session"
    copy.write_bytes(bytes(torn))
    with Session.open(copy) as opened:
        assert log_rows(opened) == final
        assert opened.to_json()["score"] == 21
