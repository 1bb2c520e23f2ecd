"""Each game played through its rules to a step whose result card says the most: the
Direwild Enemy AI card (every minion's move), Kradia's boss attack (a damage line per
hero, then the round's end) and a HEXplore combat round resolved (a win and its damage).

Why a module of its own: issue 25 found these cards cut at the Largest text and in
portrait (the AI card's moves cut mid-line, the boss's attack showing two and a half
lines), while the ergonomics checks only ever saw each game's first step.  The steps are
taken through the session's own commands, as the app takes them (auto steps on), with
the table's answers fixed, so each card holds the same words every run; the UI then opens
the saved session as a group does.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from companion.games import get_game

DIREWILD_CLANS = ["stormbringer", "featherheart", "shadowleaf", "groundbreaker"]
AI_CARD = "direwild/ai/standard-4"  # every minion moves: a line each, three headlines
BOSS_DICE = (6, 5, 4, 3)
HEX_DICE = {"skills": (2, 3, 4), "circumstance": (3,), "declare": (2,), "action": (2, 3, 8, 5)}


def _act(session: Any, do: str, pick: Callable[[dict[str, Any]], bool] = lambda _a: True) -> None:
    action = next(a for a in session.listed() if a["do"] == do and pick(a))
    session.do(action["do"], action["with"])


def _roll(session: Any, dice: tuple[int, ...]) -> None:
    n = 0
    while session.request is not None and session.request.kind == "dice":
        session.answer([dice[n % len(dice)]] * session.request.count)
        n += 1


def direwild_ai_card(library: Any) -> str:
    """Four clans, the minions drawn, the Enemy AI card revealed: its every move."""
    session = library.new(get_game("direwild"), {"players": DIREWILD_CLANS})
    session.auto_steps = True
    session.take_auto_steps()
    while session.request is not None and session.request.kind == "draw":
        options = session.request.options
        session.answer(AI_CARD if AI_CARD in options else options[0])
    assert session.last_step()["title"].startswith("Reveal the Enemy AI card")
    session.close()
    return str(session.id)


def kradia_boss_attack(library: Any) -> str:
    """Four heroes' Basic Attacks, then the boss's attack and the round's end."""
    session = library.new(get_game("kradia"), {"players": 4})
    session.auto_steps = True
    session.take_auto_steps()
    for _ in range(40):
        if session.request is not None and session.request.kind == "draw":
            session.answer(session.request.options[0])
            continue
        if session.request is not None:  # the boss's attack
            session.answer(list(BOSS_DICE[: session.request.count]))
            break
        labels = ("Basic Attack", "End ")
        action = next(a for a in session.listed() if (a.get("label") or "").startswith(labels))
        session.do(action["do"], action["with"])
    assert session.last_step()["title"].startswith("Boss attacks")
    session.close()
    return str(session.id)


def _attacks_health(hero: str, action: dict[str, Any]) -> bool:
    return bool(
        action["with"].get("hero") == hero
        and action["with"].get("action") == "attack"
        and action["with"].get("vital") == "health"
    )


def hexplore_combat(library: Any) -> str:
    """The demo's heroes roll their skills, fight the Giant Fox!, and the round resolves."""
    session = library.new(get_game("hexplore"), {})
    session.auto_steps = True
    session.take_auto_steps()
    for _hero in list(session.state.heroes):
        _act(session, "roll_skills")
        _roll(session, HEX_DICE["skills"])
    _act(session, "end_skill_phase")
    _act(session, "roll_circumstance")
    _roll(session, HEX_DICE["circumstance"])
    _act(session, "settle_circumstance")
    _act(session, "start_combat", lambda a: a.get("label") == "Fight Giant Fox!")
    for hero in list(session.state.combat.heroes):
        _act(session, "declare", partial(_attacks_health, hero))
        _roll(session, HEX_DICE["declare"])
    _act(session, "opponent_action")
    _roll(session, HEX_DICE["action"])
    _act(session, "resolve_round")
    assert session.last_step()["title"] == "Resolve the round"
    session.close()
    return str(session.id)


STEPS: dict[str, Callable[[Any], str]] = {
    "direwild AI card": direwild_ai_card,
    "kradia boss attack": kradia_boss_attack,
    "hexplore combat": hexplore_combat,
}
