"""The Gryk's Treasure Monster and a card's wound are buttons under the hero picked (issue
14): the rules list one action per hero, so the tablet shows them with no screen of their
own and no stepper added beside the creature's facts."""

from __future__ import annotations

import pytest

from tests.ui.kivyharness import ViewTestCase

pytestmark = pytest.mark.ui


class DirewildGrykTest(ViewTestCase):
    game = "direwild"
    options = {
        "players": ["stormbringer", "featherheart"],
        "minions": {"red": "gryk"},
    }

    def test_the_gryks_treasure_monster_and_a_cards_wound_are_the_picked_heros_buttons(
        self,
    ) -> None:
        view, session = self.view, self.session
        session.correct("phase", "adventure")
        session.correct("enemies.red.active", True)
        self.refresh()
        assert view.hero == "stormbringer"  # the hero whose turn it is, selected
        keys = {s.key for s in view.ids.facts.children}
        assert not keys & {"hero", "count", "gryk"}, keys  # no new steppers
        gryk = "Stormbringer loses to a Treasure Monster the Gryk's ability revealed"
        self.tap(self.find(gryk, within=view.ids.actions))
        assert session.state.heroes["stormbringer"].fatal == 1, view.message
        assert session.state.fatal_wounds == 5
        wound = "Stormbringer takes a wound from a card (never a Fatal Wound)"
        self.tap(self.find(wound, within=view.ids.actions))
        assert session.state.heroes["stormbringer"].wounds == 1, view.message
        assert session.state.heroes["stormbringer"].fatal == 1
