"""Text and controls for the games' own views, readable at arm's length.

The games' views are denser than the frame's screens, so these are a step smaller than
`companion.ui.widgets` (17 sp text, 48 dp controls rather than 20 sp and 64 dp) but follow
the same theme text size, and never go under the app's floor of 16 sp and 48 dp.
"""

from __future__ import annotations

from pathlib import Path

from kivy.lang import Builder
from kivy.properties import BooleanProperty, ColorProperty, NumericProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.button import Button
from kivy.uix.label import Label
from kivy.uix.togglebutton import ToggleButton

from companion.ui.widgets import NoThemePicture

Builder.load_file(str(Path(__file__).with_suffix(".kv")))

TEXT_SP = 17  # body text of a game view, before the player's text size setting


class GameText(Label):
    """A label at `sp` (17 unless told) times the text size setting."""

    sp = NumericProperty(TEXT_SP)


class GameButton(NoThemePicture, Button):
    """A button at least 48 dp each way that grows with its (wrapped) text; `primary`
    marks the one next step, in the theme's accent."""

    sp = NumericProperty(TEXT_SP)
    primary = BooleanProperty(False)


class GameToggle(NoThemePicture, ToggleButton):
    # disabled, it is flat too (the Direwild view's toggles are disabled only while put
    # away, at no height or opacity, and drew the theme's grey picture)
    sp = NumericProperty(TEXT_SP)


BAR_FILLS = {
    # white words on the fill stand 4.5:1 or more (the old green was 4.2:1, issue 25)
    "hp": (0.16, 0.45, 0.24, 1),
    "health": (0.16, 0.45, 0.24, 1),
    "red": (0.7, 0.2, 0.2, 1),
    "blue": (0.2, 0.4, 0.8, 1),
    "energy": (0.2, 0.4, 0.8, 1),
    "influence": (0.55, 0.35, 0.7, 1),
}


class Bar(ButtonBehavior, GameText):
    """'HP 9/10' over a bar filled to 9/10: the words say it, the fill shows it.

    A bar is the thing a player taps when the table disagrees with it: `on_release` is
    free for the view to open a correction of just that value."""

    fill = ColorProperty(BAR_FILLS["hp"])
    fraction = NumericProperty(0.0)

    def show(self, word: str, value: int, most: int, kind: str) -> None:
        self.text = f"{word} {value}/{most}"
        self.fill = BAR_FILLS[kind]
        self.fraction = max(0.0, min(1.0, value / most)) if most else 0.0


def fitted_font(text: str, width: float, size: float, least: float) -> float:
    """The font size, at most `size` and never under `least`, at which the one word
    `text` fits `width` (a column title that would otherwise break mid-word)."""
    from kivy.core.text import Label as CoreLabel

    if not text or width <= 0:
        return size
    wide = CoreLabel(font_size=size, bold=True).get_extents(text)[0]
    return size if wide <= width else max(least, size * width / wide)
