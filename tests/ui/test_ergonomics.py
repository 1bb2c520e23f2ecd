"""Every screen at every size, read as a player across the table would (issue 25).

Each game's session screen with each side panel (Dice, Log, Fix, Cards, Phones), the result
card at each game's fullest step (`result_steps`), the sheets opened over a game (the check
sheet, the action sheet, Kradia's correction sheet), the home, new-game and settings
screens, Your cards and the card editor's form (scrolled through) are drawn on a 1280x800
and an 800x1280 tablet and a 412x915 phone, at Normal and Largest text, and held to
`tests/ui/looks.py`'s rules: touch targets of 48 dp, no text cut short or a word broken
mid-word, no line cut through by its scrolling area's edge, no widget off the window, no
text over other text, a scrolling list never scrolled clear of what it holds, and text
contrast of 4.5:1 (3:1 large, and for the marks a board draws) measured on the drawn
pixels.  A test per game and size (a failure names them), each problem line
naming the panel and the text size; the app and the game are made once a test, and each
combination is drawn and measured once.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import contextmanager
from functools import partial
from typing import Any

import pytest
from kivy.metrics import dp

from companion.games import get_game
from companion.ui.settings import TEXT_SIZES
from tests.ui.kivyharness import LANDSCAPE, PORTRAIT, AppTestCase, walk
from tests.ui.looks import Looks, box, window_pixels

pytestmark = pytest.mark.ui

PHONE = (412, 915)
SIZES = {"landscape": LANDSCAPE, "portrait": PORTRAIT, "phone": PHONE}
TEXTS = {"Normal": TEXT_SIZES["Normal"], "Largest": TEXT_SIZES["Largest"]}
PANELS = ("dice", "log", "fix", "cards", "phones")

# each game brought to where the table is asked for something (a card, a declaration), as
# a group gets there from the wizard: the steps are tapped on the game's own view
GAMES: dict[str, tuple[str, ...]] = {
    "direwild": ("Start round",),
    "kradia": ("Start round 1",),
    "hexplore": ("Fight Giant Fox!",),
}


# Problems these checks find today that are not fixed yet, each with why, matched against
# the problem's line (where; size, text size: what).  Anything else fails the test; remove
# an entry as soon as its fix lands.
KNOWN: list[tuple[str, str, str]] = [
    # (a part of the line, another part of it, why it is still so)
]


def is_known(line: str, known: list[tuple[str, str, str]] | None = None) -> bool:
    """Whether a problem's line is on the `known` list (this module's KNOWN unless told)."""
    return any(a in line and b in line for a, b, _why in (KNOWN if known is None else known))


# each problem once, with every screen, panel or step it was seen on:
# (size, text size, problem) -> where
Found = dict[tuple[str, str, str], list[str]]


def look_now(looks: Looks, found: Found, size: str, text: str, where: str) -> None:
    """What the window shows now, held to `looks`' rules, its problems kept in `found`:
    the top of the window only (an open sheet, else the screens), after the layout
    settled.  Shared by these checks and the round_by_touch rounds (tests/ui/rounds/)."""
    from kivy.core.window import Window

    pixels = window_pixels()
    for problem in looks.check([Window.children[0]], pixels):
        found.setdefault((size, text, problem), []).append(where)


def sorted_out(
    found: Found, known: list[tuple[str, str, str]] | None = None
) -> tuple[list[str], list[str]]:
    """The problems' lines (where; size, text size: what), the known ones apart."""
    lines: list[str] = []
    known_lines: list[str] = []
    for (size, text, problem), wheres in found.items():
        line = f"{', '.join(dict.fromkeys(wheres))}; {size}, {text} text: {problem}"
        (known_lines if is_known(line, known) else lines).append(line)
    return lines, known_lines


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


