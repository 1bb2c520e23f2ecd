"""Paths: idle trail walks, active and priority hunts, knockback, and hero moves.

Everything here is a pure function of the geometry and who stands where, returning the
exact squares walked (start first) so the rules can record them and a screen can draw them.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field

from companion.games.direwild.board import OPPOSITE, STAGING, Geometry

UNREACHABLE = 1 << 30


@dataclass
class Walk:
    path: list[str]
    activates: bool = False
    target: str | None = None  # the hero an active enemy went for
    mode: str = "stay"  # stay | trail | hunt | priority
    through: list[str] = field(default_factory=list)  # enemies passed through


def distances(geo: Geometry, goals: Iterable[str], blocked: set[str]) -> dict[str, int]:
    """Steps from every square to the nearest goal, never entering a blocked square."""
    dist: dict[str, int] = {}
    queue: deque[str] = deque()
    for g in goals:
        if g not in dist and g not in blocked:
            dist[g] = 0
            queue.append(g)
    steps = geo.steps
    while queue:
        sq = queue.popleft()
        nd = dist[sq] + 1
        for _, n in steps[sq]:
            if n not in dist and n not in blocked:
                dist[n] = nd
                queue.append(n)
    return dist


def hero_goals(geo: Geometry, heroes: Iterable[str], taken: set[str]) -> set[str]:
    """Free squares from which an enemy would be adjacent to one of `heroes`."""
    out = set()
    for h in heroes:
        for _, n in geo.steps[h]:
            if n not in taken:
                out.add(n)
    return out


def descend(
    geo: Geometry, start: str, dist: dict[str, int], moves: int, others: set[str]
) -> list[str]:
    """Follow `dist` downhill, lowest combat number first; never end on another enemy."""
    path = [start]
    cur = start
    for _ in range(moves):
        here = dist.get(cur, UNREACHABLE)
        if here == 0:
            break
        for _, n in geo.steps[cur]:
            if dist.get(n, UNREACHABLE) == here - 1:
                cur = n
                break
        else:
            break
        path.append(cur)
    while len(path) > 1 and path[-1] in others:
        path.pop()  # enemies pass through each other but never share a square
    return path


def hunt(
    geo: Geometry,
    start: str,
    moves: int,
    heroes: dict[str, str],
    others: set[str],
    priority: str | None = None,
) -> Walk:
    """An active enemy's move: stay if engaged, else go for the closest (or priority) hero.

    `heroes` maps each hero on the board to its square; `others` are the squares of the
    other enemies.  Heroes block; enemies are passed through but not shared.
    """
    if not heroes:
        return Walk([start])
    hero_squares = set(heroes.values())
    taken = hero_squares | others
    if priority is not None and priority in heroes:
        target_sq = heroes[priority]
        if geo.adjacent(start, target_sq):
            return Walk([start], target=priority, mode="priority")
        dist = distances(geo, hero_goals(geo, [target_sq], taken), hero_squares)
        if dist.get(start, UNREACHABLE) <= moves:
            return Walk(descend(geo, start, dist, moves, others), target=priority, mode="priority")
    for name, sq in heroes.items():
        if geo.adjacent(start, sq):
            return Walk([start], target=name)
    dist = distances(geo, hero_goals(geo, hero_squares, taken), hero_squares)
    if start not in dist:
        return Walk([start])
    path = descend(geo, start, dist, moves, others)
    end = path[-1]
    target = next((n for n, sq in heroes.items() if geo.adjacent(end, sq)), None)
    if target is None:
        target = closest(geo, end, heroes)
    return Walk(path, target=target, mode="hunt")


def closest(geo: Geometry, square: str, heroes: dict[str, str]) -> str | None:
    best = None
    for name, sq in heroes.items():
        d = geo.distance(square, sq)
        if best is None or d < best[0]:
            best = (d, name)
    return best[1] if best else None


def trail_walk(
    geo: Geometry,
    trail: list[str],
    step: int,
    moves: int,
    heroes: set[str],
    others: set[str],
) -> tuple[Walk, int]:
    """An idle minion's patrol along its trail loop from `trail[step]`.

    It stops, activating, on the first free square adjacent to a hero.  Squares held by
    other enemies are passed through only if the move can finish on a free square; if any
    of them is next to a hero the minion activates on the free square after them.
    """
    start = trail[step]
    if any(geo.adjacent(start, h) for h in heroes):
        return Walk([start], activates=True, mode="trail"), step
    path, idx, used = [start], step, 0
    n = len(trail)
    while used < moves:
        # the run of occupied squares ahead, then the free square after it
        run: list[str] = []
        j = idx
        while True:
            j = (j + 1) % n
            sq = trail[j]
            if sq in heroes:
                return Walk(path, mode="trail"), idx
            if sq in others:
                run.append(sq)
                if len(run) >= n:
                    return Walk(path, mode="trail"), idx
                continue
            break
        cost = len(run) + 1
        if used + cost > moves:
            break
        path.extend(run)
        path.append(trail[j])
        used += cost
        idx = j
        if any(geo.adjacent(r, h) for r in run for h in heroes):
            return Walk(path, activates=True, mode="trail", through=run), idx
        if any(geo.adjacent(trail[j], h) for h in heroes):
            return Walk(path, activates=True, mode="trail", through=run), idx
    return Walk(path, mode="trail"), idx


def push(
    geo: Geometry, start: str, direction: str, amount: int, occupied: dict[str, str]
) -> tuple[list[str], str | None]:
    """Knockback: squares moved (start first) and what stopped it (edge, wall, a unit's id)."""
    path = [start]
    cur = start
    for _ in range(amount):
        nxt = geo.toward(cur, direction)
        if nxt is None:
            return path, "edge"
        if geo.wall_between(cur, nxt):
            return path, "wall"
        if nxt in occupied:
            return path, occupied[nxt]
        cur = nxt
        path.append(cur)
    return path, None


def away(geo: Geometry, source: str, target: str) -> str | None:
    """The direction directly away from `source`, seen from `target`."""
    d = geo.direction_of(source, target)
    if d is not None:
        return d
    return None


def hero_route(
    geo: Geometry,
    start: str,
    goal: str,
    entrance: list[str],
    enemies: set[str],
    heroes: set[str],
) -> list[str] | None:
    """A shortest hero path (start first), or None.  Heroes pass heroes, never enemies."""
    if goal in enemies or (goal in heroes and goal != start):
        return None
    prev = hero_tree(geo, start, entrance, enemies)
    if goal not in prev:
        return None
    path = [goal]
    while (back := prev[path[-1]]) is not None:
        path.append(back)
    return path[::-1]


def hero_reach(
    geo: Geometry, start: str, entrance: list[str], enemies: set[str], heroes: set[str]
) -> dict[str, int]:
    """Every square (or the staging area) a hero can end on, with its steps away."""
    prev = hero_tree(geo, start, entrance, enemies)
    steps: dict[str, int] = {start: 0}
    for sq in prev:  # breadth-first order: a square's parent is always measured first
        back = prev[sq]
        if back is not None:
            steps[sq] = steps[back] + 1
    return {sq: n for sq, n in steps.items() if sq == start or sq not in heroes}


def hero_tree(
    geo: Geometry, start: str, entrance: list[str], enemies: set[str]
) -> dict[str, str | None]:
    """Breadth-first from `start`: each reachable square and the one it is entered from.
    The staging area meets the entrance squares; enemies block, heroes can be passed."""
    prev: dict[str, str | None] = {start: None}
    queue: deque[str] = deque([start])
    while queue:
        sq = queue.popleft()
        nbrs = entrance if sq == STAGING else [n for _, n in geo.steps[sq]]
        if sq in entrance:
            nbrs = [*nbrs, STAGING]
        for n in nbrs:
            if n not in prev and n not in enemies:
                prev[n] = sq
                queue.append(n)
    return prev


def around(geo: Geometry, centre: str, taken: set[str]) -> str | None:
    """The closest free square to `centre`, ties by the combat square (Karn's altar)."""
    seen = {centre}
    queue: deque[str] = deque([centre])
    while queue:
        sq = queue.popleft()
        if sq not in taken:
            return sq
        for d in geo.order:
            n = geo.toward(sq, d)
            if n is not None and n not in seen:
                seen.add(n)
                queue.append(n)
    return None


__all__ = [
    "OPPOSITE",
    "Walk",
    "around",
    "away",
    "distances",
    "hero_route",
    "hunt",
    "push",
    "trail_walk",
]
