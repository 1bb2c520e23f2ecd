"""The HEXplore screen, headless under SDL offscreen (the shared UI harness): it renders,
and real touches send commands."""

from __future__ import annotations

import pytest

from tests.hexplore.setups import TWO_HEROES
from tests.ui.kivyharness import ViewTestCase

pytestmark = pytest.mark.ui


class HexploreViewTest(ViewTestCase):
    game = "hexplore"

    options = {
        "difficulty": "easy",
        "heroes": [
            {"id": "stormcaller", "hero": "stormcaller-sprite"},
            {
                "id": "keeper",
                "hero": "verdant-keeper-wood-elf",
                "skills": {"navigate": 2, "explore": 5, "survival": 6},
            },
        ],
    }

    def test_the_wheel_warns_before_the_cycle_takes_a_skill(self) -> None:
        view, session = self.view, self.session
        session.correct("fate.cycle", 1)
        session.correct("fate.tracker", 4)
        self.refresh()
        assert "Fate Tracker 4 of 6" in view.ids.wheel.tracker_text
        assert view.ids.wheel.warnings == [
            "Verdant Keeper (Wood Elf): navigate will fail at Fate Cycle 2 (2 rises away)"
        ]
        self.tap(view.step_button("end_game_turn"))
        self.tap(view.step_button("end_game_turn"))
        assert session.state.fate.cycle == 2
        cells = view.ids.skills.cell_texts()
        assert "2 AUTO-FAIL" in cells
        assert view.ids.wheel.sentinels_text == "Sentinels: battle site 1"

    def test_the_combat_mat_walks_through_a_round(self) -> None:
        view, session = self.view, self.session
        mat = view.ids.mat
        assert "Fight Mindwiped Villagers!" in mat.opponents  # names, never ids
        self.tap(mat.fight_button("Fight Mindwiped Villagers!"))
        assert session.state.combat.opponent.soul_shield == 15
        assert not mat.opponents  # no second fight while this one lasts
        assert view.next_label == ""  # each hero declares first
        self.tap(mat.button("stormcaller", "attack", vital="health"))
        self.tap(mat.button("keeper", "defend"))
        assert session.state.combat.declarations["keeper"].action == "defend"
        assert view.next_label == "Mindwiped Villagers! acts"
        self.tap(view.ids.next)
        assert view.request_text == (
            "Waiting on the Dice panel: Mindwiped Villagers!: roll the hex d6 "
            "(Mindwiped Villagers!'s action)"
        )
        assert list(view.ids.steps.children) == [] and view.next_label == ""
        assert view.answer([6])  # the Dice panel's answer: the hex, the Special
        assert session.request is None
        assert "Action die: 6 -> Special" in mat.walkthrough
        assert view.next_label == "Resolve the round"
        self.tap(view.ids.next)
        assert "Stormcaller (Sprite): 5 health less Defend 2 = 3" in mat.resolution
        assert "Soul Shield takes 3: 15 -> 12" in mat.resolution
        assert "Round 2 on Easy" in mat.heading
        self.shoot("hexplore-view-combat")

    def test_the_skills_board_rolls_a_hero_and_settles_the_phase(self) -> None:
        view, session = self.view, self.session
        assert list(view.ids.skills.ids.settle_box.children) == []  # not until all rolled
        assert view.next_label == "Roll skills for Stormcaller (Sprite)"
        self.tap(view.ids.skills.roll_button("keeper"))
        assert view.request_text == (
            "Waiting on the Dice panel: Verdant Keeper (Wood Elf): roll the skill d10 "
            "(navigate (rank 2))"
        )
        for face in (1, 3, 10):
            assert view.answer([face])
        assert session.state.last_skill_rolls["keeper"] == {
            "navigate": "critical_success",
            "explore": "success",
            "survival": "critical_failure",
        }
        assert "2 [CRIT]" in view.ids.skills.cell_texts()
        self.tap(view.ids.next)  # Stormcaller rolls: the next step the rules expect
        for face in (2, 2, 2):
            view.answer([face])
        assert view.next_label == "Settle the Skill phase"
        self.tap(view.ids.skills.settle_button())
        assert session.state.skill_phase.resolved
        assert view.next_label == "Roll a Circumstance"

    def test_a_refusal_is_shown_in_the_rules_words(self) -> None:
        view = self.view
        assert not view.send("declare", {"hero": "keeper", "action": "attack"})
        assert view.message == "there is no combat under way: start_combat first"


