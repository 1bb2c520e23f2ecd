"""The result card's headline for Direwild steps comes from the rules (issue 25): the
battle's winner and loser by name and score above its ten lines, the minions' moves after
the Enemy AI card, and a drawn card credited as the rulebook has it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from companion.core.session import Session
from companion.games import get_game

AI_CARD = "direwild/ai/standard-4"  # moves the red minion to D4, the blue one to I4


def _answer(session: Session, roll: int = 3) -> None:
    while session.request is not None:
        request = session.request
        if request.kind == "draw":
            session.answer(AI_CARD if request.role == "ai_card" else request.options[0])
        else:
            session.answer([roll] * request.count)


def _to_turns(tmp_path: Path) -> Session:
    session = Session.create(tmp_path / "d.session", get_game("direwild"), {})
    session.auto_steps = True
    session.do("start_round", {})
    _answer(session)
    return session


def _battle(session: Session, attack: int) -> dict[str, Any]:
    session.do("move_hero", {"hero": "stormbringer", "to": "D8", "move": 0})
    creature = {"attack": attack, "knockback": 0, "poison": 0, "flight": 3}
    session.do(
        "resolve_battle",
        {
            "hero": "stormbringer",
            "enemy": "red",
            "creature": creature,
            "critical_colour": "stormbringer",
        },
    )
    _answer(session)
    step = session.last_step()
    assert step is not None
    return step


def test_the_ai_card_leads_with_what_moved_where(tmp_path: Path) -> None:
    session = _to_turns(tmp_path)
    step = session.last_step()
    assert step is not None
    news = [(h.kind, h.subject, h.words) for h in step["headlines"]]
    assert news[:2] == [
        ("move", "Red minion", "moves to D4"),
        ("move", "Blue minion", "moves to I4"),
    ]
    assert ("draw", "Enemy AI card:", "Standard 4") in news
    # the first player flips the enemies' card: not a card a hero drew
    assert (
        step["lines"][0]
        == "The first player, Stormbringer, flips Standard 4 from the Enemy AI deck"
    )
    session.close()


def test_a_lost_battle_is_the_headline_not_line_five(tmp_path: Path) -> None:
    step = _battle(_to_turns(tmp_path), attack=0)
    first = step["headlines"][0]
    assert (first.kind, first.subject) == ("loss", "Stormbringer")
    assert first.words == "loses to the Red minion, 0 to 6"
    assert first.text == "Stormbringer loses to the Red minion, 0 to 6"
    assert any(h.kind == "damage" and h.words == "takes a Fatal Wound" for h in step["headlines"])


def test_a_won_battle_with_the_creatures_attack(tmp_path: Path) -> None:
    step = _battle(_to_turns(tmp_path), attack=9)
    first = step["headlines"][0]
    assert (first.kind, first.subject) == ("win", "Stormbringer")
    assert first.words.startswith("beats the Red minion, 9 to"), first.words
    assert first.number == 9


def test_minions_drawn_are_the_tables(tmp_path: Path) -> None:
    session = Session.create(tmp_path / "d.session", get_game("direwild"), {})
    session.auto_steps = True
    session.do("start_round", {})
    assert session.request is not None and session.request.role == "minion"
    session.answer(session.request.options[0])
    step = session.last_step()
    assert step is not None
    assert step["lines"][0].startswith("The table draws the minion "), step["lines"]
    session.close()


def test_the_log_credits_the_enemy_ai_card_as_the_result_card_does(tmp_path: Path) -> None:

    session = _to_turns(tmp_path)
    lines = [line.text for line in session.narrator.log_lines()]
    flipped = [line for line in lines if "Enemy AI deck" in line]
    assert flipped and flipped[0].startswith(
        "The first player, Stormbringer, flips Standard 4 from the Enemy AI deck"
    ), flipped
    assert not any(line.startswith("Card: ") for line in lines), lines
    session.close()
