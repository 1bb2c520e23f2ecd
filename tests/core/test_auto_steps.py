"""Steps the session takes by itself (`Session.take_auto_steps`, issue 12).

The rules mark a step `auto` when it has no choice in it; the app's session then takes it
after the table's own step, as its own transaction.  These tests use the tiny game with two
such steps added: a new round once the score reaches 10, then a roll in that round.
"""

from __future__ import annotations

from typing import Any

import pytest

from companion.core.registry import get_game
from companion.core.selfplay import selfplay
from companion.core.session import Session
from tests.fixtures.tinygame import TinyGame


class AutoTiny(TinyGame):
    """Tiny, with a round that starts by itself at 10 points and a roll that follows it."""

    def legal_actions(self, state: Any, content: Any) -> list[Any]:
        listed = super().legal_actions(state, content)
        if state.score >= 10 and state.round == 0:
            return [{"do": "next_round", "with": {}, "label": "Round 1", "auto": True}, *listed]
        if state.round == 1 and not state.last_roll:
            return [{"do": "roll", "with": {"count": 1}, "label": "Roll", "auto": True}, *listed]
        return listed


def session(tmp_path, auto: bool = True) -> Session:
    s = Session.create(tmp_path / "t.session", AutoTiny(), {})
    s.auto_steps = auto
    return s


def heads(s: Session) -> list[tuple[str, bool]]:
    """Each live transaction's command, and whether the session took it by itself."""
    out = []
    for rows in s.history()[1:]:
        head = rows[0]
        name = head.data.get("name") or head.type
        out.append((name, bool(head.data.get("auto"))))
    return out


def test_without_auto_steps_every_step_is_the_tables(tmp_path):
    s = session(tmp_path, auto=False)
    s.do("add", {"n": 10})
    assert s.state.round == 0 and s.request is None
    assert heads(s) == [("add", False)]


def test_steps_with_no_choice_follow_the_tables_step_until_chance_is_asked(tmp_path):
    s = session(tmp_path)
    result = s.do("add", {"n": 10})
    assert heads(s) == [("add", False), ("next_round", True), ("roll", True)]
    assert s.state.round == 1
    assert s.request is not None and s.request.profile == "d6"
    assert result.request == s.request  # the caller hears what is asked now
    step = s.last_step()
    assert step is not None
    assert step["title"] == "Add"  # the table's own step, with what followed it
    assert "Round 1" in step["lines"] and "Roll" in step["lines"]
    assert step["then"] == ["Round 1", "Roll"]  # the steps taken by themselves, by their labels
    assert step["waiting"] == s.request.describe()
    s.answer([3])
    assert s.state.score == 13 and s.request is None
    assert heads(s)[-1] == ("RequestAnswered", False)  # nothing more is auto


def test_one_undo_takes_back_every_step_taken_by_itself_then_the_tables(tmp_path):
    s = session(tmp_path)
    s.do("add", {"n": 10})
    s.undo()
    assert (s.state.score, s.state.round, s.request) == (10, 0, None)
    assert heads(s) == [("add", False)]
    assert s.last_step()["title"] == "Add"
    s.undo()
    assert s.state.score == 0


def test_redo_brings_the_steps_taken_by_themselves_back_with_the_tables(tmp_path):
    s = session(tmp_path)
    s.do("add", {"n": 10})
    s.undo()
    s.undo()
    s.redo()
    assert heads(s) == [("add", False), ("next_round", True), ("roll", True)]
    assert s.request is not None and s.state.round == 1


def test_steps_taken_by_themselves_are_in_the_log_and_come_back_on_opening(tmp_path):
    s = session(tmp_path)
    s.do("add", {"n": 10})
    s.answer([6])
    before = s.to_json()
    s.close()
    again = Session.open(tmp_path / "t.session")  # opened as the plain tiny game
    assert again.to_json() == before
    assert again.chain.alive == s.chain.alive


@pytest.mark.parametrize("game", ["kradia", "direwild"])
@pytest.mark.parametrize("seed", [1, 2])
def test_random_play_with_steps_taken_by_themselves_is_never_refused(game, seed, tmp_path):
    """Self-play as the app plays (auto steps on): every step the session takes by itself
    is one the rules accept, and the game still ends."""
    report = selfplay(get_game(game), seed, folder=tmp_path, auto=True)
    assert report.refusals == 0, report.refused
    assert report.ended and not report.stuck, report.to_json()


def test_undoing_steps_taken_by_themselves_gives_back_the_state_before_them(tmp_path):
    """Kradia, played alike by the app (auto steps on) and by the CLI (off): after the
    last hero, the app has asked for the boss's dice by itself; one Undo gives exactly the
    CLI's state, with "Boss attacks" as the step to tap."""
    app = Session.create(tmp_path / "app.session", get_game("kradia"), {})
    cli = Session.create(tmp_path / "cli.session", get_game("kradia"), {})
    app.auto_steps = True
    app.take_auto_steps()
    cli.do("start_round")
    card = cli.request.options[0]
    for s in (app, cli):
        s.answer(card)
    while cli.state.phase == "heroes":
        hero = cli.state.turn
        listed = {a["do"]: a for a in cli.actions()["actions"]}
        for s in (app, cli):
            s.do("basic_attack", dict(listed["basic_attack"]["with"]))
            if s.state.phase == "heroes" and s.state.turn == hero:
                s.do("end_turn", {"hero": hero})
    assert cli.state.phase == "boss" and cli.request is None
    assert app.request is not None and app.request.role == "boss_attack"
    app.undo()
    assert app.to_json() == cli.to_json()
    primary = next(a for a in app.actions()["actions"] if a.get("primary"))
    assert primary["do"] == "boss_attack" and primary.get("auto")


def test_the_legal_actions_are_listed_once_per_change_and_anew_after_it(tmp_path):
    s = session(tmp_path, auto=False)
    before = s.listed()
    assert s.listed() is before  # the screen, the phone page and the session share it
    assert s.actions()["actions"] is before
    s.do("add", {"n": 10})
    after = s.listed()
    assert after is not before and after[0]["do"] == "next_round"  # the state now
    s.undo()
    assert [a["do"] for a in s.listed()] == [a["do"] for a in before]
