"""The land board drawn from its board file: squares, walls, trails, spawns, treasure, units,
and each enemy's last path as numbered arrows.

Why the margin: the Enemy AI card and the log name squares ("to D4", "to I4"), so the board
carries the same letters along its top and numbers down its side (issue 25), in the app's
text size and theme; spawn rings carry their colour's word, and the light marks on the grass
(treasure, entrance wedges) are ringed dark, so none is told apart by colour alone and each
stands 3:1 or more against the grass.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from kivy.clock import Clock
from kivy.graphics import Color, Ellipse, Line, Rectangle, Triangle
from kivy.lang import Builder
from kivy.metrics import dp
from kivy.properties import ListProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.widget import Widget

from companion.games.direwild.view import DIRECTIONS, Board, DirewildState, parse_size, parse_square
from companion.ui.games.direwild.colours import (
    ALTAR,
    ENTRANCE,
    GRASS,
    GRID,
    OUTLINE,
    SLOT_COLOURS,
    TREASURE,
    WALL,
)
from companion.ui.games.direwild.pieces import (
    PIECE_RADIUS,
    draw_piece,
    draw_text,
    fitted_font,
    pieces,
    plain_texture,
    text_px,
    text_texture,
)
from companion.ui.style import style

if TYPE_CHECKING:
    from kivy.input.motionevent import MotionEvent

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
SLOT_WORDS = {"red": "Red", "blue": "Blue", "green": "Green", "black": "Black"}

Builder.load_file(__file__.replace(".py", ".kv"))


# a column letter or row number: its words, font size and box on the board
EdgeLabel = tuple[str, float, tuple[float, float, float, float]]


class BoardView(Widget):
    """Reads the session's state and board; a tap on a square is reported as `on_square`."""

    session = ObjectProperty(None, allownone=True)
    selected = StringProperty("")
    highlight = ListProperty([])  # the path of the AI step on show, drawn over the rest
    cols = NumericProperty(12)  # the board's size in squares, for the layout to size it by
    rows = NumericProperty(12)
    # the band along the top and left holding the column letters and row numbers
    margin = NumericProperty(0)

    def on_highlight(self, *_: object) -> None:
        self.refresh()

    __events__: tuple[str, ...] = ("on_square",)

    def on_square(self, square: str) -> None:
        pass

    def _board(self) -> Board:
        board: Board = self.session.content.get("boards", self.session.state.board)
        return board

    def touch_cell_size(self) -> float:
        """The side of a square in pixels: each square is a touch target of its own."""
        return self._cell()[0]

    def squares_box(self) -> tuple[float, float, float, float]:
        """Where the squares are drawn (x, y, width, height): the board is a square of
        squares centred in the widget, which may be taller than it."""
        size, cols, rows, ox, oy = self._cell()
        return ox, oy, size * cols, size * rows

    def label_band(self) -> float:
        """The room the coordinates take along the top and the left: the app's text, at
        most 20 dp (at Largest a wider band pushed the board's last row under the fold)."""
        return round(self.label_font() * 1.3)

    @staticmethod
    def label_font() -> float:
        return float(min(text_px(), dp(20)))

    def _cell(self) -> tuple[float, int, int, float, float]:
        """The squares' side and where they start: the row numbers' band on the left
        costs width only (the column letters sit inside the top row, as a chess board's
        do), so the board is as tall as its squares: on a tablet the whole board still
        fits beside the result card."""
        cols, rows = parse_size(self._board().size)
        m = self.label_band()
        size = max(1.0, min((self.width - m) / cols, self.height / rows))
        ox = self.x + m + (self.width - m - size * cols) / 2
        oy = self.y + (self.height - size * rows) / 2
        return size, cols, rows, ox, oy

    def centre(self, square: str) -> tuple[float, float]:
        size, _, rows, ox, oy = self._cell()
        c, r = parse_square(square)
        return ox + (c + 0.5) * size, oy + (rows - r - 0.5) * size

    def marks(self) -> list[tuple[str, tuple[float, float, float, float]]]:
        """The light marks drawn on the grass, each with the square around it in window
        pixels (what a check of 3:1 against the grass measures; tests/ui/looks.py)."""
        if self.session is None or self.width < 10:
            return []
        board = self._board()
        squares = [("treasure", sq) for sq in self.session.state.treasures]
        squares += [("entrance", sq.upper()) for sq in board.entrance]
        squares += [(f"{slot} spawn", sq.upper()) for slot, sq in board.spawns.items()]
        half = self._cell()[0] / 2
        out = []
        for what, sq in squares:
            x, y = self.to_window(*self.centre(sq))
            out.append((f"{what} at {sq}", (x - half, y - half, x + half, y + half)))
        return out

    def square_at(self, x: float, y: float) -> str | None:
        size, cols, rows, ox, oy = self._cell()
        c, r = int((x - ox) // size), rows - 1 - int((y - oy) // size)
        if 0 <= c < cols and 0 <= r < rows:
            return f"{LETTERS[c]}{r + 1}"
        return None

    def on_touch_down(self, touch: MotionEvent) -> bool:
        if self.session is None or self.disabled or not self.collide_point(*touch.pos):
            return bool(super().on_touch_down(touch))  # a disabled board swallows the touch
        square = self.square_at(*touch.pos)
        if square:
            self.dispatch("on_square", square)
            return True
        return False

    def on_size(self, *_: object) -> None:
        self._redraw()

    def on_pos(self, *_: object) -> None:
        self._redraw()

    def _redraw(self) -> None:
        """The board drawn again for its new size or place once, before the next frame:
        a layout places it in a few moves (its size, then x, then y, in the passes of its
        column), and each drew its ~90 instructions anew (issue 26)."""
        trigger = getattr(self, "_redraw_trigger", None)
        if trigger is None:  # made on first use: kv sets the size while the board is built
            trigger = self._redraw_trigger = Clock.create_trigger(lambda _dt: self.refresh(), -1)
        trigger()

    def refresh(self) -> None:
        self.canvas.clear()
        self.margin = self.label_band()
        if self.session is None or self.width < 10:
            return
        state = self.session.state
        board = self._board()
        self.cols, self.rows = parse_size(board.size)
        size, cols, rows, ox, oy = self._cell()
        with self.canvas:
            Color(*GRASS)
            Rectangle(pos=(ox, oy), size=(size * cols, size * rows))
            Color(*GRID)
            for c in range(cols + 1):
                Line(points=[ox + c * size, oy, ox + c * size, oy + rows * size], width=1)
            for r in range(rows + 1):
                Line(points=[ox, oy + r * size, ox + cols * size, oy + r * size], width=1)
            self._marks(board, size)
            self._walls(board, size)
            # paths under the pieces, so a line never covers a unit's name
            self._paths(state, size)
            if len(self.highlight) > 1:
                Color(1, 1, 1, 0.95)
                Line(points=[p for sq in self.highlight for p in self.centre(sq)], width=5)
                self._arrow(self.highlight, size, (1, 1, 1))
            self._spawn_words(board, state, size)
            self._units(state, size)
            self._coordinates(size)

    def _coordinates(self, size: float) -> None:
        """The column letters along the top row's upper edge (outlined, over the grass and
        the pieces) and the row numbers beside the board in the theme's text colour, as
        the Enemy AI card and the log name the squares ("to D4")."""
        letters, numbers = self._edge_label_layout(size)
        for text, font, (left, bottom, right, top) in letters:
            draw_text(text, (left + right) / 2, (bottom + top) / 2, font)
        Color(*style.fg[:3])
        for text, font, (left, bottom, _right, _top) in numbers:
            tex = plain_texture(text, font)
            Rectangle(texture=tex, pos=(left, bottom), size=tex.size)

    def _edge_label_layout(self, size: float) -> tuple[list[EdgeLabel], list[EdgeLabel]]:
        """Where the column letters and the row numbers go, each with its words, its font
        size and its box (left, bottom, right, top) in the board's coordinates: drawn by
        `_coordinates`, and kept clear of the scrolling edge (`edge_label_boxes`)."""
        _, cols, rows, ox, oy = self._cell()
        top = oy + rows * size
        letter = fitted_font("W", min(self.label_font(), size * 0.4), size * 0.45)
        letters = []
        for c in range(cols):
            tex = text_texture(LETTERS[c], letter)
            x, y = ox + (c + 0.5) * size, top - tex.height / 2 - 1
            box = (x - tex.width / 2, y - tex.height / 2, x + tex.width / 2, y + tex.height / 2)
            letters.append((LETTERS[c], letter, box))
        font = min(self.label_font(), size * 0.8)
        numbers = []
        for r in range(rows):
            tex = plain_texture(str(r + 1), font)
            y = oy + (rows - r - 0.5) * size
            box = (ox - tex.width - 4, y - tex.height / 2, ox - 4, y + tex.height / 2)
            numbers.append((str(r + 1), font, box))
        return letters, numbers

    def _marks(self, board: Board, size: float) -> None:
        for slot, trail in board.trails.items():
            Color(*SLOT_COLOURS.get(slot, (1, 1, 1)), 0.55)
            pts = [p for sq in [*trail, trail[0]] for p in self.centre(sq.upper())]
            Line(points=pts, width=1.5, dash_length=6, dash_offset=4)
        for slot, sq in board.spawns.items():
            x, y = self.centre(sq.upper())
            Color(*OUTLINE)
            Line(circle=(x, y, size * 0.46), width=3.5)
            Color(*SLOT_COLOURS.get(slot, (1, 1, 1)))
            Line(circle=(x, y, size * 0.46), width=2)
        x, y = self.centre(board.altar.upper())
        Color(*ALTAR, 0.8)
        Rectangle(pos=(x - size * 0.45, y - size * 0.45), size=(size * 0.9, size * 0.9))
        for sq in self.session.state.treasures:
            x, y = self.centre(sq)
            r = size * 0.18
            Color(*OUTLINE)  # ringed dark: yellow on grass alone is 1.6:1
            Ellipse(pos=(x - r - 2.5, y - r - 2.5), size=(2 * r + 5, 2 * r + 5))
            Color(*TREASURE)
            Ellipse(pos=(x - r, y - r), size=(2 * r, 2 * r))
        for sq in board.entrance:
            points = self.entrance_arrow(sq.upper(), size)
            Color(*ENTRANCE)
            Triangle(points=points)
            Color(*OUTLINE)  # ringed dark: off-white on grass alone is 2.2:1
            Line(points=points, close=True, width=2)

    def spawn_words(self, state: DirewildState) -> list[tuple[str, str, float]]:
        """Each spawn ring's colour in words (a spawn is never told apart by colour
        alone), with its square and the words' size, where no unit stands on it (the
        piece there names itself)."""
        board, size = self._board(), self._cell()[0]
        taken = set(self.where(state).values())
        out = []
        for slot, sq in board.spawns.items():
            if sq.upper() in taken:
                continue
            word = SLOT_WORDS.get(slot, slot.title())
            font = fitted_font(word, min(text_px(), size * 0.4), size * 0.96 - 6)
            out.append((word, sq.upper(), font))
        return out

    def _spawn_words(self, board: Board, state: DirewildState, size: float) -> None:
        """The spawn words on a dark plate inside their square, drawn over the rings and
        the minions' paths (issue 25: "Red" read "Rei", the ring and the red path through
        its last letter; "Green" and "Black" were crossed by their paths)."""
        for word, sq, font in self.spawn_words(state):
            x, y = self.centre(sq)
            tex = text_texture(word, font)
            Color(*OUTLINE)
            w, h = tex.width + 4, tex.height + 2
            Rectangle(pos=(x - w / 2, y - h / 2), size=(w, h))
            draw_text(word, x, y, font)

    def words(self) -> list[tuple[str, tuple[float, float, float, float]]]:
        """The words drawn on the board's squares (the spawn words), each with its plate
        in window pixels: what the checks read whole and at 4.5:1 (tests/ui/looks.py)."""
        if self.session is None or self.width < 10:
            return []
        out = []
        for word, sq, font in self.spawn_words(self.session.state):
            tex = text_texture(word, font)
            x, y = self.to_window(*self.centre(sq))
            # the plate less a pixel and a half each side: its edge's pixels blend with
            # what is around it
            w, h = tex.width + 1, tex.height - 1
            out.append(
                (f"spawn word {word!r} at {sq}", (x - w / 2, y - h / 2, x + w / 2, y + h / 2))
            )
        return out

    def edge_label_boxes(self) -> list[tuple[str, tuple[float, float, float, float]]]:
        """The column letters and row numbers as `_coordinates` draws them, each with its
        box (left, bottom, right, top) in the board's coordinates: the view scrolls so
        no edge of what is seen runs through one (DirewildView.clear_of_words)."""
        if self.session is None or self.width < 10:
            return []
        letters, numbers = self._edge_label_layout(self._cell()[0])
        return [(f"column letter {text!r}", box) for text, _font, box in letters] + [
            (f"row number {text}", box) for text, _font, box in numbers
        ]

    def edge_labels(self) -> list[tuple[str, tuple[float, float, float, float]]]:
        """`edge_label_boxes` in window pixels: what the checks hold to be seen whole or
        not at all, and never under a widget drawn above the board (tests/ui/looks.py)."""
        out = []
        for what, (left, bottom, right, top) in self.edge_label_boxes():
            x0, y0 = self.to_window(left, bottom)
            out.append((what, (x0, y0, x0 + right - left, y0 + top - bottom)))
        return out

    def entrance_arrow(self, square: str, size: float) -> list[float]:
        """A wedge on the square's outer edge pointing into the board: the way heroes come in."""
        c, r = parse_square(square)
        x, y = self.centre(square)
        h = size * 0.45
        if r == self.rows - 1:
            return [x - h * 0.6, y - h, x + h * 0.6, y - h, x, y - h * 0.2]
        if r == 0:
            return [x - h * 0.6, y + h, x + h * 0.6, y + h, x, y + h * 0.2]
        if c == 0:
            return [x - h, y - h * 0.6, x - h, y + h * 0.6, x - h * 0.2, y]
        return [x + h, y - h * 0.6, x + h, y + h * 0.6, x + h * 0.2, y]

    def _walls(self, board: Board, size: float) -> None:
        Color(*WALL)
        for text in board.walls:
            sep = "|" if "|" in text else "/"
            a, b = (s.strip().upper() for s in text.split(sep))
            (ax, ay), (bx, by) = self.centre(a), self.centre(b)
            mx, my = (ax + bx) / 2, (ay + by) / 2
            half = size / 2
            if sep == "|":
                Line(points=[mx, my - half, mx, my + half], width=3)
            else:
                Line(points=[mx - half, my, mx + half, my], width=3)

    def where(self, state: DirewildState) -> dict[str, str]:
        """Each unit on the board and its square."""
        out: dict[str, str] = {}
        for clan, h in state.heroes.items():
            if h.position != "staging" and not h.eaten_by:
                out[clan] = h.position
        for slot, e in state.enemies.items():
            if not e.defeated and e.position:
                out[slot] = e.position
        k = state.karn
        if k.on_board and k.position and not k.defeated:
            out["karn"] = k.position
        return out

    def unit_at(self, square: str) -> str | None:
        """The unit drawn on `square` (a hero, a minion slot or "karn"), if any."""
        if self.session is None:
            return None
        return next((u for u, sq in self.where(self.session.state).items() if sq == square), None)

    def _units(self, state: DirewildState, size: float) -> None:
        shown = {p.unit: p for p in pieces(state, self.session.content)}
        for unit, square in self.where(state).items():
            x, y = self.centre(square)
            draw_piece(shown[unit], x, y, size * PIECE_RADIUS, selected=unit == self.selected)

    def _arrow(self, path: list[str], size: float, colour: tuple[float, float, float]) -> None:
        (x0, y0), (x1, y1) = self.centre(path[-2]), self.centre(path[-1])
        ang = math.atan2(y1 - y0, x1 - x0)
        tip = (x1 - math.cos(ang) * size * 0.42, y1 - math.sin(ang) * size * 0.42)
        wing = [
            (tip[0] - math.cos(ang + d) * size * 0.3, tip[1] - math.sin(ang + d) * size * 0.3)
            for d in (-0.5, 0.5)
        ]
        Color(*OUTLINE)
        Line(points=[*wing[0], *tip, *wing[1]], width=4)
        Color(*colour)
        Triangle(points=[*tip, *wing[0], *wing[1]])

    def _paths(self, state: DirewildState, size: float) -> None:
        """Each enemy's last move: a line in its colour, a dot on every square it crossed
        and an arrowhead where it stopped."""
        moves = [(s, e.path) for s, e in state.enemies.items() if len(e.path) > 1]
        if len(state.karn.path) > 1:
            moves.append(("karn", state.karn.path))
        for unit, path in moves:
            colour = SLOT_COLOURS.get(unit, (1, 1, 1))
            pts = [p for sq in path for p in self.centre(sq)]
            Color(*OUTLINE)
            Line(points=pts, width=4)
            Color(*colour)
            Line(points=pts, width=2.5)
            for sq in path[:-1]:
                x, y = self.centre(sq)
                Ellipse(pos=(x - size * 0.1, y - size * 0.1), size=(size * 0.2, size * 0.2))
            self._arrow(path, size, colour)


__all__ = ["DIRECTIONS", "BoardView"]
