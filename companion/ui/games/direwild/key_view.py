"""The board's key: every unit beside its piece (name, square, stamina), then what each mark
on the board means.  A tap on a unit's row opens its correction sheet, as a tap on its piece.

Why: a player who did not set the board up must be able to read it from across the table
(issue 12), and the heroes' stamina belongs beside their standees, in the app's text size.
"""

from __future__ import annotations

from kivy.graphics import Color, Ellipse, Line, Rectangle, Triangle
from kivy.lang import Builder
from kivy.properties import ObjectProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.widget import Widget

from companion.content.pack import Content
from companion.games.direwild.view import STAGING, DirewildState
from companion.ui.games.direwild.colours import (
    ALTAR,
    ENTRANCE,
    GRASS,
    OUTLINE,
    SLOT_COLOURS,
    TREASURE,
    WALL,
)
from companion.ui.games.direwild.pieces import Piece, draw_piece, pieces

Builder.load_file(__file__.replace(".py", ".kv"))

# the marks of the board, in the words of the key
MARKS: list[tuple[str, str]] = [
    ("spawn", "Spawn: a ring in the minion's colour, named in it"),
    ("trail", "Trail: the dashed loop a minion walks"),
    ("altar", "Altar"),
    ("treasure", "Treasure token"),
    ("entrance", "Entrance: heroes come in here"),
    ("wall", "Wall"),
    ("path", "An enemy's last move: dots, then an arrow where it stopped"),
]


class KeyIcon(Widget):
    """A piece, or one of the board's marks, drawn small on grass as on the board."""

    piece = ObjectProperty(None, allownone=True)
    mark = StringProperty("")

    def on_size(self, *_: object) -> None:
        self.draw()

    def on_pos(self, *_: object) -> None:
        self.draw()

    def on_piece(self, *_: object) -> None:
        self.draw()

    def draw(self) -> None:
        self.canvas.clear()
        s = min(self.width, self.height)
        x, y = self.center
        with self.canvas:
            Color(*GRASS)
            Rectangle(pos=(x - s / 2, y - s / 2), size=(s, s))
            if self.piece is not None:
                draw_piece(self.piece, x, y, s * 0.46)
            else:
                self._mark(x, y, s)

    def _mark(self, x: float, y: float, s: float) -> None:
        red = SLOT_COLOURS["red"]
        if self.mark == "spawn":
            Color(*red, 0.8)
            Line(circle=(x, y, s * 0.42), width=2)
        elif self.mark == "trail":
            Color(*red, 0.7)
            Line(points=[x - s * 0.4, y, x + s * 0.4, y], width=1.5, dash_length=6, dash_offset=4)
        elif self.mark == "altar":
            Color(*ALTAR, 0.8)
            Rectangle(pos=(x - s * 0.4, y - s * 0.4), size=(s * 0.8, s * 0.8))
        elif self.mark == "treasure":
            Color(*TREASURE)
            Ellipse(pos=(x - s * 0.18, y - s * 0.18), size=(s * 0.36, s * 0.36))
        elif self.mark == "entrance":
            Color(*ENTRANCE)
            h = s * 0.45
            Triangle(points=[x - h * 0.6, y - h, x + h * 0.6, y - h, x, y - h * 0.2])
        elif self.mark == "wall":
            Color(*WALL)
            Line(points=[x, y - s / 2, x, y + s / 2], width=3)
        elif self.mark == "path":
            Color(*OUTLINE)
            Line(points=[x - s * 0.4, y, x + s * 0.3, y], width=4)
            Color(*SLOT_COLOURS["blue"])
            Line(points=[x - s * 0.4, y, x + s * 0.3, y], width=2.5)
            Triangle(points=[x + s * 0.45, y, x + s * 0.2, y + s * 0.15, x + s * 0.2, y - s * 0.15])


class KeyRow(ButtonBehavior, BoxLayout):
    """One line of the key: the icon and its words; a unit's row can be tapped."""

    words = StringProperty("")
    unit = StringProperty("")


def unit_words(piece: Piece, state: DirewildState) -> str:
    """The unit's name, where it is and its numbers, as the table would say them."""
    if piece.unit in state.heroes:
        h = state.heroes[piece.unit]
        where = "staging area" if h.position == STAGING else ("eaten" if h.eaten_by else h.position)
        return f"{piece.name}: {where}, stamina {h.stamina:+d}, magic {h.magic}"
    if piece.unit == "karn":
        k = state.karn
        at = "defeated" if k.defeated else (k.position if k.on_board else "on his track")
        return f"Karn: {at}, stamina {k.stamina:+d}"
    e = state.enemies[piece.unit]
    if e.defeated:
        return f"{piece.name}: defeated"
    where = e.position or "off the board"
    face = "" if e.active else ", face down"
    hurt = f", damage {e.damage}" if e.damage else ""
    return f"{piece.name}: {where}{face}, stamina {e.stamina:+d}{hurt}"


class BoardKey(GridLayout):
    """The key: a row per unit (tappable), then a row per mark of the board."""

    __events__ = ("on_unit",)

    def on_unit(self, unit: str) -> None:
        pass

    def show(self, state: DirewildState, content: Content) -> None:
        self.clear_widgets()
        for piece in pieces(state, content):
            if piece.unit == "karn" and not state.karn.on_board:
                continue
            row = KeyRow(words=unit_words(piece, state), unit=piece.unit)
            row.ids.icon.piece = piece
            row.bind(on_release=lambda r: self.dispatch("on_unit", r.unit))
            self._add(row)
        for mark, words in MARKS:
            row = KeyRow(words=words, disabled=True)
            row.ids.icon.mark = mark
            self._add(row)

    def _add(self, row: KeyRow) -> None:
        """`row` at the key's width at once, so its words are first wrapped at the width
        they are shown at: laid out later, made 100 px wide, they wrapped a few letters a
        line and the key stood 260 px taller for a pass, the board above it moving with
        it, at every step (issue 26)."""
        row.width = self.width
        row.do_layout()
        self.add_widget(row)
