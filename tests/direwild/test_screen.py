"""The Direwild screen, headless under SDL offscreen: it renders, and touches send commands."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from companion.core.session import Session
from companion.games import get_game

pytest.importorskip("kivy")


@pytest.fixture
def session(tmp_path):
    s = Session.create(
        tmp_path / "screen.session",
        get_game("direwild"),
        {
            "players": ["stormbringer", "featherheart"],
            "minions": {"red": "inkling", "blue": "coatl"},
            "heroes_at": {"stormbringer": "C5"},
        },
    )
    yield s
    s.close()


@pytest.fixture
def view(session):
    from kivy.core.window import Window

    from companion.ui.games.direwild import build_view

    w = build_view(session)
    Window.add_widget(w)
    settle()
    w.refresh()
    yield w
    Window.remove_widget(w)


def settle() -> None:
    """Let layout and drawing happen, as one pass of the app's event loop would."""
    from kivy.base import EventLoop

    EventLoop.ensure_window()
    for _ in range(3):
        EventLoop.idle()


def press(button) -> None:
    button.dispatch("on_press")
    button.dispatch("on_release")


def tap(widget, x: float, y: float) -> None:
    from kivy.tests.common import UnitTestTouch

    touch = UnitTestTouch(x, y)
    touch.touch_down()
    touch.touch_up()


def test_it_renders_to_png_with_paths_after_an_ai_card(view, session, tmp_path: Path):
    press(view.ids.start_round)
    assert session.state.round == 1 and session.state.phase == "game"
    session.do("reveal_ai_card", {"card": "standard-3"})
    view.refresh()
    assert view.ids.walkthrough.total == len(session.state.walkthrough) > 2
    assert view.ids.walkthrough.text == "Enemy AI card: standard-3"
    press(view.ids.walkthrough.ids.next)
    press(view.ids.walkthrough.ids.next)
    assert view.ids.walkthrough.text.startswith("Red minion: 3 squares along its trail")
    assert view.ids.board.highlight == ["B2", "C2", "D2", "D3"]
    settle()
    from kivy.core.window import Window

    wanted = Path(os.environ.get("DIREWILD_SCREEN_PNG", tmp_path / "board.png"))
    out = Path(Window.screenshot(name=str(wanted)))  # Kivy numbers it: board0001.png
    assert out.stat().st_size > 10_000
    assert view.ids.board.width > 300 and view.ids.board.height > 300
    assert view.ids.status.wounds == "Fatal Wounds left: 6"


def test_tapping_a_square_moves_the_selected_hero(view, session):
    press(view.ids.reveal)
    assert "start the round first" in view.message  # refused in words, nothing changed
    assert session.state.round == 0
    view.select("featherheart")
    board = view.ids.board
    x, y = board.centre("F11")
    tap(board, x, y)
    assert session.state.heroes["featherheart"].position == "F11"
    assert view.message == ""


def test_battle_asks_for_the_roll_and_the_dice_buttons_answer_it(view, session):
    session.correct("enemies.red.position", "C4")
    view.refresh()
    view.ids.creature_attack.text = "7"
    view.select("stormbringer")
    board = view.ids.board
    tap(board, *board.centre("C4"))
    assert session.request is not None and session.request.profile == "d3"
    assert view.request_text.startswith("stormbringer: roll d3")
    buttons = list(reversed(view.ids.answers.children))
    assert [b.text for b in buttons] == ["1", "2", "3"]
    press(buttons[2])
    assert session.request is None
    assert session.state.last_battle.hero_total == 10
    assert view.ids.battle.headline == "Stormbringer 10 vs Red 7: Stormbringer wins"
    assert "Red minion takes 1 damage (stormbringer gem)" in view.ids.battle.effects


def test_a_typed_ai_card_answers_the_draw_and_end_turn_needs_a_hero(view, session):
    press(view.ids.start_round)
    press(view.ids.reveal)
    assert session.request is not None and session.request.kind == "draw"
    typed = next(w for w in view.ids.answers.children if hasattr(w, "hint_text"))
    typed.text = "moon-card"
    typed.dispatch("on_text_validate")
    assert "cannot be drawn" in view.message and session.request is not None
    typed = next(w for w in view.ids.answers.children if hasattr(w, "hint_text"))
    typed.text = "noise-3"
    typed.dispatch("on_text_validate")
    assert session.request is None and session.state.ai_card == "direwild/ai/noise-3"
    press(view.ids.end_turn)
    assert view.message == "Pick the hero whose turn ends"
    view.select("featherheart")
    press(view.ids.end_turn)
    assert session.state.heroes["featherheart"].done
