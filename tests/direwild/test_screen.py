"""The Direwild screen, headless under SDL offscreen (the shared UI harness): it renders from
the rules' listed actions, and real touches send commands."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.ui.kivyharness import ViewTestCase, walk

pytestmark = pytest.mark.ui

VIEW_CODE = Path(__file__).resolve().parents[2] / "companion" / "ui" / "games" / "direwild"


class DirewildViewTest(ViewTestCase):
    game = "direwild"

    options = {
        "players": ["stormbringer", "featherheart"],
        "minions": {"red": "inkling", "blue": "coatl"},
        "heroes_at": {"stormbringer": "C5"},
    }

    def tap_square(self, square: str) -> None:
        board = self.view.ids.board
        self.scroll_into_view(board)
        self.touch_at(*board.to_window(*board.centre(square)))
        self.frames(2)

    def buttons(self) -> list[str]:
        return [b.text for b in reversed(self.view.ids.actions.children)]

    def stepper(self, key: str):
        return next(s for s in self.view.ids.facts.children if s.key == key)

    def test_only_the_listed_step_shows_and_the_next_one_is_the_big_button(self) -> None:
        view, session = self.view, self.session
        assert view.primary_text == "Start round"
        assert self.buttons() == []  # nothing else is legal before the round starts
        primary = view.ids.primary
        assert all(primary.height > b.height for b in walk(view.ids.heroes) if b is not primary)
        self.shoot("direwild-view-start")
        self.tap(primary)
        assert session.state.round == 1 and session.state.phase == "game"
        assert view.primary_text == "Reveal the Enemy AI card"
        session.do("reveal_ai_card", {"card": "standard-3"})
        self.refresh()
        walkthrough = view.ids.walkthrough
        assert walkthrough.total == len(session.state.walkthrough) > 2
        # the result card lists the card's actions: stepping through them is the table's pick
        assert not walkthrough.shown and view.ids.board.highlight == []
        self.tap(view.ids.show_walk)
        assert walkthrough.shown and not view.walk_hidden
        assert walkthrough.text == "Enemy AI card: Standard 3"  # the printed name, not the id
        self.tap(view.ids.walkthrough.ids.next)
        self.tap(view.ids.walkthrough.ids.next)
        assert view.ids.walkthrough.text.startswith("Red minion: 3 squares along its trail")
        assert view.ids.board.highlight == ["B2", "C2", "D2", "D3"]
        # the turn order is picked by tapping the heroes; then the next step ends a turn
        assert view.primary_text == "Turn order: Stormbringer, Featherheart"
        self.tap(self.find("1. Featherheart", within=view.ids.order))
        self.tap(self.find("2. Stormbringer", within=view.ids.order))
        assert session.state.turn_order == ["featherheart", "stormbringer"]
        assert view.primary_text == "End Featherheart's turn"
        # heroes take their Adventure Phase in turn order: Stormbringer's turn has not come
        assert "End Stormbringer's turn" not in self.buttons()
        self.shoot("direwild-view-walkthrough")
        assert view.ids.board.width > 300 and view.ids.board.height > 300
        assert view.ids.status.wounds == "Fatal Wounds left: 6"

    def test_a_tap_the_rules_refuse_is_shown_in_their_words_and_changes_nothing(self) -> None:
        view, session = self.view, self.session
        view.select("featherheart")
        self.tap_square("F11")
        assert "start the round first" in view.message
        assert session.state.heroes["featherheart"].position == "staging"
        session.correct("phase", "adventure")  # the heroes' turns
        self.refresh()
        self.tap_square("F11")
        assert "end Stormbringer's turn first" in view.message  # turn order: not yet hers
        assert session.state.heroes["featherheart"].position == "staging"
        session.correct("turn_order", ["featherheart", "stormbringer"])
        self.refresh()
        self.stepper("move").step(1)
        self.tap_square("F10")
        assert session.state.heroes["featherheart"].position == "F10"
        assert view.message == ""

    def test_battle_takes_the_creature_from_the_steppers_and_waits_for_the_roll(self) -> None:
        view, session = self.view, self.session
        session.correct("enemies.red.position", "C4")
        session.correct("phase", "adventure")
        self.refresh()
        view.select("stormbringer")
        attack = self.stepper("attack")
        for _ in range(7):
            self.tap(next(w for w in walk(attack) if getattr(w, "text", "") == "+"))
        assert attack.shown == "7"
        self.shoot("direwild-view-steppers")
        self.tap_square("C4")
        assert session.request is not None and session.request.profile == "d3"
        assert session.request.role == "battle"
        assert view.request_text == (
            "Waiting: Stormbringer's battle roll against the Red minion (Inkling)"
            " (answer on the Dice panel)"
        )
        assert view.primary_text == "" and self.buttons() == []  # the answer comes first
        session.answer([3])
        self.refresh()
        assert session.state.last_battle.hero_total == 10
        assert view.ids.battle.headline == "Stormbringer 10 vs Red minion 7: Stormbringer wins"
        assert "Red minion takes 1 damage (Stormbringer's gem)" in view.ids.battle.effects

    def test_a_disengaging_move_waits_for_a_second_tap(self) -> None:
        view, session = self.view, self.session
        session.correct("enemies.red.position", "C4")
        session.correct("enemies.red.active", True)
        session.correct("phase", "adventure")
        self.refresh()
        view.select("stormbringer")
        self.tap_square("D5")
        assert view.message == "Stormbringer disengages and moves to D5: tap D5 again to do it"
        assert session.state.heroes["stormbringer"].position == "C5"
        self.tap_square("D5")
        assert session.state.heroes["stormbringer"].position == "D5"
        assert session.state.fatal_wounds == 5


def test_the_view_keeps_no_text_fields_keypad_or_dice_of_its_own() -> None:
    code = "".join(p.read_text() for p in VIEW_CODE.glob("*.py"))
    code += "".join(p.read_text() for p in VIEW_CODE.glob("*.kv"))
    for word in ("TextInput", "GameInput", "DIE_PROFILES", "random", "answer("):
        assert word not in code, word
