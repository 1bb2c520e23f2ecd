"""Tablet ergonomics checked on every screen, both orientations: every control a finger
must hit is at least 48 dp each way, and no text is smaller than 16 sp at normal size.

The three real games' own views are held to the same rules on the session screen, with no
exception: a board that takes taps itself (Direwild's) has each square checked as a target.
"""

from __future__ import annotations

from contextlib import contextmanager

import pytest
from kivy.metrics import dp, sp
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.textinput import TextInput

from companion.games import get_game
from companion.ui.settings import TEXT_SIZES
from tests.ui.kivyharness import LANDSCAPE, PORTRAIT, AppTestCase, walk

pytestmark = pytest.mark.ui

SCREENS = ("home", "new", "settings", "session")


class TestErgonomics(AppTestCase):
    def visible(self, w) -> bool:
        return w.get_root_window() is not None and w.opacity > 0 and not w.disabled

    checked = 0

    def check_screen(self) -> list[str]:
        problems = []
        for w in walk(self.app.root):
            if not self.visible(w) or w.width <= 1 or w.height <= 1:
                continue
            target = isinstance(w, ButtonBehavior | TextInput)
            if target:
                self.checked += 1
            if target and min(w.size) < dp(48):
                label = getattr(w, "text", "") or getattr(w, "hint_text", "")
                problems.append(f"{type(w).__name__} {label!r} is {w.size}")
            # a board that takes taps itself: each square it hands out is a touch target
            cell = getattr(w, "touch_cell_size", None)
            if callable(cell) and cell() < dp(48):
                problems.append(f"{type(w).__name__} squares are {cell()}px")
            size = getattr(w, "font_size", None)
            if getattr(w, "text", "") and isinstance(size, float | int) and size < sp(16):
                problems.append(f"text {w.text!r} is {size}px")
        return problems

    def test_touch_targets_and_text_sizes(self) -> None:
        app = self.start_app()
        session = app.library.new(get_game("tiny"))
        session.do("roll")
        session.close()
        problems = []
        for size in (LANDSCAPE, PORTRAIT):
            self.resize(size)
            for name in SCREENS:
                if name == "session":
                    app.open_session("tiny-1")
                else:
                    app.go(name)
                if name == "new":
                    self.tap("Tiny")
                self.frames(3)
                problems += [f"{name} {size}: {p}" for p in self.check_screen()]
                if name == "session":
                    for tab in ("Log", "Fix", "Cards"):
                        self.tap(tab)
                        problems += [f"{name}/{tab} {size}: {p}" for p in self.check_screen()]
                    app.close_session()
        assert problems == []
        assert self.checked > 60  # the walk really saw the controls

    def check_game(self, game: str, *steps: str, card_asked: bool = False) -> None:
        """A real game started from the wizard's defaults, as a group would; then each of
        `steps` tapped in turn (bringing out the view's other controls: a pending roll's
        faces, a combat's heroes) and the screen checked again, in both orientations; then
        at normal and Largest text the top bar's words stay whole and, with `card_asked`, the
        Cards panel's camera message is drawn clear of the card buttons."""
        from kivy.uix.scrollview import ScrollView

        app = self.start_app()
        self.tap("New game")
        self.tap(get_game(game).title)
        self.tap("Start the game")
        assert app.root.current == "session", app.screen("new").ids.notice.text
        view = app.screen("session").view
        problems = []
        for step in ("", *steps):
            if step:
                self.resize(LANDSCAPE)
                self.tap(step, within=view)  # scrolled on screen first, as a player would
                refusal = getattr(view, "message", "")
                assert not refusal, f"{step}: {refusal}"
            for size in (LANDSCAPE, PORTRAIT):
                self.resize(size)
                self.frames(3)
                problems += [f"{game} {step or 'start'} {size}: {p}" for p in self.check_screen()]
        if card_asked:
            self.until_camera_said()
        for scale in (1.0, TEXT_SIZES["Largest"]):
            with text_size(scale):
                for size in (LANDSCAPE, PORTRAIT):
                    self.resize(size)
                    self.frames(3)
                    where = f"{game} at text size {scale} {size}"
                    if card_asked:
                        problems += [f"{where}: {p}" for p in self.card_panel_overlaps()]
                    problems += [f"{where}: {p}" for p in self.top_bar_breaks()]
                if scale != 1.0:
                    self.shoot(f"ergonomics-{game}-largest")
        self.shoot(f"ergonomics-{game}")  # the last step's screen, to look at
        for w in walk(view):
            if isinstance(w, ScrollView):
                w.scroll_y = 0
        self.shoot(f"ergonomics-{game}-scrolled-down")
        assert problems == [], "\n".join(problems)
        assert self.checked > 20

    def until_camera_said(self) -> None:
        """The Cards panel says in words that there is no camera (this machine has none)."""
        panel = self.app.screen("session").panels["cards"]
        for _ in range(200):
            if panel.camera_note and not panel.camera_note.startswith("Opening"):
                return
            self.frames(1)
        raise AssertionError(f"the Cards panel never said why there is no camera: {panel}")

    def card_panel_overlaps(self) -> list[str]:
        """The Cards panel's message about the camera drawn over a card button to tap."""
        panel = self.app.screen("session").panels["cards"]
        note = panel.ids.camera_note
        assert self.visible(note) and note.text, "the camera's message is not showing"
        buttons = [b for b in panel.ids.options.children if self.visible(b)]
        assert buttons, "no card is asked for on the Cards panel"
        return [
            f"the camera's message {box(note)} is over card {b.text!r} {box(b)}"
            for b in buttons
            if intersect(box(note), box(b))
        ]

    def top_bar_breaks(self) -> list[str]:
        """A top bar button whose word does not fit on it whole (a "Setting / s")."""
        ids = self.app.screen("session").ids
        return [p for name in ("home", "undo", "redo", "settings") for p in breaks(ids[name])]

    def test_session_tabs_stay_whole_at_every_text_size(self) -> None:
        """Each side panel tab's word on one line, whole, on the tab bar, at every text
        size in both orientations (at Largest in landscape "Phones" broke as "Phon/es")."""
        app = self.start_app()
        session = app.library.new(get_game("tiny"))
        session.close()
        app.open_session("tiny-1")
        ids = app.screen("session").ids
        tabs = [ids[f"tab_{name}"] for name in ("dice", "log", "fix", "cards", "phones")]
        problems = []
        for scale in TEXT_SIZES.values():
            with text_size(scale):
                for size in (LANDSCAPE, PORTRAIT):
                    self.resize(size)
                    self.frames(3)
                    where = f"text size {scale} {size}"
                    problems += [f"{where}: {p}" for tab in tabs for p in breaks(tab, line=True)]
                    assert all(tab.font_size >= sp(20) * scale for tab in tabs)
                if scale == TEXT_SIZES["Largest"]:
                    self.shoot("session-tabs-largest")
        assert problems == [], "\n".join(problems)


