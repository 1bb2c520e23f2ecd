"""The fate wheel: the tracker ring (one segment per rise of this cycle), the cycle in the
middle, the Sentinels on the board and a warning as the cycle nears a hero's skills."""

from __future__ import annotations

from typing import Any

from kivy.graphics import Color, Line
from kivy.lang import Builder
from kivy.properties import ListProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from companion.games.hexplore.state import cycle_length, movement
from companion.ui.games.hexplore.text import cycle_warnings

Builder.load_file(__file__.replace(".py", ".kv"))


class TrackerRing(Widget):
    """Segments 0..length-1; the first `tracker` are lit."""

    tracker = NumericProperty(0)
    length = NumericProperty(6)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.bind(pos=self.redraw, size=self.redraw, tracker=self.redraw, length=self.redraw)

    def redraw(self, *_: Any) -> None:
        self.canvas.clear()
        n = max(1, int(self.length))
        r = max(10.0, min(self.width, self.height) / 2 - 8)
        cx, cy = self.center
        step = 360 / n
        with self.canvas:
            for i in range(n):
                lit = i < self.tracker
                Color(0.85, 0.55, 0.15, 1) if lit else Color(0.3, 0.3, 0.35, 1)
                Line(circle=(cx, cy, r, i * step + 4, (i + 1) * step - 4), width=7)


class FateWheel(BoxLayout):
    cycle_text = StringProperty("")
    tracker_text = StringProperty("")
    sentinels_text = StringProperty("")
    warnings_text = StringProperty("")
    adrimon_text = StringProperty("")
    tracker = NumericProperty(0)
    length = NumericProperty(6)
    warnings = ListProperty([])

    def show(self, s: Any) -> None:
        length = cycle_length(s)
        self.tracker, self.length = s.fate.tracker, length
        self.cycle_text = f"Cycle\n{s.fate.cycle}"
        self.tracker_text = (
            f"Turn {s.turn}: Fate Tracker {s.fate.tracker} of {length}"
            f" ({s.play_style.replace('_', ' ')}, moving {movement(s)} hexes a turn)"
        )
        self.sentinels_text = "Sentinels: " + (
            ", ".join(x.location.replace("_", " ") for x in s.sentinels) or "none"
        )
        self.warnings = cycle_warnings(s)
        self.warnings_text = "\n".join(self.warnings)
        self.adrimon_text = (
            "ADRIMON ATTACKS EVERY EVENT PHASE"
            if s.adrimon_attacks
            else f"Adrimon teleports at cycle 10 ({10 - s.fate.cycle} to go)"
        )
