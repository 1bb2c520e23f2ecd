"""Land-board geometry: squares, walls, adjacency and the combat square's order.

A board is parsed once into a `Geometry` (neighbour lists already in combat-square order)
and memoised by content id and object, because every enemy's path search needs it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Protocol


class Board(Protocol):
    """What the geometry reads of a land board (`schema.Board`, whose checks call
    `check_board`): declared here as a shape, so the schema and the geometry do not import
    each other in a circle."""

    id: str
    size: str
    entrance: list[str]
    altar: str
    combat_square: dict[str, int]
    spawns: dict[str, str]
    treasures: list[str]
    walls: list[str]
    trails: dict[str, list[str]]


LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
DIRECTIONS: dict[str, tuple[int, int]] = {
    "left": (-1, 0),
    "up": (0, -1),
    "right": (1, 0),
    "down": (0, 1),
}
OPPOSITE = {"left": "right", "right": "left", "up": "down", "down": "up"}
SLOTS = ("red", "blue", "green", "black")
STAGING = "staging"
_SQUARE = re.compile(r"^([A-Z])([1-9][0-9]?)$")
_SIZE = re.compile(r"^([1-9][0-9]?)x([1-9][0-9]?)$")


class BoardError(ValueError):
    """A board file that does not describe a legal board; the message names the square."""


def parse_square(text: str) -> tuple[int, int]:
    """`C4` -> (2, 3): zero-based column and row."""
    m = _SQUARE.match(str(text).strip().upper())
    if not m:
        raise BoardError(f"'{text}' is not a square (write a column letter and a row, e.g. C4)")
    return LETTERS.index(m.group(1)), int(m.group(2)) - 1


def square_name(col: int, row: int) -> str:
    return f"{LETTERS[col]}{row + 1}"


def parse_size(text: str) -> tuple[int, int]:
    m = _SIZE.match(str(text).strip().lower())
    if not m or int(m.group(1)) > 26:
        raise BoardError(f"size '{text}' must be columns x rows, e.g. 12x12 (at most 26 columns)")
    return int(m.group(1)), int(m.group(2))


@dataclass
class Geometry:
    """Where a unit can step from each square, in the combat square's order (1 first)."""

    cols: int
    rows: int
    order: list[str]  # direction names, combat number 1 first
    walls: set[frozenset[str]] = field(default_factory=set)
    steps: dict[str, list[tuple[str, str]]] = field(default_factory=dict)  # sq -> [(dir, sq)]

    def squares(self) -> Iterator[str]:
        for r in range(self.rows):
            for c in range(self.cols):
                yield square_name(c, r)

    def contains(self, square: str) -> bool:
        try:
            c, r = parse_square(square)
        except BoardError:
            return False
        return c < self.cols and r < self.rows

    def check(self, square: str, what: str = "square") -> str:
        """The square normalised, or BoardError naming what is wrong with it."""
        c, r = parse_square(square)
        if c >= self.cols or r >= self.rows:
            raise BoardError(
                f"{what} {square} is off the board (it is {self.cols} columns by {self.rows} rows, "
                f"A1 to {square_name(self.cols - 1, self.rows - 1)})"
            )
        return square_name(c, r)

    def toward(self, square: str, direction: str) -> str | None:
        """The square one step `direction` of `square`, ignoring walls; None past the edge."""
        c, r = parse_square(square)
        dc, dr = DIRECTIONS[direction]
        c, r = c + dc, r + dr
        if 0 <= c < self.cols and 0 <= r < self.rows:
            return square_name(c, r)
        return None

    def wall_between(self, a: str, b: str) -> bool:
        return frozenset((a, b)) in self.walls

    def adjacent(self, a: str | None, b: str | None) -> bool:
        """One square apart in a straight line with no wall between (the rulebook's test)."""
        if not a or not b or a == STAGING or b == STAGING:
            return False
        return any(n == b for _, n in self.steps.get(a, ()))

    def distance(self, a: str, b: str) -> int:
        """Orthogonal distance ignoring walls and units (flight range)."""
        (ac, ar), (bc, br) = parse_square(a), parse_square(b)
        return abs(ac - bc) + abs(ar - br)

    def direction_of(self, a: str, b: str) -> str | None:
        """The direction from a to b when they share a row or column."""
        (ac, ar), (bc, br) = parse_square(a), parse_square(b)
        if ac == bc and ar != br:
            return "down" if br > ar else "up"
        if ar == br and ac != bc:
            return "right" if bc > ac else "left"
        return None


def _wall_pair(text: str) -> tuple[str, str, str]:
    for sep in ("|", "/"):
        if sep in text:
            a, _, b = text.partition(sep)
            return a.strip(), b.strip(), sep
    raise BoardError(f"wall '{text}' must be two squares joined by | (side by side) or / (stacked)")


