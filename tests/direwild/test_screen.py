"""The Direwild screen, headless under SDL offscreen (the shared UI harness): it renders,
and real touches send commands."""

from __future__ import annotations

import pytest

from tests.ui.kivyharness import ViewTestCase

pytestmark = pytest.mark.ui


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

    def test_it_renders_to_png_with_paths_after_an_ai_card(self) -> None:
        view, session = self.view, self.session
        self.tap(view.ids.start_round)
        assert session.state.round == 1 and session.state.phase == "game"
        session.do("reveal_ai_card", {"card": "standard-3"})
        self.refresh()
        assert view.ids.walkthrough.total == len(session.state.walkthrough) > 2
        assert view.ids.walkthrough.text == "Enemy AI card: standard-3"
        self.tap(view.ids.walkthrough.ids.next)
        self.tap(view.ids.walkthrough.ids.next)
        assert view.ids.walkthrough.text.startswith("Red minion: 3 squares along its trail")
        assert view.ids.board.highlight == ["B2", "C2", "D2", "D3"]
        self.shoot("direwild-view-walkthrough")
        assert view.ids.board.width > 300 and view.ids.board.height > 300
        assert view.ids.status.wounds == "Fatal Wounds left: 6"

    def test_tapping_a_square_moves_the_selected_hero(self) -> None:
        view, session = self.view, self.session
        self.tap(view.ids.reveal)
        assert "start the round first" in view.message  # refused in words, nothing changed
        assert session.state.round == 0
        view.select("featherheart")
        self.tap_square("F11")
        assert session.state.heroes["featherheart"].position == "F11"
        assert view.message == ""

    def test_battle_asks_for_the_roll_and_the_dice_buttons_answer_it(self) -> None:
        view, session = self.view, self.session
        session.correct("enemies.red.position", "C4")
        self.refresh()
        view.ids.creature_attack.text = "7"
        view.select("stormbringer")
        self.tap_square("C4")
        assert session.request is not None and session.request.profile == "d3"
        assert view.request_text.startswith("Stormbringer: roll the d3")
        buttons = list(reversed(view.ids.answers.children))
        assert [b.text for b in buttons] == ["1", "2", "3"]
        self.tap(buttons[2])
        assert session.request is None
        assert session.state.last_battle.hero_total == 10
        assert view.ids.battle.headline == "Stormbringer 10 vs Red 7: Stormbringer wins"
        assert "Red minion takes 1 damage (stormbringer gem)" in view.ids.battle.effects

    def test_a_typed_ai_card_answers_the_draw_and_end_turn_needs_a_hero(self) -> None:
        view, session = self.view, self.session
        self.tap(view.ids.start_round)
        self.tap(view.ids.reveal)
        assert session.request is not None and session.request.kind == "draw"
        typed = next(w for w in view.ids.answers.children if hasattr(w, "hint_text"))
        typed.text = "moon-card"
        typed.dispatch("on_text_validate")
        assert "cannot be drawn" in view.message and session.request is not None
        typed = next(w for w in view.ids.answers.children if hasattr(w, "hint_text"))
        typed.text = "noise-3"
        typed.dispatch("on_text_validate")
        assert session.request is None and session.state.ai_card == "direwild/ai/noise-3"
        self.tap(view.ids.end_turn)
        assert view.message == "Pick the hero whose turn ends"
        view.select("featherheart")
        self.tap(view.ids.end_turn)
        assert session.state.heroes["featherheart"].done
