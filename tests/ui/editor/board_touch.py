"""A finger on the Direwild board editor, wherever it is shown: alone in the window
(tests/ui/editor/test_board_editor.py) or inside the app, opened from Your cards
(tests/ui/editor/test_own_pack.py).

Why shared: both enter the same demo board by the same touches, and the board's touch
count (reported by benchmarks/bench_card_taps.py) must mean the same in both.  Every
touch is a real one on the window: squares and edges where the canvas draws them, trails
traced by one finger down, moved and lifted.  The name is the only keyboard use.
"""

from __future__ import annotations

from typing import Any

from tests.ui.kivyharness import KivyTestCase


class BoardFinger:
    """Touches one board editor and counts them (`touches`; `typed` for the keyboard)."""

    def __init__(self, case: KivyTestCase, editor: Any) -> None:
        self.case = case
        self.editor = editor
        self.touches = 0
        self.typed = 0

    @property
    def canvas(self) -> Any:
        return self.editor.ids.canvas

    def press(self, text: str) -> None:
        """Tap the editor's button showing `text` (a tool, a colour, Save board...)."""
        self.case.tap(text, within=self.editor)
        self.touches += 1

    def type_name(self, name: str) -> None:
        """Tap the name field (a touch), type the name, put the keyboard away."""
        field = self.editor.ids.name_field
        self.case.tap(field)
        self.touches += 1
        field.insert_text(name)
        field.focus = False
        self.typed += 1

    def point(self, square: str, dx: float = 0, dy: float = 0) -> tuple[float, float]:
        """Where on the window `square` is (nudged by a fraction of a square)."""
        x, y = self.canvas.centre(square)
        size = self.canvas.touch_cell_size()
        return self.canvas.to_window(x + dx * size, y + dy * size)

    def tap_square(self, square: str) -> None:
        self.case.touch_at(*self.point(square))
        self.touches += 1

    def tap_edge(self, a: str, b: str) -> None:
        """A finger on the line between `a` and `b`, landing a little inside `a`."""
        (ax, ay), (bx, by) = self.point(a), self.point(b)
        self.case.touch_at(ax + (bx - ax) * 0.4, ay + (by - ay) * 0.4)
        self.touches += 1

    def trace(self, squares: list[str]) -> None:
        """One finger down on the first square, moved through the others, lifted."""
        from kivy.tests.common import UnitTestTouch

        case = self.case
        touch = UnitTestTouch(*self.point(squares[0]))
        case.as_main_loop(touch.touch_down)
        case.frames(1)
        for sq in squares[1:]:
            x, y = self.point(sq)
            case.as_main_loop(lambda x=x, y=y: touch.touch_move(x, y))
            case.frames(1)
        case.as_main_loop(touch.touch_up)
        case.frames(2)
        self.touches += 1


def corners(trail: list[str]) -> list[str]:
    """The squares where a trail turns, with its first and last: what a quick finger
    touches on its way round (the editor fills in the squares it crossed between)."""
    from companion.games.direwild.board import parse_square

    def way(a: str, b: str) -> tuple[int, int]:
        (ac, ar), (bc, br) = parse_square(a), parse_square(b)
        return (bc - ac, br - ar)

    turns = [
        here
        for before, here, after in zip(trail, trail[1:], trail[2:], strict=False)
        if way(before, here) != way(here, after)
    ]
    return [*trail[:1], *turns, *trail[1:][-1:]]


def enter_board(finger: BoardFinger, board: dict[str, Any]) -> None:
    """Copy `board` (a board card's data) into an empty editor as a player copies the
    real board: the name typed, then each tool once and its squares, walls and trails.
    The next colour comes up by itself after each spawn and trail, so no colour is
    tapped; the red trail is traced by a quick finger touching only its corners.
    """
    editor = finger.editor
    finger.type_name(board["name"])
    finger.press("Entrance")
    for sq in board["entrance"]:
        finger.tap_square(sq)
    finger.press("Altar")
    finger.tap_square(board["altar"])
    finger.press("Treasure")
    for sq in board["treasures"]:
        finger.tap_square(sq)
    finger.press("Spawns")
    for slot, sq in board["spawns"].items():
        assert editor.colour == slot  # the next colour without a spawn comes up itself
        finger.tap_square(sq)
    finger.press("Walls")
    for wall in board["walls"]:
        sep = "|" if "|" in wall else "/"
        finger.tap_edge(*wall.split(sep))
    finger.press("Trails")
    assert editor.colour == "red"
    for slot, trail in board["trails"].items():
        assert editor.colour == slot
        finger.trace(corners(trail) if slot == "red" else trail)
