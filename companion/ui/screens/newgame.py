"""New game: pick the game, then its set-up wizard, built from the game's own options.

A game offers its options as plain data so the rules stay free of Kivy: from the packs the
group chose, through `setup_options_for(content)` (heroes, boards, bosses by name, the
group's own first: what is installed, never a list written into the code), else its fixed
`setup_options`:
`[{"name": "chapter", "label": "Chapter", "choices": [1, 2, 3], "default": 1}, ...]` or
`{"name": "heroes", "label": "Heroes", "min": 1, "max": 4, "default": 2}` for a number, or
`{"name": "players", "label": "Clans", "pick": [...], "default": [...]}` for several of a
list (the value is the list of those picked, in the list's order).
Every choice is a tap: no keyboard needed.  The game's own `initial_state` has the last
word; its RuleError is shown as it is and nothing is written.  Under the pack toggles a
line says which cards come from the group's copy and which from the shipped packs.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from kivy.app import App
from kivy.lang import Builder
from kivy.metrics import dp
from kivy.properties import ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget

from companion.content.offer import where_cards_come_from
from companion.content.pack import ContentError
from companion.core.rules import RuleError
from companion.core.store import SessionFileError
from companion.core.workshop import list_packs
from companion.games import available_games, get_game, load_game_content
from companion.jsontypes import JsonObject
from companion.ui.screens.problems import problem_words
from companion.ui.widgets import BigButton, BigToggle, Body, Heading, clear_and_fill

if TYPE_CHECKING:
    from companion.core.game import Game

Builder.load_file(str(Path(__file__).with_suffix(".kv")))

T = TypeVar("T")


PROBLEMS = (RuleError, ContentError, SessionFileError, LookupError)


def option_label(option: dict[str, Any], value: object) -> str:
    labels = option.get("choice_labels") or {}
    return str(labels.get(str(value), value))


def option_default(option: dict[str, Any]) -> Any:
    if "default" in option:
        return option["default"]
    if option.get("choices"):
        return option["choices"][0]
    return [] if "pick" in option else option.get("min", 0)


def default_options(game: Game) -> JsonObject:
    """The set-up a group gets by tapping Start straight away (also the screenshot mode's)."""
    return {str(o["name"]): option_default(o) for o in game.setup_options}


class OptionRow(BoxLayout):
    """One set-up option: a choice of several, a pick of any number, or a number with -
    and + buttons."""

    label = StringProperty("")
    option = ObjectProperty(None)

    def __init__(self, option: dict[str, Any], **kwargs: object) -> None:
        super().__init__(**kwargs)
        self.option = option
        self.label = str(option.get("label") or option["name"].replace("_", " ").capitalize())
        items = option.get("choices") or option.get("pick")
        default = option_default(option)
        self.value = list(default) if "pick" in option else default
        row = self.ids.choices
        if items:
            row.cols = min(len(items), 3)
            group = None if "pick" in option else f"opt-{option['name']}-{id(self)}"
            for item in items:
                chosen = item in default if "pick" in option else item == default
                button = BigToggle(
                    text=option_label(option, item),
                    group=group,
                    state="down" if chosen else "normal",
                )
                button.allow_no_selection = group is None
                button.bind(on_release=lambda b, c=item: self.set(c, b.state == "down"))
                row.add_widget(button)
        else:
            minus = BigButton(text="-", size_hint_x=0.25)
            plus = BigButton(text="+", size_hint_x=0.25)
            self._shown = Heading(text=str(default), halign="center", size_hint=(0.5, 1))
            minus.bind(on_release=lambda _b: self.step(-1))
            plus.bind(on_release=lambda _b: self.step(1))
            for w in (minus, self._shown, plus):
                row.add_widget(w)

    def set(self, value: object, on: bool = True) -> None:
        if "pick" not in self.option:
            self.value = value
            return
        picked = [v for v in self.value if v != value] + ([value] if on else [])
        self.value = [v for v in self.option["pick"] if v in picked]

    def step(self, delta: int) -> None:
        low, high = self.option.get("min", 0), self.option.get("max", 99)
        current = self.value if isinstance(self.value, int) else low
        self.value = min(high, max(low, current + delta))
        self._shown.text = str(self.value)


class NewGameScreen(Screen):
    game_id = StringProperty("")

    def on_pre_enter(self, *args: object) -> None:
        self.show_games()

    def show_games(self) -> None:
        self.game_id = ""
        self.ids.notice.text = ""
        buttons = []
        for gid in available_games():
            game = get_game(gid)
            button = BigButton(text=game.title, min_height=dp(96))
            button.game_id = gid
            button.bind(on_release=lambda b: self.pick(b.game_id))
            buttons.append(button)
        if not buttons:
            buttons = [Body(text="No games are installed yet.")]
        clear_and_fill(self.ids.games, buttons)

    def pick(self, game_id: str) -> None:
        """Step two: the game's own options and which content packs to play with."""
        app = App.get_running_app()
        game = get_game(game_id)
        self.game_id = game_id
        self.ids.notice.text = ""
        self.ids.wizard_title.text = f"Set up {game.title}"
        chosen = set(app.settings.packs_for(game_id))
        packs: list[Widget] = []
        for info in list_packs(game_id):
            if info.draft:  # refused until clean: said beside the packs, never a toggle
                packs.append(Body(text=f"{info.title}: a draft (fix it in Your cards)"))
                continue
            toggle = BigToggle(text=info.title, state="down" if info.slug in chosen else "normal")
            toggle.allow_no_selection = True
            toggle.pack = info.slug
            toggle.bind(on_release=lambda _t: self.show_options())
            packs.append(toggle)
        if not packs:
            packs = [Body(text="No content packs for this game are installed.")]
        clear_and_fill(self.ids.packs, packs)
        self.show_options()

    def show_options(self) -> None:
        """The game's choices for the packs chosen now (rebuilt when a pack is toggled)."""
        game = get_game(self.game_id)
        options = list(game.setup_options)
        packs = self.chosen_packs()
        self.ids.from_where.text = ""
        if packs:
            try:
                content = load_game_content(game, packs)
                self.ids.from_where.text = where_cards_come_from(content)
                options = game.setup_options_for(content)
            except PROBLEMS as exc:
                self.show_problem(exc)
        rows: list[Widget] = [OptionRow(o) for o in options]
        if not rows:
            rows = [Body(text=f"{game.title} needs no set-up choices here.")]
        clear_and_fill(self.ids.options, rows)

    def chosen_options(self) -> dict[str, object]:
        return {
            row.option["name"]: row.value
            for row in self.ids.options.children
            if isinstance(row, OptionRow)
        }

    def chosen_packs(self) -> list[str]:
        return [
            w.pack
            for w in reversed(self.ids.packs.children)
            if isinstance(w, BigToggle) and w.state == "down"
        ]

    def start(self) -> None:
        """Create the session; on the app's loop the content loads in a worker thread
        while the button says so, so a big pack never freezes the screen."""
        app = App.get_running_app()
        packs = self.chosen_packs()
        if not packs:
            self.ids.notice.text = "Choose at least one content pack."
            return
        game, options = get_game(self.game_id), self.chosen_options()
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            loop = None
        if loop is None:
            self._guarded(lambda: app.start_session(game, options, packs))
            return
        self.ids.start.text = "Loading the content..."
        self.ids.start.disabled = True
        loop.create_task(self._start_async(game, options, packs))

    async def _start_async(self, game: Game, options: dict[str, object], packs: list[str]) -> None:
        app = App.get_running_app()
        try:  # only the loading runs in the worker; the screen is touched here, on the loop
            session = await asyncio.to_thread(app.library.new, game, options, packs)
        except PROBLEMS as exc:
            self.show_problem(exc)
            return
        finally:
            self.ids.start.text = "Start the game"
            self.ids.start.disabled = False
        app.attach(session)

    def _guarded(self, action: Callable[[], T]) -> T | None:
        try:
            return action()
        except PROBLEMS as exc:
            self.show_problem(exc)
        return None

    def show_problem(self, exc: Exception) -> None:
        """A refusal or a content problem, in words, on the wizard; nothing was written."""
        if isinstance(exc, RuleError):
            self.ids.notice.text = exc.message
        elif isinstance(exc, ContentError):
            self.ids.notice.text = "The content has problems:\n" + "\n".join(
                problem_words(p) for p in exc.problems[:5]
            )
        else:
            self.ids.notice.text = str(exc)
