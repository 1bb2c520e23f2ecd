"""The fate wheel as the board draws it: the Fate Cycle's numbers 0-10 round the rim with
this cycle marked, the Fate Tracker's segments inside (one per rise of this cycle), the
cycle big in the middle, and the four Battle Sites' Sentinel tokens at its corners.

Tapping the wheel corrects the Fate Cycle; tapping the tracker bar beside it corrects the
Fate Tracker (each through the Fix panel's correction, checked by the rules).
"""

from __future__ import annotations

import math

from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, Ellipse, Line, Rectangle
from kivy.lang import Builder
from kivy.metrics import sp
from kivy.properties import (
    BooleanProperty,
    ListProperty,
    NumericProperty,
    ObjectProperty,
    StringProperty,
)
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from companion.games.hexplore.view import (
    ADRIMON_CYCLE,
    BATTLE_SITES,
    HexploreState,
    cycle_length,
    movement,
)
from companion.ui.games.hexplore.text import cycle_warnings
from companion.ui.style import style

Builder.load_file(__file__.replace(".py", ".kv"))

LIT = (0.85, 0.55, 0.15, 1)
SENTINEL = (0.75, 0.2, 0.2, 1)


def _text(canvas_text: str, size: float, centre: tuple[float, float], bold: bool = False) -> None:
    """Draw `canvas_text` centred on `centre` (inside a canvas block)."""
    label = CoreLabel(text=canvas_text, font_size=size, bold=bold)
    label.refresh()
    texture = label.texture
    w, h = texture.size
    Rectangle(texture=texture, pos=(centre[0] - w / 2, centre[1] - h / 2), size=(w, h))


class WheelDrawing(ButtonBehavior, Widget):
    """The drawing; `cycle`, `tracker`, `length` and `sentinels` (Battle Site numbers
    with a Sentinel on them) redraw it."""

    cycle = NumericProperty(0)
    tracker = NumericProperty(0)
    length = NumericProperty(6)
    sentinels = ListProperty([])
    scale = NumericProperty(1.0)

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self.bind(
            pos=self.redraw,
            size=self.redraw,
            cycle=self.redraw,
            tracker=self.redraw,
            length=self.redraw,
            sentinels=self.redraw,
            scale=self.redraw,
        )
        style.bind(fg=self.redraw, muted=self.redraw)  # the numbers follow the theme

    def marks(self) -> list[tuple[str, tuple[float, float, float, float]]]:
        """The rim's numbers, each with a box around it in window pixels: the words of the
        drawing a check of contrast measures (tests/ui/looks.py)."""
        cx, cy = self.center
        rim = max(30.0, min(self.width, self.height) / 2 - sp(12) * self.scale)
        half = sp(15) * self.scale
        out = []
        for n in range(ADRIMON_CYCLE + 1):
            a = math.pi / 2 - 2 * math.pi * n / (ADRIMON_CYCLE + 1)
            x, y = self.to_window(cx + rim * math.cos(a), cy + rim * math.sin(a))
            out.append((f"number {n}", (x - half, y - half, x + half, y + half)))
        return out

    def redraw(self, *_: object) -> None:
        self.canvas.clear()
        cx, cy = self.center
        rim = max(30.0, min(self.width, self.height) / 2 - sp(12) * self.scale)
        number = sp(15) * self.scale
        with self.canvas:
            # the cycle numbers round the rim, clockwise from the top; this one ringed
            for n in range(ADRIMON_CYCLE + 1):
                a = math.pi / 2 - 2 * math.pi * n / (ADRIMON_CYCLE + 1)
                x, y = cx + rim * math.cos(a), cy + rim * math.sin(a)
                if n == self.cycle:
                    Color(*LIT)
                    Ellipse(pos=(x - number, y - number), size=(2 * number, 2 * number))
                # the theme's muted text, not the unlit grey (2.1:1 on the panel; issue 25)
                Color(*((0.1, 0.1, 0.1, 1) if n == self.cycle else style.muted))
                _text(str(n), number, (x, y), bold=n == self.cycle)
            # the tracker's segments, lit as far as it has risen this cycle
            ring = rim - number * 1.8
            n = max(1, int(self.length))
            step = 360 / n
            for i in range(n):
                # lit: thick and orange; unlit: thin and muted (3:1 or more on the panel),
                # so how far the tracker rose reads by thickness as well as colour
                lit = i < self.tracker
                Color(*(LIT if lit else style.muted))
                Line(circle=(cx, cy, ring, i * step + 5, (i + 1) * step - 5), width=6 if lit else 2)
            # the Battle Sites' Sentinel tokens at the corners: filled where one stands
            token = sp(13) * self.scale
            corners = [
                (self.x + token, self.top - token),
                (self.right - token, self.top - token),
                (self.right - token, self.y + token),
                (self.x + token, self.y + token),
            ]
            for site, (x, y) in enumerate(corners, start=1):
                here = site in self.sentinels
                Color(*(SENTINEL if here else style.muted))
                if here:
                    Rectangle(pos=(x - token, y - token), size=(2 * token, 2 * token))
                else:
                    Line(rectangle=(x - token, y - token, 2 * token, 2 * token), width=1.5)
                Color(*((1, 1, 1, 1) if here else style.fg))
                _text(str(site), token * 1.1, (x, y), bold=here)
            Color(*style.fg)
            _text(str(self.cycle), sp(40) * self.scale, (cx, cy + sp(6) * self.scale), True)
            _text("Cycle", sp(14) * self.scale, (cx, cy - sp(22) * self.scale))


