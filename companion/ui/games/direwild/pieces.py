"""How each unit is drawn: its shape, colour and initials, on the board and in its key.

Why: a player across the table tells the pieces apart by shape and name as well as colour
(issue 12: never by hue alone), so heroes are discs, each minion slot has its own polygon and
Karn is a star; the initials are the unit's name, never a "?".  Only geometry here: the board
and the key draw with `draw_piece`, so the two can never disagree.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, Line, Mesh, Rectangle
from kivy.graphics.texture import Texture
from kivy.metrics import sp

from companion.content.pack import Content
from companion.games.direwild.view import DirewildState, label, minion_of
from companion.ui.games.direwild.colours import CLAN_COLOURS, FACE_DOWN, OUTLINE, SLOT_COLOURS
from companion.ui.games.readable import TEXT_SP
from companion.ui.style import style

# sides of each minion slot's polygon (0: a disc, -5: a five-pointed star)
SHAPES: dict[str, int] = {"hero": 0, "red": 4, "blue": -4, "green": 6, "black": 3, "karn": -5}
SHAPE_WORDS: dict[str, str] = {
    "hero": "disc",
    "red": "square",
    "blue": "diamond",
    "green": "hexagon",
    "black": "triangle",
    "karn": "star",
}


@dataclass(frozen=True)
class Piece:
    """One unit as drawn: what it is called, its initials, colour and shape."""

    unit: str  # a clan, a minion slot or "karn"
    name: str  # "Red minion (Coatl)", "Stormbringer", "Karn"
    initials: str
    colour: tuple[float, float, float]
    shape: int
    face_down: bool = False  # a minion not yet active: drawn hollow


PIECE_RADIUS = 0.44  # a piece's radius, in squares: a gap is left between neighbours


def text_px() -> float:
    """The app's body text at the player's text size: board text is never smaller."""
    return float(sp(TEXT_SP) * style.font_scale)


def initials_of(words: str, taken: set[str]) -> str:
    """Two letters of a name, more if another unit already has them ("St", "Sh")."""
    clean = "".join(c for c in words if c.isalpha())
    for n in range(2, len(clean) + 1):
        guess = clean[0].upper() + clean[1:n].lower()
        if guess not in taken:
            return guess
    return clean.title() or "?"


def pieces(state: DirewildState, content: Content) -> list[Piece]:
    """Every unit the table has, heroes first, then minions by slot, then Karn."""
    out: list[Piece] = []
    taken: set[str] = set()
    for clan in state.heroes:
        short = initials_of(clan, taken)
        taken.add(short)
        out.append(
            Piece(clan, clan.title(), short, CLAN_COLOURS.get(clan, (1, 1, 1)), SHAPES["hero"])
        )
    for slot, e in state.enemies.items():
        m = minion_of(state, slot, content)
        title = m.title if m is not None else slot
        short = initials_of(title, taken)
        taken.add(short)
        out.append(
            Piece(
                slot,
                label(state, slot, content),
                short,
                SLOT_COLOURS.get(slot, (1, 1, 1)),
                SHAPES.get(slot, 5),
                face_down=not e.active,
            )
        )
    out.append(Piece("karn", "Karn", "K", SLOT_COLOURS["karn"], SHAPES["karn"]))
    return out


def outline_points(x: float, y: float, r: float, shape: int) -> list[float]:
    """The corners of a shape centred on (x, y) reaching radius r."""
    if shape == 0:
        n, radii, turn = 32, [r], 0.0
    elif shape < 0 and shape != -4:
        n, radii, turn = -shape * 2, [r, r * 0.5], math.pi / 2
    elif shape == -4:  # a diamond: a square on its corner
        n, radii, turn = 4, [r], math.pi / 2
    elif shape == 4:  # a square sits flat, its sides as wide as a disc's
        n, radii, turn = 4, [r * 1.25], math.pi / 4
    else:
        n, radii, turn = shape, [r], math.pi / 2
    pts: list[float] = []
    for i in range(n):
        a = turn + 2 * math.pi * i / n
        rad = radii[i % len(radii)]
        pts += [x + rad * math.cos(a), y + rad * math.sin(a)]
    return pts


_TEXTURES: dict[tuple[str, float], Texture] = {}


def text_texture(text: str, font: float) -> Texture:
    """The outlined words as a texture, made once per text and size (an outline costs
    tens of milliseconds to render, and the board is redrawn on every change)."""
    key = (text, round(font, 1))
    if key not in _TEXTURES:
        core = CoreLabel(
            text=text, font_size=font, bold=True, outline_width=2, outline_color=OUTLINE
        )
        core.refresh()
        _TEXTURES[key] = core.texture
    return _TEXTURES[key]


_PLAIN: dict[tuple[str, float], Texture] = {}


def plain_texture(text: str, font: float) -> Texture:
    """Words with no outline (the board's coordinates, on the view's own background),
    made once per text and size and tinted by the theme's text colour when drawn."""
    key = (text, round(font, 1))
    if key not in _PLAIN:
        core = CoreLabel(text=text, font_size=font, bold=True)
        core.refresh()
        _PLAIN[key] = core.texture
    return _PLAIN[key]


def fitted_font(text: str, font: float, room: float) -> float:
    """`font`, or smaller so the outlined `text` is no wider than `room`."""
    wide = text_texture(text, font).width
    return font if wide <= room else float(max(8, int(font * room / wide)))


def draw_text(
    text: str, x: float, y: float, font: float, colour: tuple[float, float, float] = (1, 1, 1)
) -> None:
    """Words centred on (x, y), outlined dark so they read on any colour."""
    tex = text_texture(text, font)
    Color(*colour)
    Rectangle(texture=tex, pos=(x - tex.width / 2, y - tex.height / 2), size=tex.size)


def draw_piece(piece: Piece, x: float, y: float, r: float, selected: bool = False) -> None:
    """The unit's shape filled with its colour (hollow when face down), its initials on it."""
    pts = outline_points(x, y, r, piece.shape)
    n = len(pts) // 2
    # face down: a dark card back ringed in the slot's colour; face up: filled with it
    Color(*(FACE_DOWN if piece.face_down else piece.colour))
    verts: list[float] = [x, y, 0, 0]
    for i in range(n):
        verts += [pts[2 * i], pts[2 * i + 1], 0, 0]
    verts += [pts[0], pts[1], 0, 0]
    Mesh(vertices=verts, indices=list(range(n + 2)), mode="triangle_fan")
    Color(*OUTLINE)
    Line(points=pts, close=True, width=4 if piece.face_down else 1.5)
    if piece.face_down:
        Color(*piece.colour)
        Line(points=pts, close=True, width=2.5)
    if selected:
        Color(1, 1, 1)
        Line(circle=(x, y, r + 4), width=2.5)
    draw_text(piece.initials, x, y, piece_font(piece.initials, r))


def piece_font(initials: str, r: float) -> float:
    """The app's text size, unless the initials would be wider than the piece's square
    (the board shrinks to fit while a roll or card is waited on and takes no taps; at the
    Largest text two neighbours' initials then ran into one, "CoSt")."""
    font = text_px()
    square = r / PIECE_RADIUS
    wide = text_texture(initials, font).width
    return font if wide <= square else float(max(8, int(font * square / wide)))
