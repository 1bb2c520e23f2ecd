"""One Direwild land board being edited: the schema's data in memory, each edit undoable.

Kept apart from the widgets so what a tap does to the board is plain data the editor's
screen only shows.  Nothing here decides whether the board is right: `problems()` asks the
board check the rules use (`board_problems`), so the editor and `companion direwild board`
can never disagree.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any, TypeVar

import msgspec

from companion.games.direwild.view import (
    LETTERS,
    SLOTS,
    Board,
    BoardProblem,
    board_problems,
    parse_size,
    parse_square,
    square_name,
)

LANDS = ("redmill", "blightwood", "dungeon")
DIRECTIONS = ("left", "up", "right", "down")
MIN_SIDE, MAX_SIDE = 2, len(LETTERS)
V = TypeVar("V")
CHECK_ID = "direwild/board/being-edited"  # a new board has no id until its pack gives it one


def empty_board() -> dict[str, Any]:
    """A board with nothing on it yet: 12 by 12 like the real land board."""
    return {
        "id": "",
        "name": "",
        "land": "redmill",
        "size": "12x12",
        "entrance": [],
        "altar": "",
        "combat_square": {"left": 1, "up": 2, "right": 3, "down": 4},
        "spawns": {},
        "treasures": [],
        "walls": [],
        "trails": {},
    }


def wall_text(a: str, b: str) -> str:
    """`C1|D1` side by side, `C2/C3` stacked, the left or upper square first."""
    (ac, ar), (bc, br) = parse_square(a), parse_square(b)
    if (bc, br) < (ac, ar):
        a, b = b, a
    return f"{a}|{b}" if ar == br else f"{a}/{b}"


def wall_squares(text: str) -> frozenset[str]:
    sep = "|" if "|" in text else "/"
    return frozenset(s.strip().upper() for s in text.split(sep, 1))


def step_between(a: str, b: str) -> list[str]:
    """The squares a finger crossed going from `a` to `b`, one square at a time (columns
    first when it cut a corner), ending with `b`; `a` itself is not included."""
    (ac, ar), (bc, br) = parse_square(a), parse_square(b)
    out = []
    while (ac, ar) != (bc, br):
        if ac != bc:
            ac += 1 if bc > ac else -1
        else:
            ar += 1 if br > ar else -1
        out.append(square_name(ac, ar))
    return out


def extend_trace(trace: list[str], square: str) -> list[str]:
    """The trail being traced after the finger reaches `square`: going back onto the
    previous square takes the last step back; a square already on the trail (the start,
    closing the loop) adds nothing."""
    if not trace:
        return [square]
    out = list(trace)
    for sq in step_between(out[-1], square):
        if len(out) >= 2 and sq == out[-2]:
            out.pop()
        elif sq not in out:
            out.append(sq)
    return out


def in_slot_order(by_slot: dict[str, V]) -> dict[str, V]:
    """Red, blue, green, black, as the rulebook and the demo files list them."""
    known = {s: by_slot[s] for s in SLOTS if s in by_slot}
    return known | {s: v for s, v in by_slot.items() if s not in SLOTS}


class BoardDraft:
    """The board's data and the edits made to it, newest last, for undo."""

    def __init__(self, board: Mapping[str, object] | None = None) -> None:
        data = empty_board()
        data.update(copy.deepcopy(board or {}))
        self.data = data
        self._undo: list[tuple[str, dict[str, Any]]] = []
        self.last = ""  # the words of the last edit, for the screen to say

    # -- reading ----------------------------------------------------------------------

    @property
    def cols(self) -> int:
        return self._size()[0]

    @property
    def rows(self) -> int:
        return self._size()[1]

    def _size(self) -> tuple[int, int]:
        try:
            return parse_size(self.data["size"])
        except ValueError:
            return 12, 12

    def _convert(self) -> Board:
        return msgspec.convert({**self.data, "id": self.data["id"] or CHECK_ID}, Board, strict=True)

    def board(self) -> Board | None:
        """The data as the schema reads it, or None when it cannot (see `problems`)."""
        try:
            return self._convert()
        except msgspec.ValidationError:
            return None

    def problems(self) -> list[BoardProblem]:
        """What the board check finds, exactly as `companion direwild board` reports it."""
        try:
            board = self._convert()
        except msgspec.ValidationError as exc:
            return [BoardProblem(f"the board's data does not fit its schema: {exc}")]
        return board_problems(board)

    def as_dict(self) -> dict[str, Any]:
        """The board as its content file holds it (a copy: editing goes on here); a new
        board's id is empty, for the pack saving it to give it one from its name."""
        return copy.deepcopy(self.data)

    @property
    def can_undo(self) -> bool:
        return bool(self._undo)

    # -- editing ----------------------------------------------------------------------

    def _push(self, words: str) -> None:
        self._undo.append((words, copy.deepcopy(self.data)))
        self.last = words

    def undo(self) -> str:
        """Put back the board as it was before the last edit; the words of what went."""
        if not self._undo:
            self.last = "Nothing to undo."
            return ""
        words, before = self._undo.pop()
        before["name"] = self.data["name"]  # the name is typed, not an edit to undo
        self.data = before
        self.last = f"Undone: {words[0].lower()}{words[1:]}"
        return words

    def set_name(self, name: str) -> None:
        self.data["name"] = name

    def set_land(self, land: str) -> None:
        if land in LANDS and land != self.data["land"]:
            self._push(f"Land set to {land.title()}.")
            self.data["land"] = land

    def resize(self, d_cols: int = 0, d_rows: int = 0) -> None:
        """A column or row more or fewer (what falls off the board stays, marked)."""
        cols = max(MIN_SIDE, min(MAX_SIDE, self.cols + d_cols))
        rows = max(MIN_SIDE, min(MAX_SIDE, self.rows + d_rows))
        if (cols, rows) != (self.cols, self.rows):
            self._push(f"Size set to {cols} columns by {rows} rows.")
            self.data["size"] = f"{cols}x{rows}"

    def toggle_wall(self, a: str, b: str) -> None:
        pair = frozenset((a, b))
        kept = [w for w in self.data["walls"] if wall_squares(w) != pair]
        if len(kept) < len(self.data["walls"]):
            self._push(f"Wall between {a} and {b} removed.")
            self.data["walls"] = kept
        else:
            self._push(f"Wall added between {a} and {b}.")
            self.data["walls"].append(wall_text(a, b))

    def _toggle_in(self, key: str, square: str, what: str) -> None:
        squares = self.data[key]
        if square in squares:
            self._push(f"{what} on {square} removed.")
            squares.remove(square)
        else:
            self._push(f"{what} placed on {square}.")
            squares.append(square)

    def toggle_treasure(self, square: str) -> None:
        self._toggle_in("treasures", square, "Treasure")

    def toggle_entrance(self, square: str) -> None:
        self._toggle_in("entrance", square, "Entrance")

    def set_altar(self, square: str) -> None:
        if self.data["altar"] == square:
            self._push(f"Altar on {square} removed.")
            self.data["altar"] = ""
        else:
            self._push(f"Altar placed on {square}.")
            self.data["altar"] = square

    def set_spawn(self, slot: str, square: str) -> None:
        spawns = self.data["spawns"]
        if spawns.get(slot) == square:
            self._push(f"{slot.title()} spawn on {square} removed.")
            del spawns[slot]
        else:
            self._push(f"{slot.title()} spawn placed on {square}.")
            spawns[slot] = square
            self.data["spawns"] = in_slot_order(spawns)

    def set_trail(self, slot: str, squares: list[str]) -> None:
        """A traced trail replaces the old one; a trace that never left its first square
        takes the trail away."""
        trails = self.data["trails"]
        if len(squares) < 2:
            if slot in trails:
                self._push(f"{slot.title()} trail removed.")
                del trails[slot]
            return
        self._push(f"{slot.title()} trail traced through {len(squares)} squares.")
        trails[slot] = list(squares)
        self.data["trails"] = in_slot_order(trails)

    def turn_combat(self, direction: str) -> None:
        """`direction` takes the next number (4 wraps to 1); the direction holding that
        number takes this one's, so the four always stay 1 to 4."""
        numbers = self.data["combat_square"]
        if direction not in DIRECTIONS:
            return
        mine = numbers.get(direction, 0)
        wanted = mine % 4 + 1
        other = next((d for d, n in numbers.items() if n == wanted and d != direction), None)
        self._push(f"Combat square: {direction} is now {wanted}.")
        numbers[direction] = wanted
        if other is not None:
            numbers[other] = mine
