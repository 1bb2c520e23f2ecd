"""Starting the Kivy app: kept apart so the CLI never imports Kivy unless asked to.

`companion app` runs the app on one asyncio loop (`App.async_run`) shared with the dice
sources.  On a machine without a display it says so instead of running invisibly, and
`--screenshot FILE [--screen NAME]` renders one screen offscreen to a PNG and exits, so
anyone can check an install over SSH.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

SCREEN_NAMES = ("home", "new", "settings", "session")
LANDSCAPE = (1280, 800)
PORTRAIT = (800, 1280)

NO_DISPLAY = """\
There is no display here, so the app would run invisibly.
To look at it anyway:
  companion app --screenshot home.png                   the home screen as a PNG
  companion app --screenshot s.png --screen session     the session frame (also: new, settings)
On a tablet, see docs/app.md (buildozer)."""

if TYPE_CHECKING:
    from companion.ui.app import CompanionApp


def has_display() -> bool:
    if not sys.platform.startswith("linux"):
        return True
    if os.environ.get("SDL_VIDEODRIVER") in ("offscreen", "dummy"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def _quiet_kivy() -> None:
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
    os.environ.setdefault("KIVY_LOG_MODE", "PYTHON")
    if not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        os.environ.setdefault("KIVY_CLIPBOARD", "dummy")  # no xclip/xsel probing headless


def launch(args: argparse.Namespace) -> int:
    if args.screenshot:
        return screenshot(Path(args.screenshot), args.screen, demo=args.demo)
    if not has_display():
        print(NO_DISPLAY, file=sys.stderr)
        return 2
    _quiet_kivy()
    from companion.ui.app import CompanionApp

    asyncio.run(run_app(CompanionApp(demo=args.demo)))
    return 0


async def run_app(app: CompanionApp) -> None:
    """The app and its dice sources on one loop; the sources are closed before it ends."""
    try:
        await app.async_run(async_lib="asyncio")
    finally:
        await app.hub.close()


def _demo_session(app: CompanionApp) -> None:
    """Open the newest session; with none, start one in a scratch folder (never the user's)."""
    from companion.core.library import Library
    from companion.games import available_games

    ready = [i for i in app.library.list() if not i.problem]
    if ready:
        app.open_session(ready[0].id)
        return
    games = available_games()
    if not games:
        raise SystemExit("no game is installed, so there is no session screen to show")
    app.library = Library(Path(tempfile.mkdtemp(prefix="companion-shot-")))
    start_first_game(app, games)


def start_first_game(app: CompanionApp, games: list[str]) -> None:
    """Start the first game its set-up wizard's defaults can start (for looking, not play)."""
    from companion.core.rules import RuleError
    from companion.games import get_game
    from companion.ui.screens.newgame import default_options

    refusals = []
    for game_id in games:
        game = get_game(game_id)
        try:
            app.start_session(game, default_options(game), app.settings.packs_for(game.id))
            return
        except RuleError as exc:
            refusals.append(f"{game.title}: {exc.message}")
    raise SystemExit("no game starts with its default set-up: " + "; ".join(refusals))


def screenshot(
    path: Path, screen: str, demo: bool = False, size: tuple[int, int] = LANDSCAPE
) -> int:
    """Render `screen` offscreen to `path` and exit."""
    if screen not in SCREEN_NAMES:
        print(f"no screen called '{screen}' (screens: {', '.join(SCREEN_NAMES)})", file=sys.stderr)
        return 2
    if not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        os.environ["SDL_VIDEODRIVER"] = "offscreen"
    _quiet_kivy()
    from kivy.config import Config

    Config.set("graphics", "width", str(size[0]))
    Config.set("graphics", "height", str(size[1]))
    from companion.ui.app import CompanionApp
    from companion.ui.shot import shot_on_flip

    app = CompanionApp(demo=demo)
    written: list[Path] = []

    def show(*_args: object) -> None:
        if screen == "session":
            _demo_session(app)
        else:
            app.go(screen)

        def done(p: Path) -> None:
            written.append(p)
            app.stop()

        shot_on_flip(path, frames=3, done=done)

    app.bind(on_start=show)
    asyncio.run(run_app(app))
    if not written:
        print("the screenshot was not taken", file=sys.stderr)
        return 1
    print(written[0])
    return 0
