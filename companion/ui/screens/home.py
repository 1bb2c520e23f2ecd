"""Home: continue a session, start a new one, move saves, and see the content packs.

Beside the packs, per game: how many of its cards (in the packs a new game plays, counted
as `companion content cards` counts them) hold numbers checked against the group's own
printed copy, and a list of the others by name, grouped as the card editor groups them.
A table checks them as they come into play (panels/check_sheet.py)."""

from __future__ import annotations

import asyncio
import gc
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from kivy.app import App
from kivy.lang import Builder
from kivy.properties import ObjectProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.popup import Popup
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget

from companion.content.forms import label_of
from companion.content.offer import card_name
from companion.content.pack import ContentError, available_packs, default_packs
from companion.core.store import SessionFileError
from companion.core.transfer import export_session, import_session
from companion.games import available_games, get_game, load_game_content
from companion.paths import data_home
from companion.ui.screens.problems import problem_words
from companion.ui.widgets import BigButton, Body, clear_and_fill

if TYPE_CHECKING:
    from companion.core.library import SessionInfo

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


def exports_dir() -> Path:
    path = data_home() / "exports"
    path.mkdir(parents=True, exist_ok=True)
    return path


@dataclass
class Checked:
    """One game's cards in play, checked against the group's copy or not."""

    game: str
    title: str
    checked: int
    total: int
    unchecked: list[tuple[str, list[str]]] = field(default_factory=list)  # (kind, names)

    @property
    def words(self) -> str:
        if self.checked == self.total:
            return f"[b]{self.title}[/b]: all {self.total} cards checked against your copy"
        return (
            f"[b]{self.title}[/b]: {self.checked} of {self.total} cards checked against your copy"
        )


def checked_cards(game_id: str) -> Checked | None:
    """How many of the game's cards in its default packs are checked; None when the game
    has no cards or its packs do not load (the pack list says why)."""
    game = get_game(game_id)
    kinds = list(game.content_kinds)
    try:
        content = load_game_content(game, default_packs(game_id))
    except (ContentError, LookupError):
        return None
    total, checked, unchecked = 0, 0, []
    for kind in kinds:
        items = content.all(kind)
        left = [card_name(c) for c in items if not content.checked(c.id)]
        total += len(items)
        checked += len(items) - len(left)
        if left:
            unchecked.append((label_of(kind), left))
    if not total:
        return None
    return Checked(game_id, game.title, checked, total, unchecked)


class CheckedRow(BoxLayout):
    """A game's count of checked cards, with the list of the others a tap away."""

    checked = ObjectProperty(None)

    def __init__(self, checked: Checked, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self.checked = checked
        self.ids.text.text = checked.words
        left = checked.total - checked.checked
        if left:
            button = BigButton(text=f"See the {left} not yet checked")
            button.bind(on_release=lambda _b: UncheckedPopup(checked).open())
            self.add_widget(button)


class UncheckedPopup(Popup):
    """The cards still holding the demo's numbers, by name, grouped by kind."""

    def __init__(self, checked: Checked, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self.title = f"{checked.title}: not yet checked"
        rows: list[Widget] = []
        for kind, names in checked.unchecked:
            rows.append(Body(text=f"[b]{kind}[/b] ({len(names)})"))
            rows.append(Body(text="\n".join(names)))
        clear_and_fill(self.ids.cards, rows)


class SessionRow(BoxLayout):
    """One saved session: what it is, how far it got, when it was last played."""

    def __init__(self, info: SessionInfo, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self.info = info
        detail = info.problem or info.summary or "not started"
        self.ids.text.text = (
            f"[b]{game_title(info.game)}[/b]  {info.id}\n{detail} · {when(info.updated)}"
        )
        self.ids.go.disabled = bool(info.problem)
        self.ids.export.disabled = bool(info.problem)


class HomeScreen(Screen):
    def on_pre_enter(self, *args: object) -> None:
        self.refresh()

    def on_leave(self, *args: object) -> None:
        """Its lists let go while another screen shows (`on_pre_enter` makes them afresh):
        kept, their rows' labels and textures stayed in memory behind every session.  Kivy
        widgets live in reference cycles, so only a full collection frees them: one here,
        as a session or another screen opens (issue 26, benchmarks/bench_memory.py)."""
        self.ids.sessions.clear_widgets()
        self.ids.packs.clear_widgets()
        gc.collect()

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

    def _opened(self, session_id: str, action: Callable[[], object]) -> None:
        try:
            action()
        except (SessionFileError, ContentError, LookupError) as exc:
            self.say(f"Could not open {session_id}: {exc}", "warn")
            return
        self.say("")

    def export(self, info: SessionInfo) -> None:
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

        def start(*_args: object) -> None:
            """Once this screen is drawn: the home screen comes first, its pack check after."""
            Window.unbind(on_flip=start)
            loop.create_task(self._check_packs_async())

        Window.bind(on_flip=start)

    def _pack_jobs(self) -> list[tuple[str, str]]:
        return [(g, p) for g in available_games() for p in available_packs(g)]

    def _pack_results(self) -> Iterator[tuple[str, str, str] | Checked | None]:
        for game_id, pack in self._pack_jobs():
            yield self._check_pack(game_id, pack)
        for game_id in available_games():
            yield checked_cards(game_id)

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
        results: list[tuple[str, str, str] | Checked | None] = []
        for i, (game_id, pack) in enumerate(jobs):
            self.ids.packs_progress.text = f"Checking content packs... {i + 1} of {len(jobs)}"
            results.append(await asyncio.to_thread(self._check_pack, game_id, pack))
        for game_id in available_games():
            results.append(await asyncio.to_thread(checked_cards, game_id))
        self.ids.packs_progress.text = ""
        self._show_packs(results)

    def _show_packs(self, results: list[tuple[str, str, str] | Checked | None]) -> None:
        """Per game, the cards checked against the group's copy; then the packs' checks."""
        packs: list[Widget] = [Body(text=r[2]) for r in results if isinstance(r, tuple)]
        if not packs:
            packs = [Body(text="No content packs installed.")]
        rows: list[Widget] = [CheckedRow(r) for r in results if isinstance(r, Checked)]
        clear_and_fill(self.ids.packs, rows + packs)
