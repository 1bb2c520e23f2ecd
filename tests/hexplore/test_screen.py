"""The HEXplore screen, headless under SDL offscreen (the shared UI harness): it renders,
and real touches send commands."""

from __future__ import annotations

import pytest

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
