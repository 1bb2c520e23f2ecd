"""round_by_touch (issue 12): a HEXplore game turn and a combat round from the home screen
by touches alone.

Marked `round_by_touch` (and `ui`).  It fails if any text input takes focus, or if the
result card, the roll asked for (or the next step's button) and, in a fight, the
opponent's Health and Energy need scrolling to be seen, in landscape, portrait and on a
phone at Normal and Largest text, or if tests/ui/looks.py's ergonomics checks find a
problem not on driver.KNOWN at any of them.  With 2 and with 4 heroes (issue 25).  Screenshots:
artifacts/ui/rounds/hexplore/<heroes>p-*.png.
"""

from __future__ import annotations

import pytest

from tests.ui.kivyharness import AppTestCase
from tests.ui.rounds.driver import KNOWN, SIZES, RoundDriver
from tests.ui.rounds.hexplore import ACTION_DIE, OPPONENT, SKILL_DICE, play_round

pytestmark = [pytest.mark.ui, pytest.mark.round_by_touch]


class TestHexploreRound(AppTestCase):
    def play(self, heroes: int) -> None:
        driver = RoundDriver(self, "hexplore", heroes)
        session = play_round(driver, heroes)
        s = session.state
        assert len(s.heroes) == heroes
        assert s.last_skill_rolls and all(
            len(rolls) == len(SKILL_DICE) for rolls in s.last_skill_rolls.values()
        )
        fight = s.combat or s.last_combat
        assert fight is not None
        assert s.combat is None or s.combat.opponent.name == OPPONENT
        assert driver.count.keyboard == 0
        # what must be seen, then the ergonomics checks: every problem of the run listed
        problems = driver.problems(KNOWN)
        assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems)
        assert not driver.count.frame_unseen, "\n".join(driver.count.frame_unseen)
        if driver.count.dice == "keypad":
            assert driver.count.answer_to_card_ms, "no dice answer was timed"
        assert ACTION_DIE in range(1, 7)
        if driver.shots:
            assert len(driver.count.shots) == 2 * len(SIZES) * driver.step
        driver.report()  # counted only once the round held

    def test_two_heroes(self) -> None:
        self.play(2)

    def test_four_heroes(self) -> None:
        self.play(4)
