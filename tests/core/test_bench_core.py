"""`make bench`'s core benchmark still measures what it says (it broke once, silently, when
the Session split moved the fold it patched: nothing ran it but `make bench`)."""

from __future__ import annotations

from benchmarks import bench_core
from companion.core.session import Session
from tests.core.helpers import tiny_session


def test_the_fold_benchmark_folds_every_event_and_leaves_the_session_alone(tmp_path) -> None:
    with tiny_session(tmp_path) as s:
        for _ in range(5):
            s.do("add", {"n": 2})
        s.write_snapshot()
        path, state = s.path, s.to_json()
    assert len(bench_core.fold(path, runs=2)) == 2
    assert len(bench_core.resume(path, runs=2)) == 2
    bare = path.with_name("no-snapshots.session")
    with Session.open(bare) as folded, Session.open(path) as resumed:
        assert folded.store.snapshots() == []  # every event folded, none skipped
        assert resumed.store.snapshots() != []  # the original keeps its snapshot
        assert folded.to_json() == resumed.to_json() == state
