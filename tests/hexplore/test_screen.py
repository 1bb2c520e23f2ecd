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
        self.tap(view.ids.end_turn)
        self.tap(view.ids.end_turn)
        assert session.state.fate.cycle == 2
        cells = view.ids.skills.cell_texts()
        assert "2 AUTO-FAIL" in cells
        assert view.ids.wheel.sentinels_text == "Sentinels: battle site 1"

    def test_the_combat_mat_walks_through_a_round(self) -> None:
        view, session = self.view, self.session
        view.ids.mat.ids.choice.text = "mindwiped-villagers"
        self.tap(view.ids.mat.ids.start)
        assert session.state.combat.opponent.soul_shield == 15
        self.tap(view.ids.mat.button("stormcaller", "attack"))
        self.tap(view.ids.mat.button("keeper", "defend"))
        assert session.state.combat.declarations["keeper"].action == "defend"
        self.tap(view.ids.mat.ids.resolve)
        assert view.message == "not now: the heroes are still declaring (then opponent_action)"
        self.tap(view.ids.mat.ids.act)
        assert view.request_text.startswith("Waiting: Opponent: roll the hex d6")
        faces = [b.text for b in reversed(view.ids.answers.children)]
        assert faces == ["1", "2", "3", "4", "5", "hex"]
        self.tap(list(reversed(view.ids.answers.children))[5])  # the hex: the Special
        assert session.request is None
        assert "Action die: 6 -> Special" in view.ids.mat.walkthrough
        self.tap(view.ids.mat.ids.resolve)
        assert "stormcaller: 5 health less Defend 2 = 3" in view.ids.mat.resolution
        assert "Soul Shield takes 3: 15 -> 12" in view.ids.mat.resolution
        assert "Round 2 on Easy" in view.ids.mat.heading
        self.shoot("hexplore-view-combat")

    def test_the_skills_board_rolls_a_hero_and_settles_the_phase(self) -> None:
        view, session = self.view, self.session
        self.tap(view.ids.skills.ids.settle)
        assert view.message == "waiting for skill rolls from stormcaller, keeper"
        self.tap(view.ids.skills.roll_button("keeper"))
        assert view.request_text == "Waiting: Keeper: roll the skill d10 (navigate (rank 2))"
        for face in ("hex", "3", "10"):
            button = next(b for b in view.ids.answers.children if b.text == face)
            self.tap(button)
        assert session.state.last_skill_rolls["keeper"] == {
            "navigate": "critical_success",
            "explore": "success",
            "survival": "critical_failure",
        }
        assert "2 [CRIT]" in view.ids.skills.cell_texts()
