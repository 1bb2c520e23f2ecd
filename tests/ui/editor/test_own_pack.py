"""own_pack (issue 13): a pack of the group's own cards made by touch, then played.

For each game: a pack made empty in Your cards, one card of every kind the game needs to
start entered by touch (names typed: the only keyboard use), the game started from the
wizard with that pack alone, and the new card's numbers seen in play.  And a copy of the
demo pack with one number changed, exported, imported into a fresh home and played.
"""

from __future__ import annotations

import os
import tempfile

import pytest

from companion.content import workshop
from tests.ui.editor.driver import (
    EditorDriver,
    new_card,
    new_pack,
    save_clean,
    start_with_pack,
)
from tests.ui.kivyharness import AppTestCase

pytestmark = [pytest.mark.ui, pytest.mark.own_pack]

HEXPLORE = "HEXplore It: The Forests of Adrimon"


def play_label(case: AppTestCase, label: str) -> None:
    """Tap one of the game view's buttons, by the words the rules gave it."""
    screen = case.app.screen("session")
    case.tap(label, within=screen.view)


def answer_dice(case: AppTestCase, *values: int) -> None:
    dice = case.app.screen("session").panels["dice"]
    for value in values:
        case.tap(str(value), within=dice.ids.keypad)


class TestOwnPackHexplore(AppTestCase):
    def test_a_pack_from_empty_fights_with_the_new_opponents_table(self) -> None:
        self.start_app()
        d = EditorDriver(self)
        new_pack(d, HEXPLORE)
        new_card(d, "Heroes", "New hero", "Fen Walker")
        d.type_text("Warden", "role")
        d.type_text("Human", "race")
        d.number(9, "health")
        d.number(5, "energy")
        for rank in ("attack", "defend", "navigate", "explore", "survival"):
            d.number(2, rank)
        save_clean(d, "Fen Walker")

        new_card(d, "Opponents", "New opponent", "Marsh Wisp")
        d.type_text("encounter", "kind")
        d.type_text("creature", "type")
        d.number(1, "level")
        d.number(6, "health")
        for i, (key, health) in enumerate((("attack", 4), ("mastery", 1), ("special", 2))):
            d.add("Add action", "actions")
            d.type_text(key, "actions", i, "key")
            d.number(health, "actions", i, "health")
        d.shoot("hexplore-opponent")
        save_clean(d, "Marsh Wisp")
        assert not workshop.pack_info("hexplore", "our-hexplore-it").draft

        new = start_with_pack(d, HEXPLORE, "Our HEXplore It")
        self.tap("Start the game", within=new)
        assert self.app.root.current == "session", new.ids.notice.text
        session = self.app.session
        assert session.content.packs == ["our-hexplore-it"]
        mat = self.app.screen("session").view.ids.mat
        assert mat.ids.choice.text == "Fight Marsh Wisp"  # the only fight: already chosen
        play_label(self, "Start combat")
        play_label(self, "Fen Walker: Defend")
        play_label(self, "Marsh Wisp acts")
        assert session.request is not None and session.request.kind == "dice"
        answer_dice(self, 1)
        last = session.state.combat.last_action
        # action die 1 is the Attack line we entered: 4 Health
        assert (last.ability, last.health) == ("attack", 4), last


def answer_draws(case: AppTestCase) -> None:
    """Each card the rules ask the table to draw, tapped by its name in the Cards panel."""
    session, screen = case.app.session, case.app.screen("session")
    while session.request is not None and session.request.kind == "draw":
        first = session.request.options[0]
        panel = screen.panels["cards"]
        case.frames(3)
        name = next(b.text for b in panel.ids.options.children if b.card_id == first)
        case.tap(name, within=panel)


class TestOwnPackDirewild(AppTestCase):
    def test_a_pack_from_empty_battles_with_the_new_minions_attack(self) -> None:
        self.start_app()
        d = EditorDriver(self)
        new_pack(d, "Direwild")
        # the board is the board editor's (another screen): the demo's board is copied in
        demo_board = workshop.cards("direwild", "demo", "boards")[0]
        workshop.save_card("direwild", "our-direwild", "boards", demo_board)

        new_card(d, "Minions (", "New minion", "Bog Hound")
        d.number(1, "level")
        d.number(11, "attack")
        d.number(3, "hp")
        d.add("Add hit effect", "hit_effects")
        d.choose("poison", "hit_effects", 0, "kind")
        d.number(2, "hit_effects", 0, "amount")
        d.shoot("direwild-minion")
        save_clean(d, "Bog Hound")
        # a chapter 1 track for two clans needs a level 2 minion too: a copy, renamed
        d.tap(next(b for b in d.screen.ids.body.children if b.text.startswith("Minions (")))
        d.tap("Bog Hound")
        d.tap("Copy this card")
        d.type_text("Fen Troll", "name")
        d.number(2, "level")
        d.number(9, "attack")
        save_clean(d, "Fen Troll")

        new_card(d, "Karn (", "New karn", "Karn")
        d.number(14, "attack")
        d.number(10, "track_length")
        save_clean(d, "Karn")

        new_card(d, "Ai cards (", "New ai card", "The Hunt")
        d.add("Add action", "actions")
        d.choose("activate", "actions", 0, "do")
        d.shoot("direwild-ai-card")
        save_clean(d, "The Hunt")
        assert not workshop.pack_info("direwild", "our-direwild").draft

        new = start_with_pack(d, "Direwild", "Our Direwild")
        self.tap("Start the game", within=new)
        assert self.app.root.current == "session", new.ids.notice.text
        session = self.app.session
        play_label(self, "Start round")
        answer_draws(self)
        red = session.state.enemies["red"]
        assert red.minion == "direwild/minion/bog-hound"
        # The battle itself through the command the view sends, with the hero set beside
        # the minion by the table's correction (reaching it by moves is the rounds' test).
        session.do("correct", {"path": "phase", "value": "adventure"})
        session.do("correct", {"path": "heroes.stormbringer.position", "value": "C2"})
        creature = {"attack": 5, "move": 1, "flight": 2, "knockback": 2}
        session.do(
            "resolve_battle", {"hero": "stormbringer", "enemy": "red", "creature": creature}
        )
        while session.request is not None:
            session.answer(1)
        battle = session.state.last_battle
        assert battle.enemy_total == 11 + red.stamina  # the attack entered on the tablet
        assert battle.winner == "enemy"
        assert session.state.heroes["stormbringer"].stamina == -2  # its 2 poison