class ErgonomicsCase(AppTestCase):
    """The app at one size; `look(where)` checks what the window shows now."""

    size = LANDSCAPE
    size_name = "landscape"

    def setUp(self) -> None:
        super().setUp()
        self.looks = Looks(dp48=dp(48), window=self.size)
        self.found: Found = {}

    def look(self, where: str, text: str) -> None:
        self.settle()
        look_now(self.looks, self.found, self.size_name, text, where)

    def each_text_size(self, shoot: str, step: Callable[[str], None]) -> None:
        for text, scale in TEXTS.items():
            with text_size(scale):
                self.settle()
                step(text)
                if shoot:
                    self.shot(f"{shoot}-{text.lower()}")

    def shot(self, name: str) -> None:
        """A screenshot at this test's size (artifacts/ui/ergonomics/)."""
        from tests.ui.kivyharness import ARTIFACTS

        self.shoot_here(ARTIFACTS / "ergonomics" / f"{name}-{self.size_name}.png")

    def verdict(self) -> None:
        lines, known = sorted_out(self.found)
        if known:  # printed with the test's output: what is still to fix
            print(f"{len(known)} known problems (KNOWN):\n" + "\n".join(known))
        assert lines == [], f"{len(lines)} problems:\n" + "\n".join(lines)

    # -- the checks ---------------------------------------------------------------------

    def check_game(self, game: str) -> None:
        app = self.start_app(self.size)
        self.tap("New game")
        self.tap(get_game(game).title)
        self.tap("Start the game")
        assert app.root.current == "session", app.screen("new").ids.notice.text
        screen = app.screen("session")
        for step in GAMES[game]:
            self.settle()
            if not any(getattr(w, "text", None) == step for w in walk(screen.view)):
                continue  # a step with no choice the app took by itself
            self.tap(step, within=screen.view)
            assert not getattr(screen.view, "message", ""), screen.view.message
        asked = screen.tab  # the panel the game's request brought forward

        def panels(text: str) -> None:
            # on a phone the game is a tab of its own (an open panel takes its place)
            for panel in PANELS + (("game",) if screen.phone else ()):
                screen.show_tab(panel)
                self.look(f"{game} {panel.title()} panel", text)
            screen.show_tab(asked)
            self.look(f"{game} {asked.title()} panel (asked)", text)

        self.each_text_size(f"{game}", panels)
        if game == "kradia":
            self.each_text_size("kradia-correction-sheet", lambda text: self.hp_sheet(text))
        assert self.looks.checked_targets > 40 and self.looks.checked_texts > 40
        self.verdict()

    def hp_sheet(self, text: str) -> None:
        """The correction sheet a hero's HP bar opens (Kradia), then cancelled."""
        view = self.app.screen("session").view
        card = next(c for c in view.ids.heroes.children if getattr(c, "hero", "") == "warden")
        card.ids.hp.dispatch("on_release")  # as a tap does (the bar may sit under the fold)
        self.settle()
        sheet = self.Window.children[0]
        assert type(sheet).__name__ == "CorrectionSheet", f"no sheet opened: {sheet}"
        self.look("kradia correction sheet", text)
        sheet.dismiss()

    # -- the result card at each game's fullest step, and the sheets (issue 25) -----------

    def check_results(self, sheets: bool) -> None:
        """The result card at the steps that say the most (`result_steps`); or (`sheets`)
        the sheets a player opens over those steps: the check sheet (a Direwild minion, a
        Kradia boss's chart) and the action sheet (a choice and a number; sixteen
        choices), each scrolled through."""
        from tests.ui.result_steps import STEPS

        app = self.start_app(self.size)
        screen = app.screen("session")
        for what, make in STEPS.items():
            app.open_session(make(app.library))
            if not sheets:
                where = f"{what} result card"
                self.each_text_size(what.replace(" ", "-"), partial(self.look, where))
            elif what == "direwild AI card":  # the card's own offer: a minion to check
                self.each_text_size("", self.check_minion)
            elif what == "kradia boss attack":
                opening = partial(screen.check_card, app.session.state.boss.id)
                where = "check sheet (a boss)"
                self.each_text_size("", partial(self.sheet, where, opening, "check-sheet-boss"))
            else:
                for label, shot in (
                    ("Rank increase for", "action-sheet-rank"),
                    ("Give Stormcaller", "action-sheet-condition"),
                ):
                    self.each_text_size("", partial(self.action_sheet, label, shot))
        self.verdict()

    def check_editor(self) -> None:
        """The card editor's form: a new Kradia boss and HEXplore opponent, scrolled
        through."""
        app = self.start_app(self.size)
        self.editor(app, "kradia", "bosses", "card editor (a Kradia boss)")
        self.editor(app, "hexplore", "opponents", "card editor (a HEXplore opponent)")
        self.verdict()

    def check_minion(self, text: str) -> None:
        """The result card's offer, tapped (as its button does): the minion's sheet."""
        card = self.app.screen("session").ids.result
        offer = next(b for b in (card.ids.check, card.ids.check_below) if b.offered)
        opening = partial(offer.dispatch, "on_release")
        self.sheet("check sheet (a minion)", opening, "check-sheet-minion", text)

    def action_sheet(self, label: str, shot: str, text: str) -> None:
        """A listed action with inputs, its button tapped (as a tap does: it may sit under
        the fold of the game's list)."""
        view = self.app.screen("session").view
        if not view.more_open:  # "More: what a card does", tapped
            view.more_button.dispatch("on_release")
            self.settle()
        button = next(
            w
            for w in walk(view)
            if getattr(w, "action", None) and str(getattr(w, "text", "")).startswith(label)
        )
        self.sheet(f"action sheet ({label}...)", partial(button.dispatch, "on_release"), shot, text)

    def sheet(self, where: str, opening: Callable[[], Any], shot: str, text: str) -> None:
        """A sheet opened over the game, looked at from its top to its end, shot, then
        closed."""
        opening()
        self.settle()
        sheet = self.Window.children[0]
        assert type(sheet).__name__.endswith("Sheet"), f"no sheet opened: {sheet}"
        self.look_through(where, text)
        self.shot(f"{shot}-{text.lower()}")
        sheet.dismiss(animation=False)
        self.settle()

    def look_through(self, where: str, text: str) -> None:
        """What the top window shows, then each scrolling area of it scrolled a page at a
        time to its end (a long form or chart is read all the way down)."""
        from kivy.uix.scrollview import ScrollView

        self.look(where, text)
        top = self.Window.children[0]
        for area in [w for w in walk(top) if isinstance(w, ScrollView) and w.do_scroll_y]:
            content = area.children[0] if area.children else None
            if content is None or content.height <= area.height + 1:
                continue
            page = area.height / (content.height - area.height)
            y = 1.0
            while y > 0:
                y = max(0.0, y - 0.8 * page)
                area.scroll_y = y
                self.look(f"{where}, scrolled", text)
            area.scroll_y = 1.0

    def editor(self, app: Any, game: str, kind: str, where: str) -> None:
        """A new card of `kind` on the card editor's form, in a pack of the group's own."""
        from companion.core import workshop
        from companion.ui.screens.packs import open_packs

        slug = workshop.new_pack(game, f"Ours {game}").slug
        open_packs(app)
        packs = app.screen("packs")
        packs.show_kinds(game, slug)
        packs.show_cards(kind)
        packs.new_card()
        self.each_text_size(f"editor-{game}-{kind}", partial(self.look_through, where))

    def check_screens(self) -> None:
        app = self.start_app(self.size)
        session = app.library.new(get_game("tiny"))
        session.do("roll")
        session.close()

        def screens(text: str) -> None:
            app.go("home")
            self.look("home", text)
            app.go("new")
            self.tap("Tiny")
            self.look("new game", text)
            app.go("settings")
            self.look("settings", text)
            from companion.ui.screens.packs import open_packs

            open_packs(app)
            self.look("your cards", text)

        self.each_text_size("screens", screens)
        self.verdict()


