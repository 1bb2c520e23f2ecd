"""Correction by tapping the thing (issue 12): a hero's bar, the boss's HP track, a rage
cell, a HEXplore hero's or opponent's Health, the fate wheel; each opens a small sheet that
edits just that value through the session's correction, with nothing typed."""

from __future__ import annotations

import pytest

from tests.kradia.helpers import CONTENT, options
from tests.ui.kivyharness import ViewTestCase, walk
from tests.ui.test_ergonomics import text_size

pytestmark = pytest.mark.ui


class SheetSteps:
    """What a player does on the sheet: taps, never typing."""

    def sheet(self):
        from companion.ui.panels.correction_sheet import CorrectionSheet

        found = [w for w in self.Window.children if isinstance(w, CorrectionSheet)]
        assert found, "no correction sheet opened"
        return found[0]

    def no_text_input(self) -> None:
        from kivy.uix.textinput import TextInput

        assert not [w for w in walk(self.Window) if isinstance(w, TextInput)]


class TestKradia(SheetSteps, ViewTestCase):
    game = "kradia"

    def setUp(self) -> None:
        super().setUp()
        self.show_view(self.new_session(options(), content=CONTENT))

    def test_a_heros_hp_bar_corrects_that_heros_hp(self) -> None:
        card = next(c for c in self.view.ids.heroes.children if c.hero == "warden")
        before = self.session.state.heroes["warden"].hp
        self.tap(card.ids.hp)
        sheet = self.sheet()
        assert sheet.value == before and "HP" in sheet.title
        self.no_text_input()
        self.tap("-", within=sheet)
        self.tap("-", within=sheet)
        self.tap("Save", within=sheet)
        assert self.session.state.heroes["warden"].hp == before - 2
        assert sheet.parent is None  # saved: the sheet closes
        self.shoot("tap-to-correct-kradia-hero")

    def test_a_space_of_the_boss_track_and_a_rage_cell(self) -> None:
        boss = self.view.ids.boss
        space = next(c for c in boss.ids.track.children if getattr(c, "text", "") == "9")
        self.tap(space)
        sheet = self.sheet()
        assert sheet.value == 9  # the space tapped is where the sheet starts
        self.tap("Save", within=sheet)
        assert self.session.state.boss.hp == 9
        self.refresh()
        rage = list(reversed(boss.ids.rage.children))[1]  # the second rage cell
        self.tap(rage)
        sheet = self.sheet()
        assert sheet.value == 2
        self.tap("Cancel", within=sheet)
        assert self.session.state.boss.rage == 0  # cancelled: nothing changed


class TestHexplore(SheetSteps, ViewTestCase):
    game = "hexplore"
    options = {}

    def test_the_fate_wheel_corrects_the_cycle_and_the_bar_the_tracker(self) -> None:
        self.tap(self.view.ids.wheel.ids.drawing)
        sheet = self.sheet()
        assert sheet.title == "Fate Cycle" and sheet.value == 0
        self.tap("+", within=sheet)
        self.tap("Save", within=sheet)
        assert self.session.state.fate.cycle == 1
        self.refresh()
        self.tap(self.view.ids.wheel.ids.tracker)
        sheet = self.sheet()
        for _ in range(3):
            self.tap("+", within=sheet)
        self.tap("Save", within=sheet)
        assert self.session.state.fate.tracker == 3

    def test_health_bars_in_a_fight_correct_that_value(self) -> None:
        view, session = self.view, self.session
        self.tap(view.ids.mat.fight_button("Fight Giant Fox!"))
        hero = next(iter(session.state.heroes))
        self.tap(view.ids.mat.bar(hero, "health"))
        sheet = self.sheet()
        assert sheet.value == session.state.heroes[hero].max_health
        plus = next(w for w in walk(sheet) if getattr(w, "text", "") == "+")
        assert plus.disabled  # never above the hero's most
        self.tap("-", within=sheet)
        with text_size(1.8):
            self.shoot("correction-sheet-largest")
        self.tap("Save", within=sheet)
        assert session.state.heroes[hero].health == session.state.heroes[hero].max_health - 1
        self.refresh()
        self.tap(view.ids.mat.bar("opponent", "energy"))
        sheet = self.sheet()
        self.tap("-", within=sheet)
        self.tap("Save", within=sheet)
        o = session.state.combat.opponent
        assert o.energy == o.max_energy - 1
        self.shoot("tap-to-correct-hexplore-fight")


class TestPicking:
    """The Fix panel's choices for a text value: read off the state and the content, by
    name, so a position, card or hero is picked, not typed."""

    def test_a_heros_key_is_picked_among_the_heroes_by_name(self, tmp_path) -> None:
        from companion.core.session import Session
        from companion.games import get_game
        from companion.ui.panels.choices import text_choices

        session = Session.create(tmp_path / "k.session", get_game("kradia"), options(), ["demo"])
        state = session.to_json()
        picks = dict(text_choices(state, "start_player", session.content))
        assert set(picks) == set(state["heroes"])
        assert all("/" not in name and name for name in picks.values())  # names, never ids
        first = next(iter(state["heroes"]))
        card = session.content.get("heroes", state["heroes"][first]["card"])
        assert picks[first] == card.title

    def test_a_card_is_picked_among_its_kind_and_an_empty_field_offers_none(self, tmp_path) -> None:
        from companion.core.session import Session
        from companion.games import get_game
        from companion.ui.panels.choices import text_choices

        session = Session.create(tmp_path / "k.session", get_game("kradia"), options(), ["demo"])
        state = session.to_json()
        item = state["item_deck"][0]
        kind = next(k for k, items in session.content.items.items() if item in items)
        picks = dict(text_choices(state, "item_deck.0", session.content))
        assert set(session.content.ids(kind)) <= set(picks)
        assert None in dict(text_choices(state, "battlefield.column", session.content))


class TestSkillTitles(ViewTestCase):
    """The skills board's column titles stay whole at the largest text in portrait (it
    broke "Navigate" as "Navigat/e")."""

    game = "hexplore"
    options = {}

    def test_each_title_is_one_line_at_largest_text_in_portrait(self) -> None:
        from companion.ui.games.hexplore.skills_board import ColumnTitle
        from tests.ui.kivyharness import PORTRAIT

        with text_size(1.8):
            self.resize(PORTRAIT)
            self.frames(4)
            titles = [w for w in walk(self.view) if isinstance(w, ColumnTitle) and w.text]
            assert {w.text for w in titles} >= {"Navigate", "Explore", "Survival"}
            line = max(w.font_size for w in titles) * 1.6
            for w in titles:
                assert w.texture_size[1] < line, f"{w.text!r} breaks over two lines"
                assert w.texture_size[0] <= w.width
            self.shoot("hexplore-skills-largest", both=False)
