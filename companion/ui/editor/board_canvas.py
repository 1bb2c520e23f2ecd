"""The board being edited, drawn as the table view draws a board, and the touches on it.

It reuses the Direwild board view's geometry and wall drawing by subclassing it (the
board comes from a `BoardDraft`, not a session) and adds what an editor needs: which
edge a tap is nearest, a trail traced by a finger, and the problems marked in the
theme's warning colour.
"""

from __future__ import annotations

import math

import msgspec
from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, Ellipse, Line, Rectangle, Triangle
from kivy.graphics.texture import Texture
from kivy.input.motionevent import MotionEvent
from kivy.properties import ListProperty, ObjectProperty, StringProperty

from companion.games.direwild.view import LETTERS, SLOTS, Board, square_name
from companion.ui.editor.board_draft import empty_board, extend_trace, wall_squares
from companion.ui.games.direwild.board_view import BoardView
from companion.ui.games.direwild.colours import ALTAR, GRASS, GRID, SLOT_COLOURS, TREASURE
from companion.ui.style import style

SLOT_LETTERS = {slot: slot[0].upper() for slot in SLOTS}
SLOT_LETTERS["black"] = "K"  # as the board check's text drawing marks it (B is blue)
_TEXTURES: dict[tuple[str, int], Texture] = {}  # each mark's letters rendered once per size


EDGE_REACH = 0.3  # how far into a square (of its side) a tap still means its edge


def nearest_edge(square: str, fx: float, fy: float, cols: int, rows: int) -> str | None:
    """The square across the edge of `square` nearest the touch, `fx`/`fy` being where in
    the square it landed (0..1 from its left and its top); None when the touch is near no
    edge between two squares (the middle of a square, or the board's rim: no wall goes
    there), so a tap that was not meant for a wall makes none."""
    col = LETTERS.index(square[0])
    row = int(square[1:]) - 1
    sides = [(fx, -1, 0), (1 - fx, 1, 0), (fy, 0, -1), (1 - fy, 0, 1)]
    for near, dc, dr in sorted(sides):
        c, r = col + dc, row + dr
        if near <= EDGE_REACH and 0 <= c < cols and 0 <= r < rows:
            return square_name(c, r)
    return None


