"""round_by_touch (issues 12 and 25): a whole Direwild round from the home screen by
touches alone, with 2 and with 4 clans at the table.

Marked `round_by_touch` (and `ui`).  Every hero takes a turn: Stormbringer walks in, steps
the creatures' attack up (so it can win) and battles the red minion by flight; the others
walk in; each turn is ended by its button.  It fails if any text input takes focus, or if
the result card, the roll or card asked for, the next step's button, the Enemy AI step
with its path, or the whole board need scrolling to be seen, in landscape, portrait and on a
phone at Normal and Largest text, or if tests/ui/looks.py's ergonomics checks find a
problem not on driver.KNOWN at any of them.  Screenshots: artifacts/ui/rounds/direwild/<players>p-*.png.  Only
the Cards panel's cards needing scrolling is warned about, not failed: its fix is the
frame's.
"""

from __future__ import annotations

import warnings

import pytest

from tests.ui.kivyharness import AppTestCase
from tests.ui.rounds.direwild import ATTACK, BATTLE_ROLL, FOE, HERO, play_round
from tests.ui.rounds.driver import KNOWN, SIZES, RoundDriver

pytestmark = [pytest.mark.ui, pytest.mark.round_by_touch]


class TestDirewildRound(AppTestCase):
    def play(self, players: int) -> None:
        driver = RoundDriver(self, "direwild", players)
        session, battle = play_round(driver, players)
        assert battle is not None and battle.hero == HERO and battle.enemy == FOE
        assert battle.roll == [BATTLE_ROLL]
        assert battle.winner == "hero", battle  # the creatures' attack stepped up won it
        assert battle.hero_total >= ATTACK + BATTLE_ROLL
        assert driver.count.keyboard == 0
        # what must be seen, then the ergonomics checks: every problem of the run listed
        problems = driver.problems(KNOWN)
        assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems)
        assert driver.count.tapped.count("+") == ATTACK, driver.count.tapped
        if driver.shots:
            assert len(driver.count.shots) == 2 * len(SIZES) * driver.step
        if driver.count.frame_unseen:  # the session frame's panels: reported, not this view's
            warnings.warn("\n".join(driver.count.frame_unseen), stacklevel=1)
        driver.report()  # counted only once the round held

    def test_two_players(self) -> None:
        self.play(2)

    def test_four_players(self) -> None:
        self.play(4)
