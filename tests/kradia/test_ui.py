"""The Kradia view, headless under SDL offscreen: it renders, shows only legal actions,
and a real touch on a button sends the command to the session."""

from __future__ import annotations

import pytest

from tests.kradia.helpers import CONTENT, options
from tests.ui.kivyharness import ViewTestCase, walk

pytestmark = pytest.mark.ui


class KradiaViewTest(ViewTestCase):
    game = "kradia"

    def setUp(self) -> None:
        super().setUp()
        self.show_view(self.new_session(options(items={"oakla": ["potion"]}), content=CONTENT))

    def shown(self) -> list[str]:
        return [w.text for w in walk(self.view) if getattr(w, "command", None) is not None]

    def button(self, text: str):
        found = [
            w for w in walk(self.view) if getattr(w, "command", None) is not None and w.text == text
        ]
        assert found, (
            f"no button {text!r}: {[getattr(w, 'text', '') for w in walk(self.view) if hasattr(w, 'command')]}"
        )
        return found[0]

    def test_renders_the_table_to_a_png(self) -> None:
        self.shoot("kradia-view")
        texts = [getattr(w, "text", "") for w in walk(self.view)]
        assert "HP 12/12   2 dice" in texts
        assert "Oakla  Level 1" in texts and "First Player" in texts

    def test_hp_and_mana_are_bars_filled_as_far_as_they_go(self) -> None:
        self.session.correct("heroes.warden.hp", 7)
        self.session.correct("heroes.warden.blue", 1)
        self.refresh()
        warden = next(c for c in self.view.ids.heroes.children if c.hero == "warden")
        max_hp = self.session.state.heroes["warden"].max_hp
        blue_max = self.session.state.heroes["warden"].blue_max
        assert warden.ids.hp.text == f"HP 7/{max_hp}"
        assert warden.ids.hp.fraction == 7 / max_hp
        assert warden.ids.blue.text == f"Blue 1/{blue_max}"
        assert warden.ids.blue.fraction == 1 / blue_max
        assert warden.ids.red.fraction == 0
        self.shoot("kradia-hero-bars")

    def test_touches_play_a_turn(self) -> None:
        self.tap(self.button("Start round 1"))
        assert self.session.request is not None and self.session.request.kind == "draw"
        self.session.answer("kradia/battlefield-card/moon")
        self.refresh()
        # Moon I forbids Charge Attacks and Oakla has no Mana: neither is offered, and the
        # message line says why in the rules' words; she can still attack, so no Pass.
        assert (
            "Charge Attack (roll 1 d6)" not in self.shown() and "Oakla passes" not in self.shown()
        )
        message = self.view.ids.more.ids.message.text
        assert "the Battlefield forbids a Charge Attack this round" in message
        assert "Oakla has not enough Mana for any skill" in message
        self.shoot("kradia-view-turn")
        self.tap(self.button("Basic Attack"))
        assert self.session.state.boss.hp == 11
        # Oakla holds a Potion, so her turn stays open for Item cards until she ends it.
        assert self.session.state.turn == "oakla" and self.session.state.turn_done
        assert not any(getattr(w, "text", "") == "Basic Attack" for w in walk(self.view))
        self.tap(self.button("End Oakla's turn"))
        assert self.session.state.turn == "warden"

    def test_item_aimed_at_a_hero_and_charge_choices(self) -> None:
        self.session.do("start_round", {"card": "kradia/battlefield-card/sun"})
        self.session.correct("heroes.warden.hp", 5)
        self.refresh()
        self.tap(self.button("Item: Potion for Warden"))
        assert self.session.state.heroes["warden"].hp == 8
        self.tap(self.button("Charge Attack (roll 1 d6)"))
        self.session.answer([4])
        self.refresh()
        assert "Charge Attack #6" not in self.shown() and "Charge Attack #2" in self.shown()
        self.tap(self.button("Charge Attack #4"))
        assert self.session.state.boss.hp == 10
        assert self.session.state.turn == "warden"

    def test_retainer_and_level3_resupply_by_touch(self) -> None:
        self.tap(self.button("Retainer: Falconer"))
        assert self.session.state.boss.hp == 9
        assert "kradia/retainer/falconer" not in self.session.state.retainers
        self.session.do("start_round", {"card": "kradia/battlefield-card/sun"})
        self.session.correct("level", 2)
        self.session.correct("boss.hp", 1)
        self.session.do("basic_attack", {"hero": "oakla"})
        assert self.session.state.outcome == "boss_defeated"
        self.refresh()
        self.shoot("kradia-view-resupply")
        self.tap(self.button("Warden: Guardian"))
        self.tap(self.button("Warden: Avenger"))  # turned over, then back is one more tap
        self.tap(self.button("Resupply (to Level 3)"))
        request = self.session.request
        assert request is not None and request.deck == "items"
        for _ in range(4):
            self.session.answer(self.session.request.options[0])
        heroes = self.session.state.heroes
        assert heroes["warden"].level3_side == "guardian"
        assert heroes["oakla"].level3_side == "bloom"
        assert self.session.state.boss.id == "kradia/boss/stone-wyrm"

    def test_a_refusal_is_shown_as_the_rules_word_it(self) -> None:
        self.session.do("start_round", {"card": "kradia/battlefield-card/sun"})
        self.refresh()
        self.view.ids.actions.send("pass", {"hero": "oakla"})  # sent from a stale screen
        message = self.view.ids.more.ids.message.text
        assert message.startswith("Oakla can still act (basic attack, charge attack)")
        assert self.session.state.turn == "oakla"  # nothing lost


class KradiaFestivalViewTest(ViewTestCase):
    """The festival pack's new actions reach the table through `legal_actions` alone."""

    game = "kradia"

    def setUp(self) -> None:
        super().setUp()
        opts = options(sequence=None, boss="thicket-hydra", battlefield="moonlit-marsh")
        self.show_view(self.new_session(opts, packs=["demo", "festival"]))

    def test_an_extra_card_left_to_the_table_is_a_button_by_name(self) -> None:
        buttons = [w for w in walk(self.view) if getattr(w, "command", None) is not None]
        extra = [w for w in buttons if w.text == "Extra card: Severed Head"]
        assert extra, [w.text for w in buttons]
        self.shoot("kradia-extra-card")
        self.tap(extra[0])
        assert self.session.state.boss.hp == 8
        self.refresh()
        texts = [w.text for w in walk(self.view) if getattr(w, "command", None) is not None]
        assert "Extra card: Severed Head" not in texts
