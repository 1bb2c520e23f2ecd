"""`make bench`'s HEXplore benchmark still plays its combat through a real session (it
broke once, silently, when corrections were bounded at 9,999: nothing ran it but `make bench`)."""

from __future__ import annotations

from benchmarks import bench_hexplore
from companion.games import get_game, load_game_content


def test_the_session_benchmark_plays_its_rounds() -> None:
    game = get_game("hexplore")
    assert len(bench_hexplore.bench_session(game, load_game_content(game), rounds=3)) == 3
