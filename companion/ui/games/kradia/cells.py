"""A coloured box of text: a track space, a battlefield space, a state badge, and a bar
filled as far as a value goes (a hero's HP and Mana, read at a glance across the table)."""

from __future__ import annotations

from pathlib import Path
from typing import TypeVar

from kivy.lang import Builder
from kivy.metrics import dp
from kivy.properties import ColorProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.gridlayout import GridLayout
from kivy.uix.widget import Widget

from companion.ui.games.readable import Bar, GameText

__all__ = ["Bar", "Cell", "TapTrack", "fit"]  # the bar is shared by every game's view

Builder.load_file(str(Path(__file__).with_suffix(".kv")))

TONES = {
    "plain": (0.2, 0.22, 0.26, 1),
    "dim": (0.13, 0.14, 0.17, 1),
    "marker": (0.15, 0.45, 0.75, 1),
    "overdrive": (0.55, 0.3, 0.1, 1),
    "rage": (0.6, 0.12, 0.12, 1),
    "good": (0.15, 0.45, 0.25, 1),
    "bad": (0.55, 0.15, 0.15, 1),
}


W = TypeVar("W", bound=Widget)


class Cell(GameText):
    background = ColorProperty(TONES["plain"])

    def __init__(self, tone: str = "plain", **kwargs: object) -> None:
        super().__init__(**kwargs)
        self.background = TONES[tone]


class TapTrack(ButtonBehavior, GridLayout):
    """A track the player taps to correct what it marks (the boss's HP, the rage): the
    whole track is the touch target (a space alone is too small for a finger), and the
    space under the finger, its `space`, is where the correction starts (-/+ from there)."""

    def space_touched(self) -> int | None:
        touch = self.last_touch
        if touch is None:
            return None
        x, y = self.to_widget(*touch.pos)
        near = [c for c in self.children if getattr(c, "space", None) is not None]
        hit = [c for c in near if c.collide_point(x, y)]
        if not hit and near:  # between two spaces: the nearest one
            hit = [min(near, key=lambda c: (c.center_x - x) ** 2 + (c.center_y - y) ** 2)]
        return hit[0].space if hit else None


def fit(label: W) -> W:
    """A label as tall as its wrapped text, and never under 36 dp."""
    label.size_hint_y = None
    label.height = dp(36)
    label.bind(texture_size=lambda w, ts: setattr(w, "height", max(dp(36), ts[1] + dp(8))))
    return label
