"""Kradia through the real session: the log replays to the same table, undo steps back
through a boss attack, and the CLI prints the state other tools read."""

from __future__ import annotations

import json
import subprocess
import sys

import msgspec

from companion.core.session import Session
from tests.kradia.helpers import new_session


def play_round(session: Session) -> None:
    session.do("start_round")
    session.answer("kradia/battlefield-card/star")
    for hero in ("oakla", "warden", "archer", "mystic"):
        session.do("basic_attack", {"hero": hero})
    session.do("boss_attack")
    session.answer([6, 5])


def test_reopened_session_is_the_same_table(tmp_path):
    session = new_session(tmp_path)
    play_round(session)
    before = msgspec.to_builtins(session.state)
    path = session.path
    session.close()
    with Session.open(path) as again:
        assert msgspec.to_builtins(again.state) == before
        assert again.state.boss.hp == 7  # 12, Star I -1, four Basic Attacks
        assert again.state.last_attack.sum == 11
        assert [h.hp for h in again.state.heroes.values()] == [9, 13, 8, 7]


def test_undo_steps_back_through_the_boss_attack(tmp_path):
    session = new_session(tmp_path)
    play_round(session)
    session.undo()  # the answered dice
    assert session.request is not None and session.request.count == 2
    assert session.state.heroes["oakla"].hp == 10
    session.undo()  # the boss_attack command itself
    assert session.request is None and session.state.phase == "boss"
    session.redo()
    session.redo()
    assert session.state.heroes["oakla"].hp == 9 and session.state.phase == "end"


def test_cli_new_do_and_state_json(tmp_path):
    setup = tmp_path / "setup.yaml"
    setup.write_text("mode: story\nheroes: [oakla, warden, archer, mystic]\nsequence: 2\n")

    def cli(*args: str) -> str:
        done = subprocess.run(
            [sys.executable, "-m", "companion", *args], capture_output=True, text=True, timeout=120
        )
        assert done.returncode == 0, done.stderr
        return done.stdout

    sid = cli("new", "kradia", "--setup", str(setup)).strip()
    cli("do", sid, "start_round")
    cli("answer", sid, "kradia/battlefield-card/moon")
    cli("do", sid, "basic_attack", "--with", '{"hero": "oakla"}')
    state = json.loads(cli("state", "--json", sid))
    assert state["boss"]["id"] == "kradia/boss/marsh-toad"
    assert state["boss"]["hp"] == 10 and state["heroes"]["oakla"]["blue"] == 1
    assert state["turn"] == "warden" and state["requests"] == []


def test_the_boss_attack_card_reads_like_the_table(tmp_path):
    """The result card after the boss's roll: the dice, the chart row and its sums, each
    hero's damage with the HP left, and the rage track, with the boss by its name."""
    session = new_session(tmp_path)
    play_round(session)
    step = session.last_step()
    assert step is not None
    assert step["title"] == "Boss attacks (2 dice)"  # what the roll was for, then the roll
    assert step["lines"] == [
        "Bramble Boar: rolled 6, 5 on the d6",
        "Bramble Boar rolls 6 + 5 = 11: chart row 4, sums 11-13",
        "Oakla takes 1 damage (Bramble Boar's attack): 9 HP left",
        "Warden takes 1 damage (Bramble Boar's attack): 13 HP left",
        "Archer takes 1 damage (Bramble Boar's attack): 8 HP left",
        "Mystic takes 1 damage (Bramble Boar's attack): 7 HP left",
        "Rage 1 of 4",
        "Round over: pass the First Player token",
    ]


def test_a_heros_action_card_says_what_it_did(tmp_path):
    session = new_session(tmp_path)
    session.do("start_round")
    session.answer("kradia/battlefield-card/star")
    session.do("basic_attack", {"hero": "oakla"})
    step = session.last_step()
    assert step is not None and step["title"] == "Basic Attack"  # the listed action's label
    assert step["lines"][:2] == [
        "Oakla: Basic Attack for 1",
        "Bramble Boar takes 1 damage (Oakla's Basic Attack): 10 HP left",
    ]
