"""Plays a round of a game by touch alone and counts what it cost the table.

Why: issue 12 asks that a whole round be played from the tablet by touch, with no keyboard,
and that the taps be counted so a change that adds taps shows.  The round_by_touch tests and
benchmarks/bench_taps.py drive the same rounds through this one driver.  Every tap is a real
touch on the widget showing the text; after each the driver fails if any text input has
focus (the on-screen keyboard would have come up over the table).
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from tests.ui.kivyharness import ARTIFACTS, KivyTestCase, walk
from tests.ui.test_ergonomics import (
    SIZES,
    Found,
    Looks,
    box,
    is_known,
    look_now,
    sorted_out,
    text_size,
)

TEXT_SIZES = ("Normal", "Largest")

# Problems the ergonomics checks find in the rounds today that are not fixed yet, each with
# why, matched as tests/ui/test_ergonomics.py's KNOWN is (`is_known`: two parts of the
# line: "<game> <players>p-<step> (step n); <size>, <text> text: <problem>").  Anything
# else fails the round; remove an entry as soon as its fix lands.
KNOWN: list[tuple[str, str, str]] = []


class FrameUnseen(AssertionError):
    """Something the shared session frame draws is off screen (not the game view's doing)."""


@dataclass
class RoundCount:
    """What one round cost: taps, keyboard entries, and dice-answer-to-card times (ms)."""

    game: str
    dice: str = "keypad"  # how the dice were answered: "keypad" (tapped) or "tray" (rolled)
    players: int = 0  # the players (Kradia), clans (Direwild) or heroes (HEXplore) at the table
    taps: int = 0
    setup_taps: int = 0  # of `taps`, those in the home screen and wizard before the round
    keyboard: int = 0
    answer_to_card_ms: list[float] = field(default_factory=list)
    frames_to_card: list[int] = field(default_factory=list)
    shots: list[Path] = field(default_factory=list)
    unseen: list[str] = field(default_factory=list)  # what needed scrolling, and where
    # the same for what the shared session frame draws (the result card): its fix is the
    # frame's, so a round test reports these apart from its own view's
    frame_unseen: list[str] = field(default_factory=list)
    tapped: list[str] = field(default_factory=list)  # what each tap of the round was on


class RoundDriver:
    """Taps for a test case, counted; screenshots of each step at Normal and Largest text."""

    def __init__(self, case: KivyTestCase, game: str, players: int = 0) -> None:
        self.case = case
        self.count = RoundCount(game, players=players)
        # benchmarks/bench_taps.py counts the same round with ROUND_SHOTS=0: no screenshots,
        # each step checked at the size the window has
        self.shots = os.environ.get("ROUND_SHOTS", "1") != "0"
        self.step = 0
        self.folder = ARTIFACTS / "rounds" / game
        self.prefix = f"{players}p-" if players else ""  # the screenshots of each count apart
        # ROUND_DICE=tray: the dice answer from a tray (the outside world, faked at the
        # edge as tests/ui/memsource.py does) instead of the keypad: no taps for a roll
        self.count.dice = os.environ.get("ROUND_DICE", "keypad")
        self._tray: Any = None
        # issue 25: every step at every size and text size also held to the ergonomics
        # checks (tests/ui/looks.py), each problem kept once with every step it was seen at
        self.found: Found = {}
        self.looks: dict[str, Looks] = {}

    def roll(self, values: list[int], done: Callable[[], bool] | None = None) -> None:
        """Answer the dice asked for with `values`: tapped on the Dice panel's keypad, or
        rolled on a tray; with `done`, the time to it is kept as the answer-to-card time."""
        from companion.core.rules import DIE_FACES

        app = self.case.app
        request = app.session.request
        assert request is not None and request.kind == "dice", "no roll is asked for"
        if self.count.dice == "tray":
            from tests.ui.memsource import MemorySource

            self._tray = self._tray or MemorySource("dice tray")
            faces = [v for _label, v in DIE_FACES[request.profile]]
            start = time.perf_counter()
            for n, value in enumerate(values):
                app.hub.feed(self._tray.event(faces.index(value), die=f"mem:{n + 1}"))
            self._wait(done, start)
            return
        keypad = app.screen("session").panels["dice"].ids.keypad
        labels = {v: label for label, v in DIE_FACES[request.profile]}
        for value in values[:-1]:
            self.tap(labels[value], within=keypad)
        if done is None:
            self.tap(labels[values[-1]], within=keypad)
        else:
            ms = self.tap_until(labels[values[-1]], done, within=keypad)
            self.count.answer_to_card_ms.append(ms)

    def _wait(self, done: Callable[[], bool] | None, start: float) -> None:
        for frame in range(100):
            self.case.frames(1)
            if done is None or done():
                if done is not None:
                    self.count.frames_to_card.append(frame + 1)
                    self.count.answer_to_card_ms.append((time.perf_counter() - start) * 1000)
                break
        else:
            raise AssertionError("the dice rolled never led to what was expected")
        self.no_keyboard()

    def set_players(self, name: str, count: int) -> None:
        """The wizard's option `name` set to `count` by touch: a number stepped with - and
        +, or a pick of several (the first `count` of its list) toggled on and off."""
        from companion.ui.screens.newgame import OptionRow, option_label

        screen = self.case.app.screen("new")
        self.case.frames(2)
        row = next(w for w in walk(screen) if isinstance(w, OptionRow) and w.option["name"] == name)
        option = row.option
        if "pick" not in option:
            while (value := int(str(row.value))) != count:
                self.tap("-" if value > count else "+", within=row)
            return
        wanted = list(option["pick"])[:count]
        for item in option["pick"]:
            if (item in row.value) != (item in wanted):
                self.tap(option_label(option, item), within=row)
        assert list(row.value) == wanted, (row.value, wanted)

    def round_starts(self) -> None:
        """The game is set up: taps from here are the round's."""
        self.count.setup_taps = self.count.taps

    def tap(self, text: Any, within: Any = None) -> None:
        what = text if isinstance(text, str) else getattr(text, "text", repr(text))
        self.case.tap(text, within=within)
        self.counted(what)

    def counted(self, what: str) -> None:
        """One tap made, on `what`; a tap before the round starts is the set-up's."""
        self.count.taps += 1
        self.count.tapped.append(what)
        self.no_keyboard()

    def tap_until(self, text: str, done: Callable[[], bool], within: Any = None) -> float:
        """Tap, then draw frames until `done()`: the milliseconds from the touch to the
        first frame drawn after it held (a dice answer to its result card)."""
        self.case.frames(2)
        widget = self.case.find(text, within=within)
        self.case.scroll_into_view(widget)
        x, y = widget.to_window(*widget.center)
        from kivy.tests.common import UnitTestTouch

        touch = UnitTestTouch(x, y)
        self.case.as_main_loop(touch.touch_down)
        self.case.frames(1)
        start = time.perf_counter()
        self.case.as_main_loop(touch.touch_up)
        for frame in range(100):
            self.case.frames(1)
            if done():
                self.count.frames_to_card.append(frame + 1)
                break
        else:
            raise AssertionError(f"tapping {text!r} never led to what was expected")
        elapsed = (time.perf_counter() - start) * 1000
        self.counted(text)
        return elapsed

    def report(self) -> None:
        """The counts as JSON to the file ROUND_COUNTS names, for bench_taps: called by
        a round test only once every assertion held, so a failed round counts nothing."""
        out = os.environ.get("ROUND_COUNTS")
        if out:
            data = {k: v for k, v in asdict(self.count).items() if k != "shots"}
            Path(out).write_text(json.dumps(data))

    def no_keyboard(self) -> None:
        from kivy.uix.textinput import TextInput

        focused = [w for w in walk(self.case.Window) if isinstance(w, TextInput) and w.focus]
        if focused:
            self.count.keyboard += len(focused)
            raise AssertionError(f"a text input took focus: {focused[0]!r}")

    def shoot(self, name: str, check: Callable[[], None] | None = None) -> None:
        """This step in landscape, portrait and on a phone (`SIZES`), at Normal and Largest
        text: `check` runs at each (what must be on screen), and so do the ergonomics checks
        (`look_now`, as tests/ui/test_ergonomics.py runs them); what they find is kept in
        `count.unseen` and `found`, so one run lists every layout that fails; a screenshot
        of each to artifacts/ui/rounds/<game>/."""
        from kivy.metrics import dp

        from companion.ui.settings import TEXT_SIZES as SCALES

        self.step += 1
        if not self.shots:
            if check is not None:
                self.checked(check, name)
            return
        self.folder.mkdir(parents=True, exist_ok=True)
        before = tuple(self.case.Window.size)
        for size_name in TEXT_SIZES:
            with text_size(SCALES[size_name]):
                for orientation, size in SIZES.items():
                    self.case.resize(size)
                    self.case.settle()
                    where = (
                        f"{self.count.game} {self.prefix}{name}, {orientation}, {size_name} text"
                    )
                    if check is not None:
                        self.checked(check, where)
                    looks = self.looks.setdefault(orientation, Looks(dp(48), size))
                    step = f"{self.count.game} {self.prefix}{name} (step {self.step})"
                    look_now(looks, self.found, orientation, size_name, step)
                    stem = f"{self.prefix}{self.step:02d}-{name}-{size_name.lower()}-{orientation}"
                    self.count.shots.append(self.case.shoot_here(self.folder / f"{stem}.png"))
        self.case.resize(before)
        self.case.settle()

    def checked(self, check: Callable[[], None], where: str) -> None:
        """`check` run, what it finds kept: the frame's apart from the game view's."""
        try:
            check()
        except FrameUnseen as exc:
            self.count.frame_unseen.append(f"{where}: {exc}")
        except AssertionError as exc:
            self.count.unseen.append(f"{where}: {exc}")

    def problems(self, known: list[tuple[str, str, str]]) -> list[str]:
        """What the round's steps showed wrong and is not on `known` (the rounds' list of
        what is not fixed yet, each with why): what `check` found unseen, then the
        ergonomics checks' problems; the known ones printed with the test's output.
        Fails if the ergonomics checks looked at nothing (shots on)."""
        unseen = [line for line in self.count.unseen if not is_known(line, known)]
        seen_known = [line for line in self.count.unseen if is_known(line, known)]
        if self.shots:
            checked = sum(looks.checked_texts for looks in self.looks.values())
            assert checked > 0 and len(self.looks) == len(SIZES), "the checks looked at nothing"
        lines, known_lines = sorted_out(self.found, known)
        seen_known += known_lines
        if seen_known:
            print(f"{len(seen_known)} known problems (KNOWN):\n" + "\n".join(seen_known))
        return unseen + lines


def frame_on_screen(widget: Any, what: str) -> None:
    """`on_screen` for a widget of the shared session frame."""
    try:
        on_screen(widget, what)
    except AssertionError as exc:
        raise FrameUnseen(str(exc)) from None


def on_screen(widget: Any, what: str, inside: Any = None) -> None:
    """`widget` is wholly inside the window and inside every scroller holding it, as it is
    now: seen without scrolling; and inside `inside` (its area of the screen), if given, so
    a view taller than its area is caught where it would draw over its neighbours."""
    from kivy.uix.scrollview import ScrollView

    assert widget.get_root_window() is not None, f"{what} is not shown"
    left, bottom, right, top = box(widget)
    window = widget.get_root_window()
    slack = 1.0
    assert bottom >= -slack and top <= window.height + slack, (
        f"{what} is off the window ({bottom:.0f}..{top:.0f} of {window.height})"
    )
    assert left >= -slack and right <= window.width + slack, f"{what} is off the window sideways"
    parent = widget.parent
    while parent is not None and parent is not window:
        if isinstance(parent, ScrollView):
            _l, sb, _r, st = box(parent)
            assert bottom >= sb - slack and top <= st + slack, (
                f"{what} needs scrolling to be seen ({bottom:.0f}..{top:.0f}, "
                f"the scroller shows {sb:.0f}..{st:.0f})"
            )
        parent = parent.parent
    if inside is not None:
        _l, ib, _r, it = box(inside)
        assert bottom >= ib - slack and top <= it + slack, (
            f"{what} spills out of its area ({bottom:.0f}..{top:.0f}, the area is "
            f"{ib:.0f}..{it:.0f})"
        )
