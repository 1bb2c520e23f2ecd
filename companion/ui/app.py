"""The tablet app: one ScreenManager, one asyncio loop, one open session at a time.

Screens only read the session and send commands through the app's methods here; the app
owns the library, the settings, the dice hub and the open session, and tells screens to
refresh when the session changes (its `subscribe` hook), so no screen polls the rules.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
import traceback
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from kivy.app import App
from kivy.base import ExceptionHandler, ExceptionManager
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.properties import NumericProperty, ObjectProperty
from kivy.uix.screenmanager import NoTransition, Screen, ScreenManager
from kivy.utils import platform

from companion.core.library import Library
from companion.core.our_copy import follow_undo
from companion.core.rules import RuleError
from companion.failures import friendly
from companion.jsontypes import JsonValue
from companion.paths import data_home
from companion.table.dice_hub import DiceHub
from companion.ui import widgets  # noqa: F401  (loads the shared kv rules)
from companion.ui.cue import Cue
from companion.ui.settings import UserSettings
from companion.ui.style import style

if TYPE_CHECKING:
    from companion.core.game import Game
    from companion.core.session import Result, Session

SCREENS = ("home", "new", "settings", "session")


ERROR_LOG = "errors.log"
_LOG_LIMIT = 1024 * 1024  # the log is started afresh past this size


class RefusalHandler(ExceptionHandler):
    """Nothing raised inside a touch handler, a clock callback or a game view stops the app.

    A rules refusal is shown in its own words; a session-file problem (locked, read-only,
    full, damaged) in its words; anything else is a bug: it is written with the session's
    name and its traceback to `errors.log` in the user data folder, the player is told in
    one line, and play goes on from the state the session file holds."""

    def __init__(self, app: CompanionApp) -> None:
        super().__init__()
        self.app = app

    def handle_exception(self, inst: BaseException) -> int:
        if isinstance(inst, KeyboardInterrupt | SystemExit):
            return int(ExceptionManager.RAISE)
        # report_error never stops the app: a failure inside it is swallowed like the rest
        with contextlib.suppress(Exception):
            self.app.report_error(inst)
        return int(ExceptionManager.PASS)


class CompanionApp(App):
    title = "Table Companion"

    session = ObjectProperty(None, allownone=True)
    dice_version = NumericProperty(0)  # bumped when a source, battery or dice message changes

    def __init__(
        self, demo: bool = False, library: Library | None = None, **kwargs: object
    ) -> None:
        super().__init__(**kwargs)
        self.demo = demo
        self._redrawing = False
        self.library = library or Library()
        self.settings = UserSettings.load()
        self.hub = DiceHub(on_change=self._dice_changed)
        self.cue = Cue(self.settings.cues)
        self.apply_settings()

    # -- settings and theme ----------------------------------------------------------------

    def apply_settings(self) -> None:
        style.use(self.settings.theme, self.settings.font_scale)
        Window.clearcolor = style.bg
        self.cue.enabled = self.settings.cues

    def save_settings(self) -> None:
        self.settings.save()
        self.apply_settings()

    # -- building ----------------------------------------------------------------------

    def build(self) -> ScreenManager:
        """Only the home screen is made here: the others (and the game views, panels and
        packages behind them) are made the first time they are shown or asked for, so
        the app reaches its home screen sooner (benchmarks/bench_start.py)."""
        from companion.ui.screens.home import HomeScreen

        Window.softinput_mode = "below_target"
        if not any(isinstance(h, RefusalHandler) for h in ExceptionManager.handlers):
            ExceptionManager.add_handler(RefusalHandler(self))
        for handler in ExceptionManager.handlers:
            if isinstance(handler, RefusalHandler):
                handler.app = self
        Window.bind(on_keyboard=self._on_key)
        manager = ScreenManager(transition=NoTransition())
        manager.add_widget(HomeScreen(name="home"))
        return manager

    @staticmethod
    def _make_screen(name: str) -> Screen:
        if name == "new":
            from companion.ui.screens.newgame import NewGameScreen

            return NewGameScreen(name=name)
        if name == "settings":
            from companion.ui.screens.settings import SettingsScreen

            return SettingsScreen(name=name)
        if name == "session":
            from companion.ui.screens.session import SessionScreen

            return SessionScreen(name=name)
        raise KeyError(f"no screen called {name!r}")

    BACK = {"new": "home", "settings": "session", "session": "home"}

    def _on_key(self, _window: object, key: int, *_args: object) -> bool:
        """Android's back button (Escape on a desktop) steps back a screen instead of
        closing the app mid-game; only on the home screen does it leave."""
        if key != 27 or self.root is None or self.root.current == "home":
            return False
        current = self.root.current
        if current == "session":
            self.screen("session").leave()
        elif current == "new" and self.screen("new").game_id:
            self.screen("new").show_games()
        else:
            self.go(self.BACK.get(current, "home"))
        return True

    def go(self, name: str) -> None:
        if name == "session" and self.session is None:
            name = "home"
        self.screen(name)  # made on first use
        self.root.current = name

    def screen(self, name: str) -> Screen:
        """The screen called `name`, made the first time it is wanted."""
        if not self.root.has_screen(name):
            self.root.add_widget(self._make_screen(name))
        return self.root.get_screen(name)

    def made(self, name: str) -> bool:
        """Whether the screen `name` has been made (one never shown needs no refresh)."""
        return self.root is not None and self.root.has_screen(name)

    # -- sessions ----------------------------------------------------------------------

    def attach(self, session: Session) -> None:
        self.close_session()
        self.session = session
        session.auto_steps = True  # at the table, steps with no choice take themselves
        session.subscribe(self._session_changed)
        session.subscribe(follow_undo)  # an undone check leaves the group's pack too
        self.hub.attach(session)
        self.keep_awake(True)
        if self.root is not None and self.root.current == "session":
            self.screen("session").sync_session()  # already showing: no enter event comes
        self.go("session")

    def start_session(
        self, game: Game, options: Mapping[str, JsonValue], packs: list[str]
    ) -> Session:
        """Create and open a new session; RuleError or ContentError propagate in words."""
        session = self.library.new(game, options, packs)
        self.attach(session)
        session.take_auto_steps()  # the first round's start, when it asks only for cards
        return session

    def open_session(self, ref: str) -> Session:
        session = self.library.open(ref)
        self.attach(session)
        return session

    def close_session(self) -> None:
        if self.session is not None:
            self.session.unsubscribe(self._session_changed)
            self.session.unsubscribe(follow_undo)
            self.session.close()
            self.session = None
            self.hub.attach(None)
            self.keep_awake(False)

    def _session_changed(self, session: Session, result: Result | None) -> None:
        if self.made("session"):
            self.screen("session").refresh()

    def _dice_changed(self) -> None:
        """A source, battery or dice message changed: the panel shows it on the next frame
        (the hub may call from a roll's task; Kivy widgets are touched only by the clock)."""
        self.dice_version += 1
        if self.made("session"):
            Clock.schedule_once(lambda _dt: self.screen("session").panels["dice"].refresh_sources())

    def keep_awake(self, on: bool) -> None:
        """Keep the screen lit while a session is open: nobody wants to unlock mid-battle."""
        on = on and self.settings.keep_awake
        Window.allow_screensaver = not on
        if platform == "android":  # pragma: no cover - only on a tablet
            with contextlib.suppress(Exception):
                from android.runnable import run_on_ui_thread  # type: ignore
                from jnius import autoclass  # type: ignore

                activity = autoclass("org.kivy.android.PythonActivity").mActivity
                flag = autoclass("android.view.WindowManager$LayoutParams").FLAG_KEEP_SCREEN_ON

                @run_on_ui_thread  # type: ignore[untyped-decorator]
                def apply() -> None:
                    window = activity.getWindow()
                    (window.addFlags if on else window.clearFlags)(flag)

                apply()

    # -- lifecycle ---------------------------------------------------------------------

    def report_error(self, exc: BaseException) -> str:
        """Say an unexpected failure in words where the player is looking, and log it."""
        if isinstance(exc, RuleError):
            words = exc.message
        else:
            known = friendly(exc)
            if known is None:
                where = self._log_error(exc)
                words = (
                    f"Something went wrong (noted in {where.name} in the app's folder); "
                    "the game is as last saved."
                )
                self._reload_session()
            else:
                words = known
        if self.root is not None:
            if self.root.current == "session":
                self.screen("session").error = words
            else:
                self.screen("home").say(words, "warn")
        return words

    def _log_error(self, exc: BaseException) -> Path:
        path = data_home() / ERROR_LOG
        session = self.session.id if self.session is not None else "none"
        trace = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
        stamp = time.strftime("%Y-%m-%d %H:%M:%S")
        with contextlib.suppress(OSError):
            if path.exists() and path.stat().st_size > _LOG_LIMIT:
                path.replace(path.with_suffix(".log.1"))
            with open(path, "a", encoding="utf-8") as fh:
                fh.write(f"--- {stamp} session {session}\n{trace}\n")
        return path

    def _reload_session(self) -> None:
        """After a bug mid-command, show what the file holds, not a half-changed memory.

        The screen is redrawn on the next frame; if that fails too it is not retried, so a
        view that cannot draw shows its error instead of failing every frame."""
        if self.session is None:
            return
        with contextlib.suppress(Exception):
            self.session.refresh()
        if self._redrawing or self.root is None:
            return
        self._redrawing = True

        def redraw(_dt: float) -> None:
            try:
                self.screen("session").refresh()
            finally:
                self._redrawing = False

        Clock.schedule_once(redraw)

    def _loop_error(self, loop: asyncio.AbstractEventLoop, context: dict[str, object]) -> None:
        exc = context.get("exception")
        if not isinstance(exc, BaseException):  # asyncio's context holds one, or none
            exc = RuntimeError(str(context.get("message", "an error in a background task")))
        with contextlib.suppress(Exception):
            self.report_error(exc)

    def on_start(self) -> None:
        with contextlib.suppress(RuntimeError):
            asyncio.get_running_loop().set_exception_handler(self._loop_error)
        if self.demo:  # `make run`: a dice tray on a pseudo-terminal to roll from the screen
            with contextlib.suppress(RuntimeError):
                asyncio.get_running_loop().create_task(self.hub.start_simulated())

    def on_pause(self) -> bool:
        """The tablet went to sleep or another app came forward: free the camera, keep
        running (everything shown is already saved in the session file)."""
        if self.made("session"):
            self.screen("session").stop_camera()
        return True

    def on_resume(self) -> None:
        if self.root is not None and self.root.current == "session":
            screen = self.screen("session")
            if screen.tab == "cards":
                screen.panels["cards"].start_camera()

    def on_stop(self) -> None:
        Window.unbind(on_keyboard=self._on_key)
        if self.made("session"):
            if self.root.current == "session":
                self.screen("session").on_leave()  # its once-a-second device watch stops too
            self.screen("session").stop_camera()  # the scanner's threads
        self.close_session()  # the dice sources (and the demo's tray) are closed by
        # launch.run_app once the loop has stopped

    def schedule(self, func: Callable[[], object], delay: float = 0) -> None:
        Clock.schedule_once(lambda _dt: func(), delay)
