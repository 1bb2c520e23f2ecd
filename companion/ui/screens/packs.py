"""Your cards: the group's own packs, made, edited card by card, shared and labelled.

Why here and not in a file: a group owns the real game, whose cards carry numbers no
rulebook prints.  This screen lists each game's packs, makes one (empty or a copy of an
installed one), lists its kinds and cards by name, and opens a card's form drawn from the
game's own schema (`companion.ui.editor.form`).  Every change is checked at once by the
same loader a game starts with; a pack saved with problems stays a draft, and the wizard
refuses it until it is clean.  All the file work is `companion.core.workshop`'s.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from pathlib import Path
from typing import Protocol, TypeVar

from kivy.app import App
from kivy.lang import Builder
from kivy.properties import StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen, ScreenManager
from kivy.uix.widget import Widget

from companion.content import forms
from companion.content.pack import ContentError, Problem
from companion.core import workshop
from companion.games import available_games, get_game
from companion.ui.editor.form import CardForm, FieldText
from companion.ui.screens.problems import problem_words
from companion.ui.widgets import BigButton, BigToggle, Body, Heading, clear_and_fill

T = TypeVar("T")

Builder.load_file(str(Path(__file__).with_suffix(".kv")))

PACK_SUFFIX = ".zip"
# Kinds with an editor of their own, drawn rather than typed (module, class): it is given
# the card's data and a save function returning the pack's problems.
OWN_EDITORS: dict[tuple[str, str], tuple[str, str]] = {
    ("direwild", "boards"): ("companion.ui.editor.board_editor", "BoardEditor"),
}


class ShowsScreens(Protocol):
    """The app as this screen uses it (the app imports the screens, so not by name): its
    screen manager, and `go` to show a screen."""

    root: ScreenManager

    def go(self, name: str) -> None: ...


PROBLEMS = (workshop.WorkshopError, ContentError, LookupError, OSError, ValueError)


def open_packs(app: ShowsScreens) -> None:
    """Show the screen, adding it to the app the first time (home's "Your cards")."""
    if not app.root.has_screen("packs"):
        app.root.add_widget(PacksScreen(name="packs"))
    app.go("packs")


def kind_label(kind: str) -> str:
    return forms.label_of(kind)


def pack_files(folders: list[Path]) -> list[Path]:
    """Shared pack files where they usually land, newest first."""
    found: dict[Path, float] = {}
    for folder in folders:
        try:
            for path in folder.iterdir():
                if path.name.endswith(PACK_SUFFIX) and path.is_file():
                    found[path.resolve()] = path.stat().st_mtime
        except OSError:
            continue
    return sorted(found, key=lambda p: found[p], reverse=True)


def default_name(game_id: str) -> str:
    """A name the group may keep: "Our Kradia", "Our Kradia 2"..."""
    base = "Our " + get_game(game_id).title.split(":")[0]
    taken = {p.slug for p in workshop.list_packs(game_id)}
    name, n = base, 1
    while workshop.slugify(name) in taken:
        n += 1
        name = f"{base} {n}"
    return name


class PackRow(BoxLayout):
    """One pack: its name, cards and state, and what can be done with it."""

    def __init__(self, info: workshop.PackInfo, **kw: object) -> None:
        super().__init__(**kw)
        self.info = info
        where = "came with the app" if info.shipped else "yours"
        state = "  [b]Draft: has problems[/b]" if info.draft else ""
        cards = f"{info.cards} card{'' if info.cards == 1 else 's'}"
        self.ids.text.text = f"[b]{info.title}[/b]  ·  {cards}  ·  {where}{state}"

    def button(self, text: str, action: Callable[..., object], primary: bool = False) -> BigButton:
        b = BigButton(text=text, primary=primary)
        b.bind(on_release=lambda _b: action())
        self.ids.buttons.add_widget(b)
        return b


class PacksScreen(Screen):
    page = StringProperty("packs")

    def on_pre_enter(self, *args: object) -> None:
        self.show_packs()

    # -- helpers ---------------------------------------------------------------------

    def say(self, text: str, tone: str = "info") -> None:
        self.ids.notice.tone = tone
        self.ids.notice.text = text

    def _fill(self, title: str, body: list[Widget], actions: list[Widget] | None = None) -> None:
        self.ids.title.text = title
        clear_and_fill(self.ids.body, body)
        clear_and_fill(self.ids.actions, actions or [])
        self.ids.scroller.scroll_y = 1

    def _button(self, text: str, action: Callable[..., object], primary: bool = False) -> BigButton:
        b = BigButton(text=text, primary=primary)
        b.bind(on_release=lambda _b: action())
        return b

    def _guarded(self, action: Callable[[], T]) -> T | None:
        try:
            return action()
        except PROBLEMS as exc:
            self.explain(exc)
        return None

    def explain(self, exc: Exception) -> None:
        """A refusal or a pack's problems, in words, on top of the screen."""
        if isinstance(exc, ContentError):
            words = "\n".join(problem_words(p) for p in exc.problems[:6])
            self.say(f"It has problems, so nothing was changed:\n{words}", "warn")
        else:
            self.say(str(exc)[:1].upper() + str(exc)[1:] + ".", "warn")

    def back(self) -> None:
        steps: dict[str, Callable[[], object]] = {
            "packs": lambda: App.get_running_app().go("home"),
            "new": self.show_packs,
            "import": self.show_packs,
            "kinds": self.show_packs,
            "cards": lambda: self.show_kinds(self.game_id, self.slug),
            "card": lambda: self.show_cards(self.kind),
            "shipped": lambda: self.show_cards(self.kind),
        }
        self.say("")
        steps.get(self.page, self.show_packs)()

    # -- the packs -------------------------------------------------------------------

    def show_packs(self) -> None:
        self.page = "packs"
        body: list[Widget] = []
        for game_id in available_games():
            game = get_game(game_id)
            body.append(Heading(text=game.title))
            for info in workshop.list_packs(game_id):
                row = PackRow(info)
                row.pack_slug = f"{game_id}/{info.slug}"
                if info.shipped:
                    row.button("Copy it", lambda i=info: self.show_new(i.game, i.slug))
                else:
                    row.button("Open", lambda i=info: self.show_kinds(i.game, i.slug), True)
                    row.button("Share", lambda i=info: self.export(i))
                    row.button("Delete", lambda i=info, r=row: self.delete(i, r))
                row.button("Labels", lambda i=info: self.labels(i))
                body.append(row)
            body.append(
                self._button(
                    f"New {game.title.split(':')[0]} pack", lambda g=game_id: self.show_new(g)
                )
            )
        actions = [self._button("Import a pack", self.show_import)]
        self._fill("Your cards", body, actions)

    def delete(self, info: workshop.PackInfo, row: PackRow) -> None:
        """Two taps: the first asks, the second deletes (cards are hard to type again)."""
        if not getattr(row, "asked", False):
            row.asked = True
            self.say(
                f"Tap Delete again to delete '{info.title}' and its {info.cards} cards.", "warn"
            )
            return
        if self._guarded(lambda: _ran(workshop.delete_pack, info.game, info.slug)):
            self.say(f"Deleted '{info.title}'.", "ok")
            self.show_packs()

    def export(self, info: workshop.PackInfo) -> None:
        out = self._guarded(lambda: workshop.export_pack(info.game, info.slug))
        if out:
            self.say(f"Saved '{info.title}' to share: {out}", "ok")

    def labels(self, info: workshop.PackInfo) -> None:
        made = self._guarded(lambda: workshop.labels_pdf(info.game, info.slug))
        if made:
            out, count = made
            self.say(f"Printed {count} labels for '{info.title}' to {out}", "ok")

    # -- a new pack ------------------------------------------------------------------

    def show_new(self, game_id: str, from_slug: str | None = None) -> None:
        self.page = "new"
        self.game_id = game_id
        game = get_game(game_id)
        self.name_box = FieldText(text=default_name(game_id), multiline=False)
        sources = [i for i in workshop.list_packs(game_id) if not i.draft]
        starts = [
            BigToggle(text="Empty", group="new-from", state="normal" if from_slug else "down")
        ]
        starts[0].source = None
        for info in sources:
            t = BigToggle(
                text=f"A copy of {info.title}",
                group="new-from",
                state="down" if info.slug == from_slug else "normal",
            )
            t.source = info.slug
            starts.append(t)
        for t in starts:
            t.allow_no_selection = False
        self.starts = starts
        body = [Body(text="[b]Name[/b]"), self.name_box, Body(text="[b]Start from[/b]"), *starts]
        make = self._button("Make the pack", self.make_pack, primary=True)
        self._fill(f"New {game.title} pack", body, [make])

    def make_pack(self) -> None:
        source = next((t.source for t in self.starts if t.state == "down"), None)
        info = self._guarded(lambda: workshop.new_pack(self.game_id, self.name_box.text, source))
        if info:
            self.say(f"Made '{info.title}' with {info.cards} cards.", "ok")
            self.show_kinds(info.game, info.slug)

    # -- import ----------------------------------------------------------------------

    def import_folders(self) -> list[Path]:
        from companion.ui.screens.importer import download_dirs

        return [workshop.inbox_dir(), workshop.exports_dir(), *download_dirs()]

    def show_import(self) -> None:
        self.page = "import"
        folders = self.import_folders()
        body: list[Widget] = []
        for path in pack_files(folders):
            b = self._button(
                f"{path.name}   [size=16sp]{path.parent.name}[/size]",
                lambda p=path: self.import_file(p),
            )
            b.markup = True
            body.append(b)
        if not body:
            places = ", ".join(str(f) for f in folders[:2])
            body = [Body(text=f"No shared pack files found. Put the .pack.zip file in {places}.")]
        self._fill("Import a pack", body)

    def import_file(self, path: Path, replace: bool = False) -> None:
        try:
            info = workshop.import_pack(path, replace=replace)
        except PROBLEMS as exc:
            self.explain(exc)
            if isinstance(exc, workshop.PackExists) and exc.replaceable:
                replace_it = self._button(
                    f"Replace it with {path.name}", lambda: self.import_file(path, True)
                )
                clear_and_fill(self.ids.actions, [replace_it])
            return
        self.say(f"Installed '{info.title}' with {info.cards} cards.", "ok")
        self.show_packs()

    # -- a pack's kinds and cards ----------------------------------------------------

    def show_kinds(self, game_id: str, slug: str) -> None:
        self.page = "kinds"
        self.game_id, self.slug = game_id, slug
        game = get_game(game_id)
        info = workshop.pack_info(game_id, slug)
        self.info = info
        body: list[Widget] = []
        if info.draft:
            problems = workshop.pack_problems(game_id, slug)
            words = "\n".join(problem_words(p) for p in problems[:6])
            body.append(Body(text=f"[b]Draft: fix these before playing[/b]\n{words}"))
        for kind in game.content_kinds:
            b = self._button(
                f"{kind_label(kind)} ({info.counts.get(kind, 0)})",
                lambda k=kind: self.show_cards(k),
            )
            b.kind = kind
            body.append(b)
        actions = [
            self._button("Share", lambda: self.export(workshop.pack_info(game_id, slug))),
            self._button("Print labels", lambda: self.labels(workshop.pack_info(game_id, slug))),
        ]
        self._fill(info.title, body, actions)

    def show_cards(self, kind: str) -> None:
        self.page = "cards"
        self.kind = kind
        game = get_game(self.game_id)
        self.form = forms.form_for(game.content_kinds[kind])
        body: list[Widget] = []
        for card in workshop.cards(self.game_id, self.slug, kind):
            name = str(card.get("name") or card.get("id", "").rsplit("/", 1)[-1] or "(no name)")
            problems = workshop.card_problems(self.game_id, kind, card)
            text = name + ("   [b](needs fixing)[/b]" if problems else "")
            b = self._button(text, lambda c=card: self.show_card(c))
            b.markup = True
            body.append(b)
        if not body:
            body = [Body(text=f"No {kind_label(kind).lower()} in this pack yet.")]
        new = self._button(f"New {self.form.label.lower()}", self.new_card, primary=True)
        actions = [new]
        if self.shipped_cards() and (self.game_id, kind) not in OWN_EDITORS:
            actions.append(self._button("Start from a shipped card", self.show_shipped))
        self._fill(f"{self.info.title}: {kind_label(kind)}", body, actions)

    def shipped_cards(self) -> list[tuple[workshop.PackInfo, dict[str, object]]]:
        """The installed shipped packs' cards of this kind, to start a new card from."""
        return [
            (info, card)
            for info in workshop.list_packs(self.game_id)
            if info.shipped
            for card in workshop.cards(self.game_id, info.slug, self.kind)
        ]

    def show_shipped(self) -> None:
        """The shipped cards of this kind by name, under their pack's name: a tap opens a
        new card that is a copy of it, to edit (its name first)."""
        self.page = "shipped"
        body: list[Widget] = []
        pack = ""
        for info, card in self.shipped_cards():
            if info.title != pack:
                pack = info.title
                body.append(Heading(text=pack))
            name = str(card.get("name") or str(card.get("id", "")).rsplit("/", 1)[-1])
            body.append(self._button(name, lambda c=card: self.start_from(c)))
        self._fill(f"Start from a shipped {self.form.label.lower()}", body)

    def start_from(self, card: dict[str, object]) -> None:
        twin = copy.deepcopy(card)
        twin.pop("id", None)
        twin.pop("demo", None)  # the group's own numbers now
        twin["name"] = f"{twin.get('name') or 'Card'} (copy)"
        self.show_card(None)
        self.card.clear()
        self.card.update(twin)
        self.card_form.render()
        self.check()

    # -- one card --------------------------------------------------------------------

    def new_card(self) -> None:
        """A new card on its form; a kind with an editor of its own (a Direwild board) opens
        straight in it, since its form would only hold a name before "Draw it on the board"
        and could save a board with nothing drawn."""
        self.show_card(None)
        if (self.game_id, self.kind) in OWN_EDITORS:
            self.open_own_editor()

    def show_card(self, card: dict[str, object] | None) -> None:
        self.page = "card"
        original = card.get("id") if card else None
        # the id a saved card had (the schema's: a string), for Save to replace it
        self.original: str | None = original if isinstance(original, str) else None
        self.card = copy.deepcopy(card) if card else self.template()
        self.card.setdefault("name", "")
        # read once per card, not per tap: the pack's other cards and the id's middle part
        self.context = workshop.pack_context(self.game_id, self.slug)
        self.id_part = workshop.id_part(self.game_id, self.kind)
        self.card_form = CardForm(self.form, self.card, self.check, cards=self.cards_of)
        actions = [self._button("Save", self.save, primary=True)]
        if (self.game_id, self.kind) in OWN_EDITORS:
            actions.append(self._button("Draw it on the board", self.open_own_editor))
        if self.original:
            actions.append(self._button("Copy this card", self.copy_card))
            actions.append(self._button("Delete this card", self.delete_card))
        self._fill(self.card_title(), [self.card_form], actions)
        self.check()

    def cards_of(self, kind: str) -> list[tuple[str, str]]:
        """The pack's cards of `kind` as (id, name), for a field naming another card."""
        return [(item.id, item.title) for item in self.context.all(kind)]

    def open_own_editor(self) -> None:
        """The kind's own editor (the Direwild board by touch) on a screen of its own;
        its Save stores the card here and says the pack's problems there."""
        import importlib

        module, name = OWN_EDITORS[(self.game_id, self.kind)]
        editor_cls = getattr(importlib.import_module(module), name)
        app = App.get_running_app()
        card = copy.deepcopy(self.card) if self.original else None  # a new board: empty

        def save(data: dict[str, object]) -> list[Problem]:
            data = {**data, "id": data.get("id") or self.original or ""}
            problems = workshop.save_card(self.game_id, self.slug, self.kind, data, self.original)
            self.original = next(
                (
                    c["id"]
                    for c in workshop.cards(self.game_id, self.slug, self.kind)
                    if c.get("name") == data.get("name")
                ),
                self.original,
            )
            return problems

        if app.root.has_screen("own_editor"):
            app.root.remove_widget(app.root.get_screen("own_editor"))
        screen = Screen(name="own_editor")
        column = BoxLayout(orientation="vertical")
        back = BigButton(text="Back to the cards", size_hint_y=None)
        back.bind(on_release=lambda _b: self.close_own_editor())
        column.add_widget(back)
        column.add_widget(editor_cls(card, save))
        screen.add_widget(column)
        app.root.add_widget(screen)
        app.go("own_editor")

    def close_own_editor(self) -> None:
        App.get_running_app().go("packs")
        self.show_cards(self.kind)

    def copy_card(self) -> None:
        """A new card like this one (four heroes share a card's shape): only its name
        needs typing, and it gets an id of its own when saved."""
        twin = copy.deepcopy(self.card)
        twin.pop("id", None)
        twin["name"] = f"{self.card_title()} (copy)"
        self.show_card(None)
        self.card.clear()
        self.card.update(twin)
        self.card_form.render()
        self.check()

    def template(self) -> dict[str, object]:
        """A new card as its kind's template lays it out (the game's data)."""
        game = get_game(self.game_id)
        return forms.new_card(self.game_kind_schema(), forms.template_for(game, self.kind))

    def game_kind_schema(self) -> type:
        return get_game(self.game_id).content_kinds[self.kind]

    def card_title(self) -> str:
        return str(self.card.get("name") or f"New {self.form.label.lower()}")

    def provisional(self) -> dict[str, object]:
        """The card with the id it will get when saved (checks need one)."""
        card = dict(self.card)
        if not card.get("id"):
            slug = workshop.slugify(str(card.get("name") or "")) or "card"
            card["id"] = f"{self.game_id}/{self.id_part}/{slug}"
        return card

    def live_problems(self) -> list[workshop.FieldProblem]:
        card = self.provisional()
        problems = workshop.card_problems(self.game_id, self.kind, card)
        if not str(self.card.get("name") or "").strip():
            problems.insert(0, workshop.FieldProblem(("name",), "give the card its name"))
        return problems

    def check(self) -> None:
        """After every change: the problems beside their fields, and the rest on top (the
        game's checks across the pack: a boss's dice for every HP space...)."""
        self.ids.title.text = self.card_title()
        problems = self.live_problems()
        left = self.card_form.show_problems(problems)
        if not problems:
            card = self.provisional()
            left = workshop.pack_checks(self.context, self.kind, card, self.original)
        if left:
            self.say("To fix: " + "; ".join(left), "warn")
        elif problems:
            self.say(f"{len(problems)} thing(s) to fix: see the field marked in red.", "warn")
        else:
            self.say("")

    def save(self) -> None:
        card = forms.without_defaults(self.form, self.card)
        name = self.card_title()
        problems = self._guarded(
            lambda: workshop.save_card(self.game_id, self.slug, self.kind, card, self.original)
        )
        if problems is None:
            return
        self.show_cards(self.kind)
        if problems:
            words = "; ".join(problem_words(p) for p in problems[:3])
            self.say(f"Saved {name}, but the pack is a draft until fixed: {words}", "warn")
        else:
            self.say(f"Saved {name}.", "ok")

    def delete_card(self) -> None:
        name = self.card_title()
        if (
            self._guarded(
                lambda: _ran(
                    workshop.delete_card, self.game_id, self.slug, self.kind, self.original or ""
                )
            )
            is not None
        ):
            self.show_cards(self.kind)
            self.say(f"Deleted {name}.", "ok")


def _ran(action: Callable[..., object], *args: object) -> bool:
    """Run an action that returns nothing; True once it has (for `_guarded`)."""
    action(*args)
    return True