class FateWheel(BoxLayout):
    cycle_text = StringProperty("")
    tracker_text = StringProperty("")  # for screen readers: the bar shows it
    turn_text = StringProperty("")
    sentinels_text = StringProperty("")
    warnings_text = StringProperty("")
    adrimon_text = StringProperty("")
    tracker = NumericProperty(0)
    length = NumericProperty(6)
    warnings = ListProperty([])
    correct = ObjectProperty(None)  # the view's correct_value(title, path, **bounds)
    stacked = BooleanProperty(False)  # the words below the wheel, not beside it (kv)

    def show(self, s: HexploreState) -> None:
        length = cycle_length(s)
        self.tracker, self.length = s.fate.tracker, length
        drawing = self.ids.drawing
        drawing.cycle, drawing.tracker, drawing.length = s.fate.cycle, s.fate.tracker, length
        sites = [f"battle_site_{n}" for n in range(1, BATTLE_SITES + 1)]
        drawing.sentinels = [
            sites.index(x.location) + 1 for x in s.sentinels if x.location in sites
        ]
        self.cycle_text = f"Cycle\n{s.fate.cycle}"
        self.tracker_text = f"Turn {s.turn}: Fate Tracker {s.fate.tracker} of {length}"
        self.turn_text = f"Game Turn {s.turn}"
        self.ids.tracker.show("Fate Tracker", s.fate.tracker, length, "energy")
        self.ids.movement.text = (
            f"{s.play_style.replace('_', ' ').capitalize()} play: moving {movement(s)} hexes a turn"
        )
        self.sentinels_text = "Sentinels: " + (
            ", ".join(x.location.replace("_", " ") for x in s.sentinels) or "none"
        )
        self.warnings = cycle_warnings(s)
        self.warnings_text = "\n".join(self.warnings)
        self.adrimon_text = (
            "ADRIMON ATTACKS EVERY EVENT PHASE"
            if s.adrimon_attacks
            else f"Adrimon teleports at cycle {ADRIMON_CYCLE} ({ADRIMON_CYCLE - s.fate.cycle} to go)"
        )

    def correct_cycle(self) -> None:
        if self.correct is not None:
            self.correct("Fate Cycle", "fate.cycle", least=0, most=ADRIMON_CYCLE)

    def correct_tracker(self) -> None:
        if self.correct is not None:
            self.correct("Fate Tracker", "fate.tracker", least=0, most=int(self.length) - 1)