def _make(size_name: str) -> type[ErgonomicsCase]:
    size = SIZES[size_name]

    def test_screens(self: ErgonomicsCase) -> None:
        self.check_screens()

    attrs: dict[str, Any] = {
        "size": size,
        "size_name": size_name,
        "test_home_new_settings_and_your_cards": test_screens,
    }
    for game in GAMES:
        attrs[f"test_{game}"] = lambda self, g=game: self.check_game(g)
    # issue 25: the result card at each game's fullest step, the sheets, the card editor
    attrs["test_result_cards"] = lambda self: self.check_results(sheets=False)
    attrs["test_check_and_action_sheets"] = lambda self: self.check_results(sheets=True)
    attrs["test_card_editor"] = lambda self: self.check_editor()
    return type(f"TestErgonomics{size_name.title()}", (ErgonomicsCase,), attrs)


TestErgonomicsLandscape = _make("landscape")
TestErgonomicsPortrait = _make("portrait")
TestErgonomicsPhone = _make("phone")


class TestTabsAndWizard(AppTestCase):
    def test_session_tabs_stay_whole_at_every_text_size(self) -> None:
        """Each side panel tab's word on one line, whole, at every text size and size
        (at Largest in landscape "Phones" broke as "Phon/es", at phone size "Dic/e")."""
        from tests.ui.looks import Looks as _Looks

        app = self.start_app()
        session = app.library.new(get_game("tiny"))
        session.close()
        app.open_session("tiny-1")
        ids = app.screen("session").ids
        tabs = [ids[f"tab_{name}"] for name in PANELS]
        problems = []
        for scale in TEXT_SIZES.values():
            with text_size(scale):
                for name, size in SIZES.items():
                    self.resize(size)
                    self.frames(3)
                    for tab in tabs:
                        found = _Looks.clipped(tab)
                        if tab.texture_size[1] > tab.font_size * 1.6:
                            found.append(f"{tab.text!r} takes more than one line")
                        problems += [f"text size {scale} {name}: {p}" for p in found]
        assert problems == [], "\n".join(problems)

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
        register_game(TinyWithOptions())  # type: ignore[arg-type]
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


def test_box_is_in_window_pixels() -> None:
    """`box` of a widget with no parent is its own rectangle."""
    from kivy.uix.widget import Widget

    w = Widget(pos=(10, 20), size=(30, 40))
    assert box(w) == (10, 20, 40, 60)
