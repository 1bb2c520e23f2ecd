"""The live theme and text size, as Kivy properties every `.kv` rule binds to.

Kept outside the App so a game's view (and its tests) can use the shared widgets without
an app running; the app copies the player's settings in here and every screen restyles.
"""

from __future__ import annotations

from kivy.event import EventDispatcher
from kivy.properties import ListProperty, NumericProperty, StringProperty

from companion.ui.theme import PALETTES


class Style(EventDispatcher):
    theme = StringProperty("dark")
    font_scale = NumericProperty(1.0)
    bg = ListProperty(PALETTES["dark"]["bg"])
    panel = ListProperty(PALETTES["dark"]["panel"])
    fg = ListProperty(PALETTES["dark"]["fg"])
    muted = ListProperty(PALETTES["dark"]["muted"])
    button = ListProperty(PALETTES["dark"]["button"])
    button_down = ListProperty(PALETTES["dark"]["button_down"])
    accent = ListProperty(PALETTES["dark"]["accent"])
    accent_fg = ListProperty(PALETTES["dark"]["accent_fg"])
    warn = ListProperty(PALETTES["dark"]["warn"])
    ok = ListProperty(PALETTES["dark"]["ok"])

    def use(self, theme: str, font_scale: float) -> None:
        self.theme = theme if theme in PALETTES else "dark"
        self.font_scale = font_scale
        for key, value in PALETTES[self.theme].items():
            setattr(self, key, list(value))


style = Style()
