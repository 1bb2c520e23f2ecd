"""The result card's headline for Kradia steps comes from the rules (issue 25): the boss's
damage by its name, its attack's sum, and the Battlefield card revealed by the Start
Player, not a card drawn into a hero's hand."""

from __future__ import annotations

from pathlib import Path

from companion.core.session import Session
from companion.games import get_game


def _session(tmp_path: Path) -> Session:
    session = Session.create(tmp_path / "k.session", get_game("kradia"), {})
    session.auto_steps = True
    session.do("start_round", {})
    return session


def test_the_battlefield_card_is_revealed_by_the_start_player(tmp_path: Path) -> None:
    session = _session(tmp_path)
    request = session.request
    assert request is not None and request.role == "battlefield"
    session.answer(request.options[0])
    step = session.last_step()
    assert step is not None
    start = session.state.start_player
    assert step["lines"][0].startswith(
        f"The Start Player, {start.title()}, flips the Battlefield card"
    )
    assert step["headlines"][0].kind == "draw"
    assert step["headlines"][0].subject == "Battlefield:"
    session.close()


def test_a_basic_attack_is_the_boss_taking_damage(tmp_path: Path) -> None:
    session = _session(tmp_path)
    assert session.request is not None
    session.answer(session.request.options[0])
    hero = session.state.turn
    attack = next(a for a in session.listed() if a.get("label") == "Basic Attack")
    session.do(attack["do"], attack["with"])
    step = session.last_step()
    assert step is not None
    first = step["headlines"][0]
    boss = session.state.boss
    assert (first.kind, first.number) == ("damage", boss.max_hp - boss.hp)
    assert first.subject == session.content.get("bosses", boss.id).title
    # short enough for one line at arm's length: the burst symbol says it is damage
    assert first.words == f"\u2212{boss.max_hp - boss.hp} HP"
    assert hero is not None
    session.close()


def test_the_boss_attack_says_its_dice(tmp_path: Path) -> None:
    session = _session(tmp_path)
    assert session.request is not None
    session.answer(session.request.options[0])
    for hero in list(session.state.order):
        attack = next(a for a in session.listed() if a.get("label") == "Basic Attack")
        session.do(attack["do"], attack["with"])
        if session.state.turn == hero:
            end = next(a for a in session.listed() if a["do"] == "end_turn")
            session.do(end["do"], end["with"])
    request = session.request
    assert request is not None and request.kind == "dice"
    session.answer([6, 5][: request.count])
    step = session.last_step()
    assert step is not None and step["title"].startswith("Boss attacks")
    kinds = {h.kind for h in step["headlines"]}
    rolled = [h for h in step["headlines"] if h.kind == "roll"]
    boss = session.content.get("bosses", session.state.boss.id).title
    assert kinds & {"damage", "roll"}
    if rolled:
        assert rolled[0].subject == boss and rolled[0].number == 11
    session.close()