def build(board: Board) -> Geometry:
    """Parse and check a board; BoardError says which square is wrong and how."""
    cols, rows = parse_size(board.size)
    numbers = board.combat_square
    if sorted(numbers) != sorted(DIRECTIONS) or sorted(numbers.values()) != [1, 2, 3, 4]:
        raise BoardError(
            "combat_square must give each of left, up, right, down a different number 1-4 "
            f"(got {dict(numbers)})"
        )
    geo = Geometry(cols, rows, sorted(DIRECTIONS, key=lambda k: numbers[k]))
    for text in board.walls:
        a, b, sep = _wall_pair(text)
        a, b = geo.check(a, f"wall {text}:"), geo.check(b, f"wall {text}:")
        (ac, ar), (bc, br) = parse_square(a), parse_square(b)
        if sep == "|" and not (ar == br and abs(ac - bc) == 1):
            raise BoardError(f"wall {text}: {a} and {b} are not side by side (use / for stacked)")
        if sep == "/" and not (ac == bc and abs(ar - br) == 1):
            raise BoardError(f"wall {text}: {a} and {b} are not stacked (use | for side by side)")
        geo.walls.add(frozenset((a, b)))
    for sq in geo.squares():
        out = []
        for d in geo.order:
            n = geo.toward(sq, d)
            if n is not None and frozenset((sq, n)) not in geo.walls:
                out.append((d, n))
        geo.steps[sq] = out
    return geo


@dataclass(frozen=True)
class BoardProblem:
    """One problem with a board, with the squares and wall edges it is about, so a board
    editor can mark them on the board (`check_board` gives the same problems as words)."""

    message: str
    squares: tuple[str, ...] = ()
    edges: tuple[tuple[str, str], ...] = ()


def check_board(board: Board) -> list[str]:
    """Every problem with a board, each naming the square and what is wrong."""
    return [p.message for p in board_problems(board)]


def board_problems(board: Board) -> list[BoardProblem]:
    """Every problem with a board, located on it where it has a place."""
    try:
        geo = build(board)
    except BoardError as exc:
        return [BoardProblem(str(exc))]
    problems: list[BoardProblem] = []

    def add(message: str, *squares: str | None, edge: tuple[str, str] | None = None) -> None:
        on_board = tuple(s.strip().upper() for s in squares if s and geo.contains(s))
        problems.append(BoardProblem(message, on_board, (edge,) if edge else ()))

    def sq(text: str, what: str) -> str | None:
        if not str(text).strip():
            add(f"{what} is not placed yet")
            return None
        try:
            return geo.check(text, what)
        except BoardError as exc:
            add(str(exc))
            return None

    entrance = [sq(s, "entrance square") for s in board.entrance]
    if len(board.entrance) != 4:
        add(
            f"entrance lists {len(board.entrance)} squares; the staging area meets 4",
            *entrance,
        )
    for e in entrance:
        if e:
            c, r = parse_square(e)
            if c not in (0, geo.cols - 1) and r not in (0, geo.rows - 1):
                add(f"entrance square {e} is not on the edge of the board", e)
    sq(board.altar, "altar")
    for t in board.treasures:
        sq(t, "treasure")
    for slot, s in board.spawns.items():
        if slot not in SLOTS:
            add(f"spawn '{slot}' is not a minion slot ({', '.join(SLOTS)})", s)
        sq(s, f"{slot} spawn")
    for slot, trail in board.trails.items():
        if slot not in SLOTS:
            add(f"trail '{slot}' is not a minion slot ({', '.join(SLOTS)})", *trail)
            continue
        squares = [sq(s, f"{slot} trail step") for s in trail]
        if len(squares) < 2:
            add(f"{slot} trail needs at least 2 squares", *squares)
            continue
        for i, a in enumerate(squares):
            b = squares[(i + 1) % len(squares)]
            if a is None or b is None:
                continue
            if geo.distance(a, b) != 1:
                where = "back to the start" if i == len(squares) - 1 else f"step {i + 2}"
                add(
                    f"{slot} trail {where}: {b} is not next to {a} (trails move one square "
                    "at a time and close into a loop)",
                    a,
                    b,
                )
            elif geo.wall_between(a, b):
                add(f"{slot} trail crosses the wall between {a} and {b}", edge=(a, b))
        spawn = board.spawns.get(slot)
        if spawn and spawn.upper() not in squares:
            add(f"{slot} spawn {spawn} is not on the {slot} trail", spawn.upper())
    return problems


_cache: dict[str, tuple[Board, Geometry]] = {}


def geometry(board: Board) -> Geometry:
    """The board's geometry, built once per loaded board."""
    hit = _cache.get(board.id)
    if hit is None or hit[0] is not board:
        hit = (board, build(board))
        _cache[board.id] = hit
    return hit[1]