class BoardCanvas(BoardView):
    """Taps and traces on the board, reported as events the editor turns into edits."""

    draft = ObjectProperty(None, allownone=True)
    tool = StringProperty("walls")  # walls draws edges; trail traces; the rest tap squares
    problems = ListProperty([])  # BoardProblems to mark
    stroke = ListProperty([])  # the trail under the finger, not yet an edit

    __events__: tuple[str, ...] = ("on_square", "on_edge", "on_edge_missed", "on_trace")

    def on_edge(self, a: str, b: str) -> None:
        pass

    def on_edge_missed(self, square: str) -> None:
        pass

    def on_trace(self, squares: list[str]) -> None:
        pass

    def on_problems(self, *_: object) -> None:
        self.refresh()

    def _board(self) -> Board:
        board = self.draft.board() if self.draft is not None else None
        if board is None:  # data the schema cannot read: draw the grid at its size
            size = self.draft.data.get("size", "12x12") if self.draft is not None else "12x12"
            board = msgspec.convert({**empty_board(), "size": size}, Board)
        return board

    # -- touches ------------------------------------------------------------------------

    def on_touch_down(self, touch: MotionEvent) -> bool:
        if self.draft is None or not self.collide_point(*touch.pos):
            return False
        square = self.square_at(*touch.pos)
        if square is None:
            return False
        if self.tool == "walls":
            size, _, rows, ox, oy = self._cell()
            c, r = LETTERS.index(square[0]), int(square[1:]) - 1
            fx = (touch.x - ox) / size - c
            fy = (rows - r) - (touch.y - oy) / size
            other = nearest_edge(square, fx, fy, self.draft.cols, self.draft.rows)
            if other:
                self.dispatch("on_edge", square, other)
            else:
                self.dispatch("on_edge_missed", square)
        elif self.tool == "trail":
            touch.grab(self)
            touch.ud["board_last"] = touch.pos
            self.stroke = [square]
            self.draw_stroke()
        else:
            self.dispatch("on_square", square)
        return True

    def on_touch_move(self, touch: MotionEvent) -> bool:
        if touch.grab_current is not self:
            return False
        # the squares under the whole stroke since the last event: a fast finger skips some
        (x0, y0), (x1, y1) = touch.ud.get("board_last", touch.pos), touch.pos
        steps = max(1, int(math.hypot(x1 - x0, y1 - y0) / max(1.0, self.touch_cell_size() / 4)))
        trace = list(self.stroke)
        for i in range(1, steps + 1):
            sq = self.square_at(x0 + (x1 - x0) * i / steps, y0 + (y1 - y0) * i / steps)
            if sq:
                trace = extend_trace(trace, sq)
        touch.ud["board_last"] = touch.pos
        if trace != self.stroke:
            self.stroke = trace
            self.draw_stroke()
        return True

    def on_touch_up(self, touch: MotionEvent) -> bool:
        if touch.grab_current is not self:
            return False
        touch.ungrab(self)
        squares, self.stroke = list(self.stroke), []
        self.draw_stroke()
        self.dispatch("on_trace", squares)
        return True

    # -- drawing ------------------------------------------------------------------------

    def refresh(self) -> None:
        self.canvas.clear()
        if self.draft is None or self.width < 10:
            return
        board = self._board()
        self.cols, self.rows = self.draft.cols, self.draft.rows
        size, cols, rows, ox, oy = self._cell()
        on = {square_name(c, r) for c in range(cols) for r in range(rows)}
        with self.canvas:
            self._ground(size, cols, rows, ox, oy)
            self._printed(board, size, on)
            kept = [w for w in board.walls if wall_squares(w) <= on]
            self._walls(msgspec.structs.replace(board, walls=kept), size)
            self._trails(board, size, on)
            self._marked(size, on)
        self.draw_stroke()

    def draw_stroke(self) -> None:
        """The trail under the finger, on its own layer: a finger's move redraws only it."""
        self.canvas.after.clear()
        if not self.stroke or self.draft is None:
            return
        size = self.touch_cell_size()
        with self.canvas.after:
            Color(1, 1, 1, 0.95)
            pts = [p for sq in self.stroke for p in self.centre(sq)]
            Line(points=pts if len(pts) > 2 else pts * 2, width=4)
            x, y = self.centre(self.stroke[0])
            Line(circle=(x, y, size * 0.2), width=2)

    def _ground(self, size: float, cols: int, rows: int, ox: float, oy: float) -> None:
        """The grass and the grid.  The same lines as the board view's `refresh`: they go
        when that view gains this method (the diff is in the board editor's merge notes)."""
        Color(*GRASS)
        Rectangle(pos=(ox, oy), size=(size * cols, size * rows))
        Color(*GRID)
        for c in range(cols + 1):
            Line(points=[ox + c * size, oy, ox + c * size, oy + rows * size], width=1)
        for r in range(rows + 1):
            Line(points=[ox, oy + r * size, ox + cols * size, oy + r * size], width=1)

    def _text(
        self,
        text: str,
        x: float,
        y: float,
        font: float,
        colour: tuple[float, float, float] = (1, 1, 1),
    ) -> None:
        """Bold letters centred on (x, y), on whole pixels so no stroke of a glyph is lost."""
        key = (text, max(6, int(font)))
        if key not in _TEXTURES:
            core = CoreLabel(text=text, font_size=key[1], bold=True)
            core.refresh()
            _TEXTURES[key] = core.texture
        tex = _TEXTURES[key]
        Color(*colour)
        pos = (round(x - tex.width / 2), round(y - tex.height / 2))
        Rectangle(texture=tex, pos=pos, size=tex.size)

    def _printed(self, board: Board, size: float, on: set[str]) -> None:
        """What is printed on the land board: altar, treasure, entrance, spawns."""
        small = size * 0.26
        for sq in board.entrance:
            if sq.upper() in on:
                x, y = self.centre(sq.upper())
                Color(1, 1, 1, 0.25)
                Rectangle(pos=(x - size / 2, y - size / 2), size=(size, size))
                self._text("in", x, y - size * 0.28, small)
        if board.altar.upper() in on:
            x, y = self.centre(board.altar.upper())
            Color(*ALTAR)
            Rectangle(pos=(x - size * 0.4, y - size * 0.4), size=(size * 0.8, size * 0.8))
            self._text("altar", x, y, small)
        for sq in board.treasures:
            if sq.upper() in on:
                x, y = self.centre(sq.upper())
                Color(*TREASURE)
                Ellipse(pos=(x - size * 0.2, y - size * 0.2), size=(size * 0.4, size * 0.4))
                self._text("$", x, y, small, (0.2, 0.15, 0))
        for slot, sq in board.spawns.items():
            if sq.upper() in on:
                x, y = self.centre(sq.upper())
                Color(*SLOT_COLOURS.get(slot, (1, 1, 1)))
                Ellipse(pos=(x - size * 0.32, y - size * 0.32), size=(size * 0.64, size * 0.64))
                self._text(SLOT_LETTERS.get(slot, "?"), x, y, size * 0.34)

    def _trails(self, board: Board, size: float, on: set[str]) -> None:
        """Each trail as a loop with an arrowhead on every step, the way its feet point."""
        for slot, trail in board.trails.items():
            squares = [s.upper() for s in trail if s.upper() in on]
            if len(squares) < 2:
                continue
            Color(*SLOT_COLOURS.get(slot, (1, 1, 1)), 0.9)
            pts = [p for sq in [*squares, squares[0]] for p in self.centre(sq)]
            Line(points=pts, width=2)
            for a, b in zip(squares, [*squares[1:], squares[0]], strict=True):
                (ax, ay), (bx, by) = self.centre(a), self.centre(b)
                mx, my = (ax + bx) / 2, (ay + by) / 2
                ang = math.atan2(by - ay, bx - ax)
                tip = (mx + math.cos(ang) * size * 0.14, my + math.sin(ang) * size * 0.14)
                back = [
                    (mx + math.cos(ang + s) * size * 0.14, my + math.sin(ang + s) * size * 0.14)
                    for s in (2.5, -2.5)
                ]
                Triangle(points=[*tip, *back[0], *back[1]])

    def _marked(self, size: float, on: set[str]) -> None:
        """The problems' squares ringed and their walls thickened in the warning colour,
        each with a "!" badge so a mark is not taken for the red trail."""
        badges: list[tuple[float, float]] = []
        Color(*style.warn)
        for problem in self.problems:  # BoardProblems
            for sq in problem.squares:
                if sq in on:
                    x, y = self.centre(sq)
                    half = size / 2 - 2
                    Line(rectangle=(x - half, y - half, 2 * half, 2 * half), width=3)
                    badges.append((x + size * 0.3, y + size * 0.3))
            for a, b in problem.edges:
                if a in on and b in on:
                    (ax, ay), (bx, by) = self.centre(a), self.centre(b)
                    mx, my = (ax + bx) / 2, (ay + by) / 2
                    dx, dy = (by - ay) / 2, (bx - ax) / 2  # along the edge, half a square
                    Line(points=[mx - dx, my - dy, mx + dx, my + dy], width=5)
                    badges.append((mx, my))
        radius = size * 0.24
        for x, y in badges:
            Color(1, 1, 1)
            Ellipse(pos=(x - radius - 2, y - radius - 2), size=(2 * radius + 4, 2 * radius + 4))
            Color(*style.warn)
            Ellipse(pos=(x - radius, y - radius), size=(2 * radius, 2 * radius))
            self._text("!", x, y, size * 0.38)
