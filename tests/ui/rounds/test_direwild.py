"""round_by_touch (issue 12): a whole Direwild round from the home screen by touches alone.

Marked `round_by_touch` (and `ui`).  It fails if any text input takes focus, or if the result
card, the roll or card asked for, the next step's button, the Enemy AI step with its path,
or the whole board need scrolling to be seen, in landscape and portrait at Normal and
Largest text.  Screenshots: artifacts/ui/rounds/direwild/.  Only the Cards panel's cards
needing scrolling is warned about, not failed: its fix is the frame's (the panel keeps its
old scroll position when a new draw's cards arrive).
"""

from __future__ import annotations

import warnings

import pytest

from tests.ui.kivyharness import AppTestCase
from tests.ui.rounds.direwild import BATTLE_ROLL, FOE, HERO, play_round
from tests.ui.rounds.driver import RoundDriver

pytestmark = [pytest.mark.ui, pytest.mark.round_by_touch]


class TestDirewildRound(AppTestCase):
    def test_a_round_by_touch_alone(self) -> None:
        driver = RoundDriver(self, "direwild")
        _session, battle = play_round(driver)
        driver.report()
        assert battle is not None and battle.hero == HERO and battle.enemy == FOE
        assert battle.roll == [BATTLE_ROLL]
        assert driver.count.keyboard == 0
        assert not driver.count.unseen, "\n".join(driver.count.unseen)
        if driver.shots:
            assert len(driver.count.shots) == 4 * driver.step
        if driver.count.frame_unseen:  # the session frame's panels: reported, not this view's
            warnings.warn("\n".join(driver.count.frame_unseen), stacklevel=1)
