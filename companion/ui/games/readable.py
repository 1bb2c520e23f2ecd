"""Text and controls for the games' own views, readable at arm's length.

The games' views are denser than the frame's screens, so these are a step smaller than
`companion.ui.widgets` (17 sp text, 48 dp controls rather than 20 sp and 64 dp) but follow
the same theme text size, and never go under the app's floor of 16 sp and 48 dp.
"""

from __future__ import annotations

from pathlib import Path

from kivy.lang import Builder
from kivy.properties import NumericProperty
from kivy.uix.button import Button
from kivy.uix.label import Label
from kivy.uix.togglebutton import ToggleButton

Builder.load_file(str(Path(__file__).with_suffix(".kv")))

TEXT_SP = 17  # body text of a game view, before the player's text size setting


class GameText(Label):
    """A label at `sp` (17 unless told) times the text size setting."""

    sp = NumericProperty(TEXT_SP)


class GameButton(Button):
    """A button at least 48 dp each way that grows with its (wrapped) text."""

    sp = NumericProperty(TEXT_SP)


class GameToggle(ToggleButton):
    sp = NumericProperty(TEXT_SP)