def breaks(button, line: bool = False) -> list[str]:
    """What is wrong with a button sized to its words: a word wider than the room it is
    wrapped to (a "Setting / s", a "Phon / es"), text taller than the button, the button
    off the bar holding it; with `line`, its text on more than one line."""
    from kivy.core.text import Label as CoreLabel

    problems = []
    room = button.text_size[0] if button.text_size[0] is not None else button.width
    for word in button.text.split():
        label = CoreLabel(text=word, font_size=button.font_size, font_name=button.font_name)
        label.refresh()
        if (
            label.texture.size[0] > min(room, button.width)
            or button.texture_size[1] > button.height
        ):
            problems.append(f"{word!r} does not fit whole on its button {button.size}")
    if line and button.texture_size[1] > button.font_size * 1.6:
        problems.append(f"{button.text!r} takes more than one line {button.texture_size}")
    if not contains(box(button.parent), box(button)):
        problems.append(f"{button.text!r} {box(button)} is off its bar {box(button.parent)}")
    return problems

    def test_direwild_view(self) -> None:
        self.check_game("direwild", "Start round", card_asked=True)  # then a card is asked for

    def test_kradia_view(self) -> None:
        self.check_game("kradia", "Start round 1", card_asked=True)

    def test_hexplore_view(self) -> None:
        self.check_game("hexplore", "Fight Giant Fox!")  # then each hero declares

    def test_new_game_wizard_from_the_games_options(self) -> None:
        """A game's `setup_options` become touch choices; its own refusal is shown."""
        from companion.games import register_game
        from tests.fixtures.tinygame import TinyGame

        class TinyWithOptions(TinyGame):
            setup_options = [
                {"name": "start", "label": "Starting score", "choices": [0, 5, 10], "default": 0},
                {"name": "heroes", "label": "Heroes", "min": 1, "max": 4, "default": 2},
            ]

        original = get_game("tiny")
        register_game(TinyWithOptions())
        try:
            app = self.start_app()
            self.tap("New game")
            self.tap("Tiny")
            self.tap("5")
            self.tap("+")
            self.tap("+")
            self.tap("+")  # stops at the maximum
            self.shoot("new-game-options")
            self.tap("Start the game")
            assert app.session is not None
            assert app.session.meta["options"] == {"start": 5, "heroes": 4}
            assert app.session.state.score == 5
        finally:
            register_game(original)


@contextmanager
def text_size(scale: float):
    """The text size setting, as Settings sets it; back to normal after."""
    from companion.ui.style import style

    before = style.font_scale
    style.font_scale = scale
    try:
        yield
    finally:
        style.font_scale = before


def box(widget) -> tuple[float, float, float, float]:
    """A widget's box in window coordinates: left, bottom, right, top."""
    left, bottom = widget.to_window(widget.x, widget.y)
    return left, bottom, left + widget.width, bottom + widget.height


def intersect(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def contains(outer, inner) -> bool:
    return (
        outer[0] <= inner[0]
        and inner[2] <= outer[2]
        and outer[1] <= inner[1]
        and inner[3] <= outer[3]
    )
