"""The HEXplore screen, headless under SDL offscreen: it renders, and touches send commands."""

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
        get_game("hexplore"),
        {
            "difficulty": "easy",
            "heroes": [
                {"id": "stormcaller", "hero": "stormcaller-sprite"},
                {
                    "id": "keeper",
                    "hero": "verdant-keeper-wood-elf",
                    "skills": {"navigate": 2, "explore": 5, "survival": 6},
                },
            ],
        },
    )
    yield s
    s.close()


@pytest.fixture
def view(session):
    from kivy.core.window import Window

    from companion.ui.games.hexplore import build_view

    w = build_view(session)
    Window.add_widget(w)
    settle()
    w.refresh()
    yield w
    Window.remove_widget(w)


def settle() -> None:
    from kivy.base import EventLoop

    EventLoop.ensure_window()
    for _ in range(3):
        EventLoop.idle()


def press(button) -> None:
    button.dispatch("on_press")
    button.dispatch("on_release")


def test_the_wheel_warns_before_the_cycle_takes_a_skill(view, session):
    session.correct("fate.cycle", 1)
    session.correct("fate.tracker", 4)
    view.refresh()
    assert "Fate Tracker 4 of 6" in view.ids.wheel.tracker_text
    assert view.ids.wheel.warnings == [
        "Verdant Keeper (Wood Elf): navigate will fail at Fate Cycle 2 (2 rises away)"
    ]
    press(view.ids.end_turn)
    press(view.ids.end_turn)
    assert session.state.fate.cycle == 2
    cells = view.ids.skills.cell_texts()
    assert "2 AUTO-FAIL" in cells
    assert view.ids.wheel.sentinels_text == "Sentinels: battle site 1"


def test_the_combat_mat_walks_through_a_round(view, session, tmp_path: Path):
    view.ids.mat.ids.choice.text = "mindwiped-villagers"
    press(view.ids.mat.ids.start)
    assert session.state.combat.opponent.soul_shield == 15
    press(view.ids.mat.button("stormcaller", "attack"))
    press(view.ids.mat.button("keeper", "defend"))
    assert session.state.combat.declarations["keeper"].action == "defend"
    press(view.ids.mat.ids.resolve)
    assert view.message == "not now: the heroes are still declaring (then opponent_action)"
    press(view.ids.mat.ids.act)
    assert view.request_text.startswith("Waiting: opponent: roll hex_d6")
    faces = [b.text for b in reversed(view.ids.answers.children)]
    assert faces == ["1", "2", "3", "4", "5", "hex"]
    press(list(reversed(view.ids.answers.children))[5])  # the hex: the Special
    assert session.request is None
    assert "Action die: 6 -> Special" in view.ids.mat.walkthrough
    press(view.ids.mat.ids.resolve)
    assert "stormcaller: 5 health less Defend 2 = 3" in view.ids.mat.resolution
    assert "Soul Shield takes 3: 15 -> 12" in view.ids.mat.resolution
    assert "Round 2 on Easy" in view.ids.mat.heading
    settle()
    from kivy.core.window import Window

    wanted = os.environ.get("HEXPLORE_SCREEN_PNG", str(tmp_path / "hexplore.png"))
    out = Path(Window.screenshot(name=wanted))
    assert out.stat().st_size > 10_000


def test_the_skills_board_rolls_a_hero_and_settles_the_phase(view, session):
    press(view.ids.skills.ids.settle)
    assert view.message == "waiting for skill rolls from stormcaller, keeper"
    press(view.ids.skills.roll_button("keeper"))
    assert view.request_text == "Waiting: keeper: roll skill_d10 (navigate (rank 2))"
    for face in ("hex", "3", "10"):
        button = next(b for b in view.ids.answers.children if b.text == face)
        press(button)
    assert session.state.last_skill_rolls["keeper"] == {
        "navigate": "critical_success",
        "explore": "success",
        "survival": "critical_failure",
    }
    assert "2 [CRIT]" in view.ids.skills.cell_texts()
