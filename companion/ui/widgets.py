"""Shared widgets sized for a tablet at arm's length: 48 dp or larger targets, scalable text.

Their looks live in `widgets.kv` and follow the app's theme and text size properties, so a
change in Settings restyles every screen at once.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from kivy.core.text import Label as CoreLabel
from kivy.lang import Builder
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.togglebutton import ToggleButton
from kivy.uix.widget import Widget

from companion.ui import scrolling

scrolling.install()  # every ScrollView kept on what it holds
Builder.load_file(str(Path(__file__).with_suffix(".kv")))


def text_width(text: str, font_size: float, font_name: str) -> float:
    """The width `text` takes on one line, for a control sized to its word."""
    return float(CoreLabel(font_size=font_size, font_name=font_name).get_extents(text)[0])


class NoThemePicture:
    """A button or toggle with no picture of Kivy's theme behind it, as the class's own
    defaults (the kv rules draw the app's colours): Kivy's Button rule draws first, with
    the defaults, and any theme picture it names loads the whole theme atlas (a 512x512
    texture, 1 MB, kept for the app's life) before a kv rule blanks it (issue 26:
    benchmarks/bench_memory.py).  Listed before Button or ToggleButton."""

    background_normal = StringProperty("")
    background_down = StringProperty("")
    background_disabled_normal = StringProperty("")
    background_disabled_down = StringProperty("")


class BigButton(NoThemePicture, Button):
    """The app's button: at least 64 dp tall; `primary` marks the one thing to do next."""

    primary = BooleanProperty(False)
    min_height = NumericProperty(0)


class BigToggle(NoThemePicture, ToggleButton):
    pass


class Body(Label):
    """Wrapped body text that grows to fit what it says."""


class Heading(Label):
    pass


class Notice(Label):
    """A sentence for the players (an error in words, a dice message); hidden when empty."""

    tone = StringProperty("info")  # "info" | "warn" | "ok"


class Panel(BoxLayout):
    """A filled, padded box in the theme's panel colour."""

    fill = ListProperty([])


def clear_and_fill(container: Widget, widgets: Iterable[Widget]) -> None:
    container.clear_widgets()
    for w in widgets:
        container.add_widget(w)


def fit_columns(grid: GridLayout, most: int) -> None:
    """`grid`'s columns: as many as `most`, fewer where a button's longest word would not
    fit its column (a phone at the Largest text broke "bleed/ing", "Monstr/ous").  Kept
    right as the grid's width, its buttons or the text size change."""
    from kivy.clock import Clock
    from kivy.metrics import dp

    watched: set[int] = set()  # the buttons whose type size is watched (a new text size)

    def fit(*_args: object) -> None:
        buttons = [b for b in grid.children if isinstance(b, Label)]
        for b in buttons:
            if id(b) not in watched:
                watched.add(id(b))
                b.bind(font_size=later)
        if not buttons or grid.width <= 1:
            return
        widest = max(
            text_width(word, b.font_size, b.font_name)
            for b in buttons
            for word in str(b.text).split() or [""]
        )
        room = grid.width - grid.padding[0] - grid.padding[2]
        spacing = grid.spacing[0]
        cols = min(most, len(buttons))
        # a button's text is laid out in its width less 12 dp (widgets.kv), plus a pixel
        while cols > 1 and (room - spacing * (cols - 1)) / cols < widest + dp(12) + 2:
            cols -= 1
        if grid.cols != cols:
            grid.cols = cols

    later = Clock.create_trigger(fit, -1)
    grid.bind(width=later, children=later)
    fit()
