"""Home: continue a session, start a new one, move saves, and see the content packs."""

from __future__ import annotations

import asyncio
import time
from datetime import datetime
from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.lang import Builder
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen

from companion.content.pack import ContentError, available_packs
from companion.core.store import SessionFileError
from companion.core.transfer import export_session, import_session
from companion.games import available_games, get_game, load_game_content
from companion.paths import data_home
from companion.ui.widgets import Body, clear_and_fill

Builder.load_file(str(Path(__file__).with_suffix(".kv")))


def when(stamp: float, now: float | None = None) -> str:
    """Last activity in the words a player uses: 'just now', '5 min ago', 'Tue 14:02'."""
    now = time.time() if now is None else now
    age = max(0.0, now - stamp)
    if age < 60:
        return "just now"
    if age < 3600:
        return f"{int(age // 60)} min ago"
    moment = datetime.fromtimestamp(stamp)
    if age < 86400 and moment.date() == datetime.fromtimestamp(now).date():
        return f"today {moment:%H:%M}"
    return f"{moment:%a %d %b %H:%M}"


def game_title(game_id: str) -> str:
    try:
        return get_game(game_id).title
    except LookupError:
        return game_id


def problem_words(problem: Any) -> str:
    """A content problem with the file's name, not its whole path (it is read across a
    table); `companion content check` prints the full path for whoever fixes it."""
    where = f"{Path(problem.file).name}:{problem.line}"
    return (
        f"{where}: {problem.field}: {problem.message}"
        if problem.field
        else (f"{where}: {problem.message}")
    )


def exports_dir() -> Path:
    path = data_home() / "exports"
    path.mkdir(parents=True, exist_ok=True)
    return path


class SessionRow(BoxLayout):
    """One saved session: what it is, how far it got, when it was last played."""

    def __init__(self, info: Any, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.info = info
        detail = info.problem or info.summary or "not started"
        self.ids.text.text = (
            f"[b]{game_title(info.game)}[/b]  {info.id}\n{detail} · {when(info.updated)}"
        )
        self.ids.go.disabled = bool(info.problem)
        self.ids.export.disabled = bool(info.problem)


class HomeScreen(Screen):
    def on_pre_enter(self, *args: Any) -> None:
        self.refresh()

    def refresh(self) -> None:
        app = App.get_running_app()
        infos = app.library.list()
        rows = [SessionRow(info) for info in infos]
        if not rows:
            rows = [Body(text="No sessions yet. Start a new game.")]
        clear_and_fill(self.ids.sessions, rows)
        self.check_packs()

    def say(self, text: str, tone: str = "info") -> None:
        self.ids.notice.tone = tone
        self.ids.notice.text = text

    # -- sessions ----------------------------------------------------------------------

    def continue_session(self, session_id: str) -> None:
        """Open a session; on the app's loop the loading (content, the log) runs in a
        worker thread with a word on screen, so a long evening's save never freezes it."""
        app = App.get_running_app()
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            loop = None
        if loop is None:
            self._opened(session_id, lambda: app.open_session(session_id))
            return
        self.say(f"Opening {session_id}...")
        loop.create_task(self._open_async(session_id))

    async def _open_async(self, session_id: str) -> None:
        app = App.get_running_app()
        try:
            session = await asyncio.to_thread(app.library.open, session_id)
        except (SessionFileError, ContentError, LookupError) as exc:
            self.say(f"Could not open {session_id}: {exc}", "warn")
            return
        self._opened(session_id, lambda: app.attach(session))

    def _opened(self, session_id: str, action) -> None:
        try:
            action()
        except (SessionFileError, ContentError, LookupError) as exc:
            self.say(f"Could not open {session_id}: {exc}", "warn")
            return
        self.say("")

    def export(self, info: Any) -> None:
        try:
            out = export_session(info.path, exports_dir() / f"{info.id}.tcsave", force=True)
        except (SessionFileError, OSError) as exc:
            self.say(f"Could not export {info.id}: {exc}", "warn")
            return
        self.say(f"Saved a copy of {info.id} to {out}", "ok")

    def open_packs(self) -> None:
        """The pack editor (its screen joins the app the first time it is opened)."""
        from companion.ui.screens.packs import open_packs

        open_packs(App.get_running_app())

    def open_import(self) -> None:
        from companion.ui.screens.importer import ImportPopup, download_dirs

        ImportPopup(on_pick=self.import_file, folders=[exports_dir(), *download_dirs()]).open()

    def import_file(self, path: str) -> None:
        app = App.get_running_app()
        try:
            sid = import_session(Path(path), app.library)
        except (SessionFileError, ContentError, LookupError, OSError) as exc:
            self.say(f"Could not import {Path(path).name}: {exc}", "warn")
            return
        self.say(f"Imported {Path(path).name} as {sid}", "ok")
        self.refresh()

    # -- content packs -----------------------------------------------------------------

    def check_packs(self) -> None:
        """Load every pack in the background, showing progress: it can take a while."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            loop = None
        if loop is None:
            self._show_packs(list(self._pack_results()))
            return
        from kivy.core.window import Window

        def start(*_args: Any) -> None:
            """Once this screen is drawn: the home screen comes first, its pack check after."""
            Window.unbind(on_flip=start)
            loop.create_task(self._check_packs_async())

        Window.bind(on_flip=start)

    def _pack_jobs(self) -> list[tuple[str, str]]:
        return [(g, p) for g in available_games() for p in available_packs(g)]

    def _pack_results(self):
        for game_id, pack in self._pack_jobs():
            yield self._check_pack(game_id, pack)

    def _check_pack(self, game_id: str, pack: str) -> tuple[str, str, str]:
        title = game_title(game_id)
        try:
            content = load_game_content(get_game(game_id), [pack])
        except ContentError as exc:
            lines = "\n".join(f"  {problem_words(p)}" for p in exc.problems[:5])
            more = len(exc.problems) - 5
            extra = f"\n  ...and {more} more" if more > 0 else ""
            return (
                title,
                pack,
                f"[b]{title} · {pack}[/b]: {len(exc.problems)} problem(s)\n{lines}{extra}",
            )
        except LookupError as exc:
            return title, pack, f"[b]{title} · {pack}[/b]: {exc}"
        count = sum(len(v) for v in content.items.values())
        return title, pack, f"[b]{title} · {pack}[/b]: {count} items, no problems"

    async def _check_packs_async(self) -> None:
        jobs = self._pack_jobs()
        results = []
        for i, (game_id, pack) in enumerate(jobs):
            self.ids.packs_progress.text = f"Checking content packs... {i + 1} of {len(jobs)}"
            results.append(await asyncio.to_thread(self._check_pack, game_id, pack))
        self.ids.packs_progress.text = ""
        self._show_packs(results)

    def _show_packs(self, results: list[tuple[str, str, str]]) -> None:
        rows = [Body(text=text) for _t, _p, text in results]
        if not rows:
            rows = [Body(text="No content packs installed.")]
        clear_and_fill(self.ids.packs, rows)
