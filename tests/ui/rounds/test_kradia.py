"""round_by_touch (issues 12 and 25): a whole Kradia round from the home screen by touches
alone, with 2 and with 4 players at the table.

Marked `round_by_touch` (and `ui`).  After a first round of Basic Attacks (the heroes'
Mana), the round measured has a skill, a Charge Attack (its die on the keypad, its effect
chosen), Basic Attacks and the boss's attack.  It fails if any text input takes focus, or
if the result card, the roll or draw asked for (or the next step's button) and the boss's
HP and rage tracks need scrolling to be seen, in landscape, portrait and on a phone at
Normal and Largest text, or if tests/ui/looks.py's ergonomics checks find a problem not
on driver.KNOWN at any of them.  Screenshots: artifacts/ui/rounds/kradia/<players>p-*.png.
"""

from __future__ import annotations

import pytest

from tests.ui.kivyharness import AppTestCase
from tests.ui.rounds.driver import KNOWN, SIZES, RoundDriver
from tests.ui.rounds.kradia import BOSS_DICE, play_round

pytestmark = [pytest.mark.ui, pytest.mark.round_by_touch]


class TestKradiaRound(AppTestCase):
    def play(self, players: int) -> None:
        driver = RoundDriver(self, "kradia", players)
        session = play_round(driver, players)
        attack = session.state.last_attack
        assert attack is not None and attack.dice == list(BOSS_DICE[: len(attack.dice)])
        assert driver.count.keyboard == 0
        # what must be seen, then the ergonomics checks: every problem of the run listed
        problems = driver.problems(KNOWN)
        assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems)
        taps = driver.count.taps - driver.count.setup_taps
        # the card, a skill, a Charge Attack and its effect, a Basic Attack for each other
        # hero, and a tap per die on the keypad (the charge's and the boss's)
        heroes = len(session.state.order)
        keypad = (1 + len(attack.dice)) if driver.count.dice == "keypad" else 0
        assert taps == 1 + 1 + 2 + (heroes - 2) + keypad, (taps, driver.count.tapped)
        used = {e.type for rows in session.history()[-40:] for e in rows}
        assert {"SkillUsed", "ChargeChosen", "BasicAttacked"} <= used, used
        card = self.app.screen("session").ids.result
        assert card.title == f"Boss attacks ({len(attack.dice)} dice)", card.title
        last = card.text.split("\n")[-1]
        assert last.startswith("Then: End round: pass the First Player token"), last
        assert "Start round 3" in last, last
        if driver.shots:
            assert len(driver.count.shots) == 2 * len(SIZES) * driver.step
        assert not driver.count.frame_unseen, "\n".join(driver.count.frame_unseen)
        driver.report()  # counted only once the round held

    def test_two_players(self) -> None:
        self.play(2)

    def test_four_players(self) -> None:
        self.play(4)
