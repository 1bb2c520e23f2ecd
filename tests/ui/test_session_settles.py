"""The session screen settles at once when a session opens and after a step (issue 26).

Why: the frame's layout once swung for about 2 s after a Direwild session opened with a
card asked for: the scrolling column's height went between 1,258 and 10,030 px, the
"Waiting: ..." line was wrapped at 38, 16, 402 and 424 px, the view's `room_needed` went
between 230 and 956 and back, and the board's canvas was rebuilt fourteen times, each
pass redrawing the window (and the game's cached picture, drawcache.py); a layout that
depends on timing fails a UI test on a busy machine (issue 25).  Each figure is counted
from the moment the game's view is put in the frame; a value left and come back to is a
swing.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.ui.kivyharness import LANDSCAPE, PORTRAIT, AppTestCase

pytestmark = pytest.mark.ui

PHONE = (412, 915)
BENCH = (800, 600)  # Kivy's own window size: benchmarks/bench_memory.py's


def swings(values: list[float]) -> list[float]:
    """The values taken again after another was taken in between (A, B, A)."""
    return [
        v for i, v in enumerate(values) if any(abs(v - w) < 0.5 for w in values[: max(i - 1, 0)])
    ]


class Watch:
    """What the frame does to the game's view and the result card, change by change."""

    def __init__(self, screen: Any) -> None:
        self.screen = screen
        self.need: list[float] = []
        self.column: list[float] = []
        self.key: list[float] = []
        self.wrapped: list[float] = []  # the widths the "Waiting: ..." line was wrapped at
        self.homes: list[str] = []
        self.boards = 0  # the board's canvas drawn anew
        card = screen.ids.result.__self__
        card.bind(parent=self.moved)
        screen.ids.game_area.bind(children=self.shown)

    def moved(self, _card: Any, home: Any) -> None:
        if home is not None:  # (taken out, then put in its new home)
            self.homes.append(self.home())

    def shown(self, _area: Any, views: list[Any]) -> None:
        if views:
            self.watch(views[0])

    def home(self) -> str:
        card = self.screen.ids.result.__self__
        return "beside" if card.parent is self.screen.ids.side.__self__ else "above"

    def watch(self, view: Any) -> None:
        """The view just put in the frame: each change from now (its words not yet drawn)."""
        ids = view.ids
        view.bind(room_needed=lambda _v, need: self.need.append(need))
        ids.column.bind(height=lambda _c, high: self.column.append(high))
        ids.key.bind(height=lambda _k, high: self.key.append(high))
        request = ids.request

        def wrapped(*_args: Any) -> None:
            if request.text:
                self.wrapped.append(request.width)

        request.bind(texture_size=wrapped)
        board = ids.board
        drawn = board.refresh

        def refresh() -> None:  # counted, then drawn as ever
            self.boards += 1
            drawn()

        board.refresh = refresh

    def clear(self) -> None:
        self.need, self.column, self.key, self.wrapped, self.homes = [], [], [], [], []
        self.boards = 0

    def check(self, what: str, most_boards: int) -> None:
        """One or two passes: no figure swings, the card moves home at most once."""
        assert not swings(self.need), f"{what}: room_needed swung: {self.need}"
        assert not swings(self.column), f"{what}: the scrolling column swung: {self.column}"
        assert not swings(self.key), f"{what}: the board's key swung: {self.key}"
        assert len(set(self.wrapped)) <= 1, f"{what}: 'Waiting' wrapped at {self.wrapped}"
        assert len(self.homes) <= 1, f"{what}: the result card moved {self.homes}"
        assert self.boards <= most_boards, f"{what}: the board drawn {self.boards} times"


class TestSessionSettles(AppTestCase):
    def open_direwild(self, size: tuple[int, int]) -> tuple[Any, Watch]:
        from companion.games import get_game
        from companion.ui.screens.newgame import default_options

        app = self.start_app(size=size)
        app.settings.camera = -1  # no camera here: the Cards panel says so
        watch = Watch(app.screen("session"))
        game = get_game("direwild")
        app.start_session(game, default_options(game), app.settings.packs_for(game.id))
        self.settle()
        screen = app.screen("session")
        assert screen.tab == "cards" or screen.phone, "a card is asked for: the Cards panel"
        assert screen.view.request_text.startswith("Waiting: draw")
        return app, watch

    def check_open_and_step(self, size: tuple[int, int], name: str) -> None:
        app, watch = self.open_direwild(size)
        column = watch.column[-1] if watch.column else 0.0
        assert max(watch.column, default=0.0) <= 1.5 * column, watch.column
        watch.check(f"{name}, opening", most_boards=6)
        # a step: the card asked for shown (tapped in the Cards panel)
        screen = app.screen("session")
        watch.clear()
        steps = len(app.session.chain.alive)
        options = screen.panels["cards"].ids.options
        self.tap(options.children[-1])
        self.settle()
        assert len(app.session.chain.alive) > steps, "the card tapped was taken"
        watch.check(f"{name}, a step", most_boards=4)

    def test_landscape(self) -> None:
        self.check_open_and_step(LANDSCAPE, "landscape")

    def test_kivy_window(self) -> None:
        self.check_open_and_step(BENCH, "800 x 600")

    def test_portrait(self) -> None:
        self.check_open_and_step(PORTRAIT, "portrait")

    def test_phone(self) -> None:
        self.check_open_and_step(PHONE, "phone")


class Stop(Exception):
    """The round stopped where the test looks."""


class TestResultCardSettles(AppTestCase):
    def test_phone_once_a_hero_moved(self) -> None:
        """On a phone at Normal text, once a Direwild hero moved, the result card's least
        swung 169 <-> 203 px in a four-frame cycle (its headline set smaller where the frame
        gave it less, its detail lines with it, their height read back into its least), the
        game's view 470 <-> 555 px high with it and the board's scroll a frame behind: on
        screen, a card that never stops flickering."""
        from tests.ui.rounds import driver as rounds
        from tests.ui.rounds.direwild import play_round

        driver = rounds.RoundDriver(self, "direwild", 2)
        driver.shots = False  # the steps before played without their screenshots
        seen: dict[str, list[float]] = {"least": [], "height": [], "view": []}
        shoot = driver.shoot

        def look(name: str, check: Any = None) -> None:
            if name != "hero-moved":
                return shoot(name, check)
            self.resize(PHONE)
            self.settle()
            screen = self.app.screen("session")
            card = screen.ids.result.__self__
            for _ in range(12):
                self.frames(1)
                seen["least"].append(card.least)
                seen["height"].append(card.height)
                seen["view"].append(screen.view.height)
            raise Stop

        driver.shoot = look  # type: ignore[method-assign]
        with pytest.raises(Stop):
            play_round(driver, 2)
        for what, values in seen.items():
            assert len(set(values)) == 1, f"the card's {what} keeps changing: {values}"
