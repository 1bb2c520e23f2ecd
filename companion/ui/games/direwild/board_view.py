"""The land board drawn from its board file: squares, walls, trails, spawns, treasure, units,
and each enemy's last path as numbered arrows."""

from __future__ import annotations

import math
from typing import Any

from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, Ellipse, Line, Rectangle, Triangle
from kivy.lang import Builder
from kivy.properties import ListProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.widget import Widget

from companion.games.direwild.board import DIRECTIONS, parse_size, parse_square
from companion.ui.games.direwild.colours import (
    ALTAR,
    CLAN_COLOURS,
    GRASS,
    GRID,
    SLOT_COLOURS,
    TREASURE,
    WALL,
)

Builder.load_file(__file__.replace(".py", ".kv"))


class BoardView(Widget):
    """Reads the session's state and board; a tap on a square is reported as `on_square`."""

    session = ObjectProperty(None, allownone=True)
    selected = StringProperty("")
    highlight = ListProperty([])  # the path of the AI step on show, drawn over the rest
    cols = NumericProperty(12)  # the board's size in squares, for the layout to size it by
    rows = NumericProperty(12)

    def on_highlight(self, *_: Any) -> None:
        self.refresh()

    __events__ = ("on_square",)

    def on_square(self, square: str) -> None:
        pass

    def _board(self) -> Any:
        return self.session.content.get("boards", self.session.state.board)

    def touch_cell_size(self) -> float:
        """The side of a square in pixels: each square is a touch target of its own."""
        return self._cell()[0]

    def _cell(self) -> tuple[float, int, int, float, float]:
        cols, rows = parse_size(self._board().size)
        size = min(self.width / cols, self.height / rows)
        ox = self.x + (self.width - size * cols) / 2
        oy = self.y + (self.height - size * rows) / 2
        return size, cols, rows, ox, oy

    def centre(self, square: str) -> tuple[float, float]:
        size, _, rows, ox, oy = self._cell()
        c, r = parse_square(square)
        return ox + (c + 0.5) * size, oy + (rows - r - 0.5) * size

    def square_at(self, x: float, y: float) -> str | None:
        size, cols, rows, ox, oy = self._cell()
        c, r = int((x - ox) // size), rows - 1 - int((y - oy) // size)
        if 0 <= c < cols and 0 <= r < rows:
            return f"{'ABCDEFGHIJKLMNOPQRSTUVWXYZ'[c]}{r + 1}"
        return None

    def on_touch_down(self, touch: Any) -> bool:
        if self.session is None or not self.collide_point(*touch.pos):
            return super().on_touch_down(touch)
        square = self.square_at(*touch.pos)
        if square:
            self.dispatch("on_square", square)
            return True
        return False

    def on_size(self, *_: Any) -> None:
        self.refresh()

    def on_pos(self, *_: Any) -> None:
        self.refresh()

    def refresh(self) -> None:
        self.canvas.clear()
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
            self._units(state, size)
            self._paths(state, size)
            if len(self.highlight) > 1:
                Color(1, 1, 1, 0.9)
                Line(points=[p for sq in self.highlight for p in self.centre(sq)], width=4)

    def _label(self, text: str, x: float, y: float, font: float, colour=(1, 1, 1)) -> None:
        label = CoreLabel(text=text, font_size=font)
        label.refresh()
        tex = label.texture
        Color(*colour)
        Rectangle(texture=tex, pos=(x - tex.width / 2, y - tex.height / 2), size=tex.size)

    def _marks(self, board: Any, size: float) -> None:
        for slot, trail in board.trails.items():
            Color(*SLOT_COLOURS.get(slot, (1, 1, 1)), 0.35)
            pts = [p for sq in [*trail, trail[0]] for p in self.centre(sq.upper())]
            Line(points=pts, width=1.2, dash_length=4, dash_offset=3)
        for slot, sq in board.spawns.items():
            x, y = self.centre(sq.upper())
            Color(*SLOT_COLOURS.get(slot, (1, 1, 1)), 0.5)
            Line(circle=(x, y, size * 0.42), width=1.5)
        x, y = self.centre(board.altar.upper())
        Color(*ALTAR, 0.6)
        Rectangle(pos=(x - size * 0.4, y - size * 0.4), size=(size * 0.8, size * 0.8))
        for sq in self.session.state.treasures:
            x, y = self.centre(sq)
            Color(*TREASURE)
            Ellipse(pos=(x - size * 0.15, y - size * 0.15), size=(size * 0.3, size * 0.3))
        for sq in board.entrance:
            x, y = self.centre(sq.upper())
            self._label("in", x, y - size * 0.3, size * 0.3, (1, 1, 1))

    def _walls(self, board: Any, size: float) -> None:
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

    def _units(self, state: Any, size: float) -> None:
        r = size * 0.34
        for slot, e in state.enemies.items():
            if e.defeated or not e.position:
                continue
            x, y = self.centre(e.position)
            Color(*SLOT_COLOURS.get(slot, (1, 1, 1)))
            Rectangle(pos=(x - r, y - r), size=(2 * r, 2 * r))
            tag = f"{e.stamina:+d}" + (f" x{e.damage}" if e.damage else "")
            self._label(tag if e.active else "?", x, y, size * 0.28)
        k = state.karn
        if k.on_board and k.position and not k.defeated:
            x, y = self.centre(k.position)
            Color(*SLOT_COLOURS["karn"])
            Triangle(points=[x - r, y - r, x + r, y - r, x, y + r])
            self._label(f"K{k.stamina:+d}", x, y - r * 0.2, size * 0.24)
        for clan, h in state.heroes.items():
            if h.position == "staging" or h.eaten_by:
                continue
            x, y = self.centre(h.position)
            Color(*CLAN_COLOURS.get(clan, (1, 1, 1)))
            Ellipse(pos=(x - r, y - r), size=(2 * r, 2 * r))
            if self.selected == clan:
                Color(1, 1, 1)
                Line(circle=(x, y, r + 2), width=2)
            self._label(f"{h.stamina:+d}", x, y, size * 0.26)

    def _paths(self, state: Any, size: float) -> None:
        moves = [(s, e.path) for s, e in state.enemies.items() if len(e.path) > 1]
        if len(state.karn.path) > 1:
            moves.append(("karn", state.karn.path))
        for unit, path in moves:
            Color(*SLOT_COLOURS.get(unit, (1, 1, 1)))
            pts = [p for sq in path for p in self.centre(sq)]
            Line(points=pts, width=2)
            (x0, y0), (x1, y1) = self.centre(path[-2]), self.centre(path[-1])
            ang = math.atan2(y1 - y0, x1 - x0)
            tip = (x1 - math.cos(ang) * size * 0.35, y1 - math.sin(ang) * size * 0.35)
            left = (
                tip[0] - math.cos(ang - 0.5) * size * 0.2,
                tip[1] - math.sin(ang - 0.5) * size * 0.2,
            )
            right = (
                tip[0] - math.cos(ang + 0.5) * size * 0.2,
                tip[1] - math.sin(ang + 0.5) * size * 0.2,
            )
            Triangle(points=[*tip, *left, *right])
            for i, sq in enumerate(path[1:], start=1):
                x, y = self.centre(sq)
                self._label(str(i), x + size * 0.28, y + size * 0.28, size * 0.3, (1, 1, 0.6))


__all__ = ["DIRECTIONS", "BoardView"]
