"""Chapter, round, the Fatal Wounds pile and Karn's Hunting Track at a glance.

Karn's track is drawn as the track on the table: a row of spaces, Karn's star on his space and
the altar on the last one, so how near he is reads without counting dashes.
"""

from __future__ import annotations

from kivy.graphics import Color, Line, Rectangle
from kivy.lang import Builder
from kivy.properties import BooleanProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from companion.content.pack import Content
from companion.games.direwild.view import DirewildState, Karn
from companion.ui.games.direwild.colours import ALTAR, GRASS, OUTLINE
from companion.ui.games.direwild.pieces import Piece, draw_piece, draw_text, pieces, text_px

Builder.load_file(__file__.replace(".py", ".kv"))

PHASE_WORDS = {
    "setup": "setting up",
    "game": "the Enemy AI's turn",
    "turn_order": "choosing the turn order",
    "adventure": "the heroes' turns",
    "round_over": "round over",
}


def karn_text(k: Karn) -> str:
    """Karn in words, beside his track (or instead of it once he is on the board)."""
    if k.defeated:
        return "Karn: defeated"
    cards = f"{k.cards_left} cards, {k.regenerates_left} regenerate, stamina {k.stamina:+d}"
    if k.on_board:
        return f"Karn is on the board at {k.position}: {cards}"
    return f"Karn is on space {k.track + 1} of {k.track_length} of his track: {cards}"


class KarnTrack(Widget):
    """The Hunting Track: one box a space, Karn's star on his, the altar at the end."""

    spaces = NumericProperty(7)
    at = NumericProperty(0)
    piece: Piece | None = None

    def on_size(self, *_: object) -> None:
        self.draw()

    def on_pos(self, *_: object) -> None:
        self.draw()

    def draw(self) -> None:
        self.canvas.clear()
        if self.spaces < 1 or self.piece is None:
            return
        side = min(self.height, self.width / self.spaces)
        y = self.center_y
        with self.canvas:
            for i in range(int(self.spaces)):
                x = self.x + (i + 0.5) * side
                last = i == self.spaces - 1
                Color(*(ALTAR if last else GRASS))
                Rectangle(pos=(x - side * 0.46, y - side * 0.46), size=(side * 0.92, side * 0.92))
                Color(*OUTLINE)
                Line(rectangle=(x - side * 0.46, y - side * 0.46, side * 0.92, side * 0.92))
                if i == self.at:
                    draw_piece(self.piece, x, y, side * 0.46)
                elif last:  # inside its space: a larger "A" ran past the window's edge
                    draw_text("A", x, y, min(text_px(), side * 0.6))

    def track_space(self) -> float:
        """A space's side in pixels: the checks hold it to a readable size
        (tests/ui/looks.py), as a board's squares are held to a finger's."""
        return float(min(self.height, self.width / max(self.spaces, 1)))


class KarnHunt(BoxLayout):
    """Karn's track with its name, in the view's top row (never scrolled off with the
    board); empty once Karn is on the board or defeated (the status line says where)."""

    on_track = BooleanProperty(True)
    space = NumericProperty(40)  # a space's side, set by the view from the room it has
    # the name above the spaces, not beside them: side by side they are wider than the
    # view (DirewildView.fit_top)
    name_above = BooleanProperty(False)

    def show(self, state: DirewildState, content: Content | None = None) -> None:
        k = state.karn
        self.on_track = not (k.on_board or k.defeated)
        track = self.ids.track
        track.piece = pieces(state, content)[-1] if content is not None else None
        track.spaces, track.at = k.track_length, k.track
        track.draw()


class StatusView(BoxLayout):
    chapter = StringProperty("")
    wounds = StringProperty("")
    karn = StringProperty("")
    side_by_side = BooleanProperty(True)  # the Fatal Wounds beside the chapter, not below
    wounds_width = NumericProperty(0)  # their words on one line

    def on_kv_post(self, base_widget: object) -> None:
        self.ids.wounds.bind(font_size=self._measure)
        self._measure()

    def on_wounds(self, *_args: object) -> None:
        self._measure()

    def _measure(self, *_args: object) -> None:
        from kivy.core.text import Label as CoreLabel

        label = self.ids.get("wounds")
        if label is None:  # the rule's widgets not made yet
            return
        core = CoreLabel(font_size=label.font_size, font_name=label.font_name)
        self.wounds_width = float(core.get_extents(self.wounds)[0])

    def show(self, state: DirewildState, content: Content | None = None) -> None:
        outcome = f" - {state.outcome.replace('_', ' ')}" if state.outcome else ""
        phase = PHASE_WORDS.get(state.phase, state.phase.replace("_", " "))
        self.chapter = f"Chapter {state.chapter}, round {state.round}: {phase}{outcome}"
        self.wounds = f"Fatal Wounds left: {state.fatal_wounds}"
        self.karn = karn_text(state.karn)
