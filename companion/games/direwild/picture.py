"""A board as text, so a player can check a transcribed board file against the real one.

Pure: it returns a string and prints nothing.  Each square is three characters:
a unit (heroes by the first two letters of their clan, minions by slot letter r/b/g/k, Karn
#), else what is printed there (A altar, $ treasure, E entrance, R/B/G/K spawn) and the
trail's foot direction (> < ^ v).  Walls are | between squares and --- under them.
"""

from __future__ import annotations

from companion.games.direwild.board import LETTERS, geometry, square_name
from companion.games.direwild.schema import Board
from companion.games.direwild.state import DirewildState

SLOT_LETTERS = {"red": "r", "blue": "b", "green": "g", "black": "k"}
ARROWS = {"left": "<", "right": ">", "up": "^", "down": "v"}


def features(board: Board) -> dict[str, str]:
    geo = geometry(board)
    marks: dict[str, str] = {}

    def add(sq: str, mark: str) -> None:
        marks[sq.upper()] = marks.get(sq.upper(), "") + mark

    add(board.altar, "A")
    for sq in board.treasures:
        add(sq, "$")
    for sq in board.entrance:
        add(sq, "E")
    for slot, sq in board.spawns.items():
        add(sq, SLOT_LETTERS.get(slot, "?").upper())
    for trail in board.trails.values():
        squares = [s.upper() for s in trail]
        for i, a in enumerate(squares):
            b = squares[(i + 1) % len(squares)]
            add(a, ARROWS.get(geo.direction_of(a, b) or "", "?"))
    return marks


def units(state: DirewildState | None) -> dict[str, str]:
    out: dict[str, str] = {}
    if state is None:
        return out
    for clan, h in state.heroes.items():
        if h.position != "staging" and not h.eaten_by:
            out[h.position] = clan[:2].upper()
    for slot, e in state.enemies.items():
        if e.position and not e.defeated:
            out[e.position] = SLOT_LETTERS.get(slot, "?") + ("!" if e.active else "")
    k = state.karn
    if k.on_board and k.position and not k.defeated:
        out[k.position] = "#"
    return out


def draw(board: Board, state: DirewildState | None = None) -> str:
    geo = geometry(board)
    marks, here = features(board), units(state)
    lines = ["    " + "".join(f" {LETTERS[c]}  " for c in range(geo.cols))]
    for r in range(geo.rows):
        row = f"{r + 1:>3} "
        under = "    "
        for c in range(geo.cols):
            sq = square_name(c, r)
            cell = (here.get(sq, "") + marks.get(sq, ""))[:3].ljust(3, ".")
            right = square_name(c + 1, r) if c + 1 < geo.cols else None
            row += cell + ("|" if right and geo.wall_between(sq, right) else " ")
            below = square_name(c, r + 1) if r + 1 < geo.rows else None
            under += ("---" if below and geo.wall_between(sq, below) else "   ") + " "
        lines.append(row.rstrip())
        if under.strip():
            lines.append(under.rstrip())
    return "\n".join(lines)
