"""Driving the real app, or one game's view, headless with real touches, and screenshots
of what it shows.

Built on Kivy's own `GraphicUnitTest` (it owns the window and the event loop between
frames) and `UnitTestTouch` (a touch that goes through Kivy's input dispatch, so a tap only
works if the button is really there, visible, and on top).  Screenshots are taken on the
frame after drawing (`companion.ui.shot`, bound to Window.on_flip) into `artifacts/ui/`.
`AppTestCase` drives the whole app; `ViewTestCase` one game view on its own, for the game
packages' tests (`tests/<game>/`).
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

from kivy.tests.common import GraphicUnitTest, UnitTestTouch

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = Path(os.environ.get("UI_ARTIFACTS", ROOT / "artifacts" / "ui"))
LANDSCAPE = (1280, 800)
PORTRAIT = (800, 1280)


def walk(widget: Any):
    yield widget
    for child in widget.children:
        yield from walk(child)


def walk_up(widget: Any):
    """`widget` and the widgets holding it, out to the window."""
    while widget is not None:
        yield widget
        widget = widget.parent if widget.parent is not widget else None


class KivyTestCase(GraphicUnitTest):
    """The window, frames, real taps and screenshots; `root()` is what `find` searches."""

    def setUp(self) -> None:
        super().setUp()
        from kivy.base import EventLoop

        # a tap at the spot of the previous test's tap would be merged into that old touch
        # by the retain-touch post-processor (meant for jittery hardware): keep taps apart
        EventLoop.postproc_modules = [
            m
            for m in EventLoop.postproc_modules
            if type(m).__name__
            not in ("InputPostprocRetainTouch", "InputPostprocDoubleTap", "InputPostprocTripleTap")
        ]

    def root(self) -> Any:
        return self.Window

    def where(self) -> str:
        return "the window"

    def resize(self, size: tuple[int, int]) -> None:
        """Turn the 'tablet': the offscreen driver sends no resize event, so dispatch it."""
        self.Window.size = size
        self.Window.dispatch("on_resize", *self.Window.size)
        self.frames(2)

    def frames(self, n: int = 2) -> None:
        self.advance_frames(n)

    def settle(self, most: int = 40) -> None:
        """Frames until no widget moves on the window (a loaded machine lays a screen out
        over several frames, and a check made early sees a half-placed screen).  Where
        each is drawn, not its `pos`: a scrolling area moves what it holds by a
        translation that leaves their `pos` as it was, so a scroll still to come (a
        game's view bringing its board into sight) would not be waited for."""

        def where() -> list[tuple[float, ...]]:
            return [(*w.to_window(*w.pos), *w.size) for c in self.Window.children for w in walk(c)]

        before = where()
        for _ in range(most):
            self.frames(2)
            now = where()
            if now == before:
                return
            before = now

    # -- touching ----------------------------------------------------------------------

    def find(self, text: str | None = None, *, cls: str | None = None, within: Any = None) -> Any:
        """The visible widget showing `text` (and of class `cls`), or fail saying so."""
        root = within or self.root()
        found = [
            w
            for w in walk(root)
            if (text is None or getattr(w, "text", None) == text)
            and (cls is None or type(w).__name__ == cls)
            and w.get_root_window() is not None
            and w.opacity > 0
            and not w.disabled
        ]
        if not found:
            raise AssertionError(f"nothing shows {text!r} on {self.where()}")
        return found[0]

    def tap(self, target: Any, **kw: Any) -> None:
        """Touch a control (or the visible widget showing that text), scrolled on screen
        first as a player would: a view's controls may sit below its board."""
        self.frames(2)  # let a screen just switched to lay itself out before aiming
        widget = self.find(target, **kw) if isinstance(target, str) else target
        self.scroll_into_view(widget)
        self.touch_at(*self.settled_center(widget))

    def settled_center(self, widget: Any, most: int = 20) -> tuple[float, float]:
        """The widget's centre once layout has stopped moving it: on a loaded machine a
        screen can take several frames to settle, and a touch aimed early lands elsewhere."""
        where = widget.to_window(*widget.center)
        for _ in range(most):
            self.frames(1)
            now = widget.to_window(*widget.center)
            if now == where:
                break
            where = now
        return where

    def scroll_into_view(self, widget: Any) -> None:
        """The nearest ScrollView holding `widget` scrolled to show it; none, nothing.  A
        RecycleView's rows exist only while shown (and its scroll_to breaks on them); it is
        told by name, as Kivy's Factory loads it as `kivy.uix.recycleview.__init__` too."""
        from kivy.uix.scrollview import ScrollView

        scroller = next((w for w in walk_up(widget.parent) if isinstance(w, ScrollView)), None)
        recycles = any(c.__name__ == "RecycleViewBehavior" for c in type(scroller).__mro__)
        if scroller is not None and not recycles:
            scroller.scroll_to(widget, padding=10, animate=False)
            self.frames(2)

    def touch_at(self, x: float, y: float) -> None:
        """A finger down and up at a window position."""
        touch = UnitTestTouch(x, y)
        self.as_main_loop(touch.touch_down)
        self.frames(1)
        self.as_main_loop(touch.touch_up)
        self.frames(3)

    @staticmethod
    def as_main_loop(step: Any) -> None:
        """Run one input step the way Kivy's main loop does: an exception goes to the
        ExceptionManager's handlers first, and only one they do not pass is raised."""
        from kivy.base import ExceptionManager

        try:
            step()
        except Exception as inst:
            if ExceptionManager.handle_exception(inst) == ExceptionManager.RAISE:
                raise

    # -- screenshots -------------------------------------------------------------------

    def shoot(self, name: str, both: bool = True) -> list[Path]:
        """Screenshots of the current screen in landscape and portrait; fails on black."""
        sizes = {"landscape": LANDSCAPE, "portrait": PORTRAIT} if both else {"landscape": LANDSCAPE}
        out = []
        before = tuple(self.Window.size)
        for orientation, size in sizes.items():
            self.resize(size)
            out.append(self.shoot_here(ARTIFACTS / f"{name}-{orientation}.png"))
        self.resize(before)
        return out

    def shoot_here(self, path: Path) -> Path:
        """A screenshot of the window at the size it has now, to `path`; fails on black."""
        from companion.ui.shot import shot_on_flip

        if path.exists():
            path.unlink()
        taken: list[Path] = []
        shot_on_flip(path, frames=2, done=taken.append)
        for _ in range(20):
            if taken:
                break
            self.Window.canvas.ask_update()
            self.frames(1)
        assert taken, f"no screenshot {path.name} was taken"
        assert_not_blank(path)
        return path


class AppTestCase(KivyTestCase):
    """Each test gets its own data folder; `start_app` builds and shows a fresh app."""

    def setUp(self) -> None:
        super().setUp()
        self._old_home = os.environ["COMPANION_HOME"]
        self.home = Path(tempfile.mkdtemp(prefix="ui-test-"))
        os.environ["COMPANION_HOME"] = str(self.home)
        self.app: Any = None

    def tearDown(self, fake: bool = False) -> None:
        if not fake:
            self.stop_app()
            os.environ["COMPANION_HOME"] = self._old_home
        super().tearDown(fake)

    def start_app(self, size: tuple[int, int] = LANDSCAPE) -> Any:
        from companion.ui.app import CompanionApp

        self.stop_app()
        self.app = CompanionApp()
        self.app.root = self.app.build()
        self.resize(size)
        self.render(self.app.root)
        self.app.go("home")
        self.frames(3)
        return self.app

    def open_tiny(self, *steps: tuple[str, dict[str, Any]]) -> Any:
        """A new Tiny game with `steps` done (e.g. ("roll", {"count": 2}) leaves a roll
        asked for), opened as a player would and shown; its session screen."""
        from companion.games import get_game

        session = self.app.library.new(get_game("tiny"))
        for command, args in steps:
            session.do(command, args)
        session.close()
        self.app.open_session(session.id)
        self.frames(3)
        return self.app.screen("session")

    def root(self) -> Any:
        return self.app.root

    def where(self) -> str:
        return f"screen {self.app.root.current}"

    def stop_app(self) -> None:
        """What closing the app does (on_stop closes the session); kv's `app` lets go of it."""
        if self.app is not None:
            self.app.dispatch("on_stop")
            self.Window.remove_widget(self.app.root)
            self.app = None


def assert_not_blank(path: Path) -> None:
    """A screenshot that is one colour (black, or only the background) fails the test."""
    from kivy.core.image import Image as CoreImage

    image = CoreImage(str(path), keep_data=True)
    data = image.image._data[0].data
    step = max(1, len(data) // 20000) * 4
    colours = {bytes(data[i : i + 3]) for i in range(0, len(data) - 4, step)}
    assert len(colours) > 3, f"{path} looks blank ({len(colours)} colours)"


class ViewTestCase(KivyTestCase):
    """One game's view for a real session, alone in the window as the frame would hold it:
    `show_view(session)` builds it with the game's `build_view`, lays it out and draws it."""

    game = ""  # the game id: the view comes from companion.ui.games.<game>
    options: dict[str, Any] | None = None  # set-up options: each test starts with this view

    def setUp(self) -> None:
        super().setUp()
        self.tmp = Path(tempfile.mkdtemp(prefix=f"{self.game}-view-"))
        self.session: Any = None
        self.view: Any = None
        if self.options is not None:
            self.show_view(self.new_session(self.options))

    def tearDown(self, fake: bool = False) -> None:
        if not fake:
            if self.view is not None:
                self.Window.remove_widget(self.view)
            if self.session is not None:
                self.session.close()
        super().tearDown(fake)

    def new_session(self, options: dict[str, Any], **kw: Any) -> Any:
        from companion.core.session import Session
        from companion.games import get_game

        return Session.create(self.tmp / "view.session", get_game(self.game), options, **kw)

    def show_view(self, session: Any, size: tuple[int, int] = LANDSCAPE) -> Any:
        import importlib

        self.session = session
        build_view = importlib.import_module(f"companion.ui.games.{self.game}").build_view
        self.view = build_view(session)
        self.resize(size)
        self.render(self.view)
        self.view.refresh()
        self.frames(2)
        return self.view

    def refresh(self) -> None:
        """What the app does after a change made outside the view (the dice panel, a test)."""
        self.view.refresh()
        self.frames(2)

    def root(self) -> Any:
        return self.view

    def where(self) -> str:
        return f"the {self.game} view"
