"""Enemy paths are always legal: properties checked on random boards with hypothesis."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.direwild import movement
from companion.games.direwild.board import build, square_name
from companion.games.direwild.schema import Board

SIZE = 7
SQUARES = [square_name(c, r) for r in range(SIZE) for c in range(SIZE)]


def walls_strategy():
    pairs = []
    for r in range(SIZE):
        for c in range(SIZE):
            if c + 1 < SIZE:
                pairs.append(f"{square_name(c, r)}|{square_name(c + 1, r)}")
            if r + 1 < SIZE:
                pairs.append(f"{square_name(c, r)}/{square_name(c, r + 1)}")
    return st.lists(st.sampled_from(pairs), max_size=14, unique=True)


def geometry(walls):
    return build(
        Board(
            id="direwild/board/h",
            land="redmill",
            size=f"{SIZE}x{SIZE}",
            entrance=["A7", "B7", "C7", "D7"],
            altar="D4",
            combat_square={"left": 1, "up": 2, "right": 3, "down": 4},
            walls=walls,
        )
    )


@settings(max_examples=150, deadline=None)
@given(
    walls=walls_strategy(),
    units=st.lists(st.sampled_from(SQUARES), min_size=3, max_size=6, unique=True),
    moves=st.integers(1, 6),
    priority=st.booleans(),
)
def test_hunt_paths_are_legal_and_never_longer_than_the_move(walls, units, moves, priority):
    geo = geometry(walls)
    start, *rest = units
    heroes = {f"h{i}": sq for i, sq in enumerate(rest[:2])}
    others = set(rest[2:])
    walk = movement.hunt(geo, start, moves, heroes, others, "h0" if priority else None)
    path = walk.path
    assert path[0] == start
    assert len(path) - 1 <= moves
    for a, b in zip(path, path[1:], strict=False):
        assert geo.adjacent(a, b), f"{a}->{b} is not a legal step"
        assert b not in heroes.values()
    assert path[-1] == start or path[-1] not in others
    if any(geo.adjacent(start, h) for h in heroes.values()) and not priority:
        assert path == [start]


@settings(max_examples=150, deadline=None)
@given(
    walls=walls_strategy(),
    units=st.lists(st.sampled_from(SQUARES), min_size=2, max_size=4, unique=True),
    moves=st.integers(1, 6),
)
def test_the_closest_hero_is_reached_by_a_shortest_path(walls, units, moves):
    geo = geometry(walls)
    start, *heroes = units
    named = {f"h{i}": sq for i, sq in enumerate(heroes)}
    walk = movement.hunt(geo, start, moves, named, set())
    goals = movement.hero_goals(geo, heroes, set(heroes))
    dist = movement.distances(geo, goals, set(heroes))
    if start in dist and dist[start] <= moves and not any(geo.adjacent(start, h) for h in heroes):
        assert len(walk.path) - 1 == dist[start]
        assert any(geo.adjacent(walk.path[-1], h) for h in heroes)


TRAIL = ["B2", "C2", "D2", "E2", "E3", "E4", "D4", "C4", "B4", "B3"]


@settings(max_examples=200, deadline=None)
@given(
    step=st.integers(0, len(TRAIL) - 1),
    moves=st.integers(1, 6),
    heroes=st.lists(st.sampled_from(SQUARES), max_size=2, unique=True),
    others=st.lists(st.sampled_from(TRAIL), max_size=3, unique=True),
)
def test_idle_minions_stay_on_their_trail_and_never_end_on_a_unit(step, moves, heroes, others):
    geo = geometry([])
    hs = set(heroes) - set(others) - {TRAIL[step]}
    os_ = set(others) - {TRAIL[step]}
    walk, idx = movement.trail_walk(geo, TRAIL, step, moves, hs, os_)
    assert walk.path[0] == TRAIL[step]
    assert all(sq in TRAIL for sq in walk.path)
    assert len(walk.path) - 1 <= moves
    assert walk.path[-1] == TRAIL[idx]
    assert walk.path[-1] == TRAIL[step] or walk.path[-1] not in os_ | hs
    if not walk.activates and len(walk.path) > 1:
        # a minion that did not activate never stood free next to a hero on the way
        for sq in walk.path[1:]:
            if sq not in os_:
                assert not any(geo.adjacent(sq, h) for h in hs)


def test_knockback_stops_at_walls_edges_and_units():
    geo = geometry(["D4|E4"])
    assert movement.push(geo, "B4", "right", 3, {}) == (["B4", "C4", "D4"], "wall")
    assert movement.push(geo, "B4", "left", 3, {}) == (["B4", "A4"], "edge")
    assert movement.push(geo, "B4", "up", 3, {"B2": "red"}) == (["B4", "B3"], "red")
    assert movement.push(geo, "B4", "down", 2, {}) == (["B4", "B5", "B6"], None)


def test_heroes_pass_heroes_but_not_enemies_and_enter_from_staging():
    geo = geometry([])
    entrance = ["A7", "B7", "C7", "D7"]
    route = movement.hero_route(geo, "staging", "B5", entrance, set(), set())
    assert route == ["staging", "B7", "B6", "B5"]
    assert movement.hero_route(geo, "B7", "B5", entrance, set(), {"B6"}) == ["B7", "B6", "B5"]
    assert movement.hero_route(geo, "B7", "B5", entrance, {"B6"}, set()) == [
        "B7",
        "A7",
        "A6",
        "A5",
        "B5",
    ]
    assert movement.hero_route(geo, "B7", "B5", entrance, {"B5"}, set()) is None
