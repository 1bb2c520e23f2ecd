"""round_by_touch (issue 12): a whole Kradia round from the home screen by touches alone.

Marked `round_by_touch` (and `ui`).  It fails if any text
input takes focus, or if the result card, the roll or draw asked for (or the next step's
button) and the boss's HP and rage tracks need scrolling to be seen, in landscape and
portrait at Normal and Largest text.  Screenshots: artifacts/ui/rounds/kradia/.
"""

from __future__ import annotations

import pytest

from tests.ui.kivyharness import AppTestCase
from tests.ui.rounds.driver import RoundDriver
from tests.ui.rounds.kradia import BOSS_DICE, play_round

pytestmark = [pytest.mark.ui, pytest.mark.round_by_touch]


class TestKradiaRound(AppTestCase):
    def test_a_round_by_touch_alone(self) -> None:
        driver = RoundDriver(self, "kradia")
        session = play_round(driver)
        driver.report()
        attack = session.state.last_attack
        assert attack is not None and attack.dice == list(BOSS_DICE[: len(attack.dice)])
        assert driver.count.keyboard == 0
        assert not driver.count.unseen, "\n".join(driver.count.unseen)
        taps = driver.count.taps - driver.count.setup_taps
        # a card and four heroes, and a tap per die on the keypad: half the 10 taps a
        # round took when issue 12 was filed, with the dice rolled on a tray
        assert taps == 5 + (len(attack.dice) if driver.count.dice == "keypad" else 0), taps
        card = self.app.screen("session").ids.result
        # the boss's attack stays the card's title while the table applies it; the round's
        # end and the next round's start, taken by themselves, are named on its last line
        assert card.title == "Boss attacks (2 dice)", card.title
        last = card.text.split("\n")[-1]
        assert last.startswith("Then: End round: pass the First Player token"), last
        assert "Start round 2" in last, last
        if driver.shots:
            assert len(driver.count.shots) == 4 * driver.step
        assert not driver.count.frame_unseen, "\n".join(driver.count.frame_unseen)