class HexploreMoreTest(ViewTestCase):
    """What a card does (Gold found, a heal, a Condition) is behind one More button, and its
    table facts are set on a sheet by - and + or by picking, never sent as the default."""

    game = "hexplore"
    options = HexploreViewTest.options

    def test_gold_found_is_set_on_a_sheet_then_sent(self) -> None:
        view, session = self.view, self.session
        gold = session.state.heroes["stormcaller"].gold
        assert not any(b.action["do"] == "gain" for b in self._step_buttons())
        self.tap(view.more_button)
        gain = next(
            b
            for b in self._step_buttons()
            if b.action["do"] == "gain" and b.action["with"]["hero"] == "stormcaller"
        )
        assert gain.text == "Gold or Food for Stormcaller (Sprite)"  # a name, not an id
        self.tap(gain)
        sheet = gain.sheet
        row = sheet.row("gold")
        plus = next(w for w in row.walk() if getattr(w, "text", None) == "+")
        for _ in range(3):
            self.tap(plus)
        assert row.value == 3
        assert session.state.heroes["stormcaller"].gold == gold  # nothing sent yet
        from companion.ui.style import style

        before, style.font_scale = style.font_scale, 1.8  # the largest text setting
        try:
            self.frames(3)
            self.shoot("hexplore-action-sheet-largest")
        finally:
            style.font_scale = before
        self.tap(sheet.ids.go)
        assert session.state.heroes["stormcaller"].gold == gold + 3

    def test_a_condition_is_picked_by_its_name(self) -> None:
        view, session = self.view, self.session
        self.tap(view.more_button)
        give = next(
            b
            for b in self._step_buttons()
            if b.action["do"] == "inflict" and "Stormcaller" in b.text
        )
        self.tap(give)
        pick = next(w for w in give.sheet.walk() if getattr(w, "text", None) == "knocked down")
        self.tap(pick)
        self.tap(give.sheet.ids.go)
        assert "knocked_down" in session.state.heroes["stormcaller"].conditions

    def _step_buttons(self) -> list:
        return [b for b in self.view.ids.steps.children if hasattr(b, "action")]


class HexploreSeveralOpponentsTest(ViewTestCase):
    """Issue 14: the mat shows every opponent's bars under its name, and each hero's
    declarations against each opponent come as the rules label them."""

    game = "hexplore"
    options = TWO_HEROES

    def test_two_opponents_on_the_mat(self) -> None:
        view, session = self.view, self.session
        mat = view.ids.mat
        self.tap(mat.fight_button("Fight Giant Fox!"))
        self.tap(mat.fight_button("Add Grove Lynx to this combat"))  # a name, not an id
        assert [o.name for o in session.state.combat.extra] == ["Grove Lynx"]
        names = [w.text for w in mat.ids.foe.children if not hasattr(w, "owner")]
        assert any("Giant Fox!" in t for t in names) and any("Grove Lynx" in t for t in names)
        assert mat.bar("opponent", "health").text == "Health 4/4"
        assert mat.bar("opponent2", "health").text == "Health 9/9"
        assert mat.bar("opponent2", "energy").text == "Energy 4/4"
        lynx = mat.button("a", "attack", vital="health", foe="opponent2")
        assert lynx.text == "Attack Grove Lynx (health)"
        self.tap(lynx)
        assert not list(mat.ids.joins.children)  # no one joins once a hero has declared
        self.tap(mat.button("b", "attack", vital="health", foe="opponent"))
        assert session.state.combat.declarations["a"].foe == "opponent2"
        heroes = [w.text for w in mat.ids.heroes.children if hasattr(w, "markup")]
        assert "[b]a[/b]: attack 4 health at Grove Lynx" in heroes
        assert view.next_label == "Giant Fox! and Grove Lynx act"
        self.tap(view.ids.next)
        for face in (2, 9, 2, 1):  # the Fox's die and target dice, then the Lynx's (at b)
            assert view.answer([face])
        assert "Giant Fox!:" in mat.walkthrough and "Grove Lynx:" in mat.walkthrough
        self.shoot("hexplore-view-two-opponents")
        self.tap(view.ids.next)  # resolve: the Fox falls, the Lynx fights on
        assert mat.bar("opponent2", "health").text == "Health 5/9"
        with pytest.raises(KeyError):
            mat.bar("opponent", "health")  # the beaten Fox leaves the mat
        assert mat.button("a", "attack", vital="health").text == "Attack (health)"
