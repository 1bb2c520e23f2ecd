"""Correction by tapping the thing (issue 12): a hero's bar, the boss's HP track, a rage
cell, a HEXplore hero's or opponent's Health, the fate wheel; each opens a small sheet that
edits just that value through the session's correction, with nothing typed."""

from __future__ import annotations

import pytest

from tests.kradia.helpers import CONTENT, options
from tests.ui.kivyharness import ViewTestCase, walk

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
