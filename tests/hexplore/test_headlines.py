"""The result card's headline for HEXplore steps comes from the rules (issue 25): the
opponent vanquished by its name, the damage each side took, a target roll said as one,
and the Navigate successes read the right way round."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.core.session import Session
from companion.games import get_game

OPPONENT = "Giant Fox!"


def _do(session: Session, do: str, pick: Callable[[Any], bool] = lambda a: True) -> None:
    action = next(a for a in session.listed() if a["do"] == do and pick(a))
    session.do(action["do"], action["with"])


def _labelled(label: str) -> Callable[[Any], bool]:
    return lambda action: bool(action.get("label") == label)


def _roll(session: Session, *values: int) -> None:
    for value in values:
        assert session.request is not None and session.request.kind == "dice"
        session.answer([value] * session.request.count)


def _to_the_fight(tmp_path: Path) -> Session:
    session = Session.create(tmp_path / "h.session", get_game("hexplore"), {})
    session.auto_steps = True
    for _hero in list(session.state.heroes):
        _do(session, "roll_skills")
        _roll(session, 2, 3, 4)
    _do(session, "end_skill_phase")
    return session


def test_navigating_reads_successes_then_what_was_needed(tmp_path: Path) -> None:
    session = _to_the_fight(tmp_path)
    step = session.last_step()
    assert step is not None
    assert "The group Navigates: 2 Navigate successes, 1 needed" in step["lines"]
    first = step["headlines"][0]
    assert (first.kind, first.subject, first.number) == ("move", "The group", 2)
    session.close()


def test_a_combat_round_leads_with_the_opponent_by_name(tmp_path: Path) -> None:
    session = _to_the_fight(tmp_path)
    _do(session, "roll_circumstance")
    _roll(session, 3)
    _do(session, "settle_circumstance")
    _do(session, "start_combat", lambda a: OPPONENT in a.get("label", ""))
    for hid in list(session.state.combat.heroes):
        _do(session, "declare", _labelled(f"{session.state.heroes[hid].name}: Attack (health)"))
    _do(session, "opponent_action")
    _roll(session, 2)
    targets = iter((3, 8, 5, 10))
    while session.request is not None:
        _roll(session, next(targets))
    step = session.last_step()
    assert step is not None
    # a target roll says it is one, and the opponent's action names who it strikes
    assert any(": target roll " in line for line in step["lines"]), step["lines"]
    acted = step["headlines"][0]
    assert acted.subject == OPPONENT and acted.kind == "damage", acted
    struck = session.state.combat.last_action.targets
    assert all(session.state.heroes[t].name in acted.words for t in struck)
    _do(session, "resolve_round")
    step = session.last_step()
    assert step is not None
    news = step["headlines"]
    assert (news[0].kind, news[0].subject, news[0].words) == ("win", OPPONENT, "is vanquished")
    damage = [h for h in news if h.kind == "damage"]
    assert damage and damage[0].subject == OPPONENT, news
    assert all("opponent" not in line.split(":")[0].lower() for line in step["lines"]), step
    session.close()
