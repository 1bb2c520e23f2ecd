"""The game contract at the core: legal actions, typed versioned events, snapshots that
cannot disagree with the log, and self-play, tried on the tiny test game through the real
session and the real `companion` command."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.content.pack import Content
from companion.core.rules import Chance, ChanceNeeded, Command, RuleError
from companion.core.selfplay import fill_inputs, play, selfplay
from companion.core.session import Session
from companion.core.store import SessionDamaged
from companion.core.tables import EventData, Events, EventTypeError
from companion.games import get_game
from tests.core.helpers import tiny_session
from tests.fixtures.tinygame import TinyGame


def companion(*args: str, env: dict[str, str] | None = None, stdin: str = ""):
    return subprocess.run(
        [sys.executable, "-m", "companion", *args],
        capture_output=True,
        text=True,
        env=env or os.environ.copy(),
        input=stdin,
        timeout=120,
    )


# -- legal actions -----------------------------------------------------------------------


def test_actions_list_complete_commands_and_the_waiting_request(tmp_path):
    s = tiny_session(tmp_path)
    now = s.actions()
    assert now["waiting"] is None and now["outcome"] is None
    assert {"do": "roll", "with": {"count": 2}, "label": "Roll 2 dice"} in now["actions"]
    s.do("roll", {"count": 2})
    now = s.actions()
    assert now["waiting"]["faces"] == [1, 2, 3, 4, 5, 6] and now["waiting"]["count"] == 2
    assert [a["do"] for a in now["actions"]] == ["answer"]
    assert now["actions"][0]["inputs"]["values"] == {"faces": [1, 2, 3, 4, 5, 6], "count": 2}


def test_nothing_is_legal_once_the_game_is_won(tmp_path):
    s = tiny_session(tmp_path, start=25)
    s.do("next_round")
    assert s.actions() == {"actions": [], "waiting": None, "outcome": "won"}
    with pytest.raises(RuleError, match="the game is over"):
        s.do("add", {"n": 1})


def test_the_core_refuses_commands_after_an_outcome_but_the_one_the_game_names():
    """The game-over refusal is the core's, once for every game: the tiny game checks no
    outcome itself, and a game naming a command for an outcome still gets that one."""

    class GoesOn(TinyGame):
        ends = "the round"
        after_outcome = {"won": ("next_round", "start the next round")}

    game = GoesOn()
    state = game.initial_state({}, Content("tiny"))
    state.outcome = "won"
    with pytest.raises(RuleError) as refused:
        game.decide(state, Command("add", {"n": 1}), Chance(), Content("tiny"))
    assert refused.value.message == "the round is over (won): start the next round"
    assert game.decide(state, Command("next_round"), Chance(), Content("tiny"))
    with pytest.raises(RuleError, match=r"^the game is over \(won\)$"):
        TinyGame().decide(state, Command("next_round"), Chance(), Content("tiny"))


@settings(max_examples=25, deadline=None, derandomize=True)
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 12))
def test_every_listed_action_is_accepted_and_unlisted_ones_refused(tmp_path_factory, seed, steps):
    """The contract itself: listed (with any inputs in range) -> accepted; not listed -> refused."""
    s = tiny_session(tmp_path_factory.mktemp("p"))
    rng = random.Random(seed)
    play(s, seed, steps)
    now = s.actions()
    if now["waiting"] is not None or not now["actions"]:
        return
    for action in now["actions"]:
        args = fill_inputs(action, rng)
        s.do(action["do"], args)  # must not raise
        s.undo()
    listed = {(a["do"], json.dumps(a["with"], sort_keys=True)) for a in now["actions"]}
    for args in ({"n": 0}, {"n": 11}, {"n": "3"}):
        assert ("add", json.dumps(args, sort_keys=True)) not in listed
        with pytest.raises(RuleError):
            s.do("add", args)
    with pytest.raises(RuleError, match="has no command"):
        s.do("fly", {})


def test_every_listed_action_converts_to_its_commands_typed_details():
    """The listing (the wire form) and each command's `CommandArgs` can never drift: random
    legal play, every listed action's `with` (inputs filled) converted strictly."""
    game, content, rng = get_game("tiny"), Content("tiny"), random.Random(3)
    state = game.initial_state({}, content)
    for _ in range(60):
        actions = game.legal_actions(state, content)
        if not actions:
            break
        for action in actions:
            declared = game.commands.args_type(action["do"])
            assert declared is not None, f"{action['do']} takes untyped details"
            msgspec.convert(fill_inputs(action, rng), declared, strict=True)
        action = rng.choice(actions)
        answers: list[Any] = []
        while True:
            try:
                events = game.decide(
                    state, Command(action["do"], action["with"]), Chance(answers), content
                )
                break
            except ChanceNeeded as need:
                answers.append([rng.choice(need.request.faces) for _ in range(need.request.count)])
        for event in events:
            game.evolve(state, event)
    assert state.outcome == "won"


def test_actions_from_the_command_line_and_the_shell():
    sid = companion("new", "tiny").stdout.strip()
    run = companion("actions", sid, "--json")
    assert run.returncode == 0, run.stderr
    printed = json.loads(run.stdout)
    assert printed["waiting"] is None and printed["actions"][0]["do"] == "next_round"
    lines = '{"do": "roll", "with": {"count": 1}}\n{"actions": true}\n'
    replies = [
        json.loads(line) for line in companion("shell", sid, stdin=lines).stdout.splitlines()
    ]
    assert replies[1]["ok"] and replies[1]["waiting"]["role"] == "score"
    assert replies[1]["actions"][0]["do"] == "answer"


# -- self-play ---------------------------------------------------------------------------


def test_selfplay_of_the_tiny_game_ends_without_a_refusal(tmp_path):
    reports = [selfplay(get_game("tiny"), seed, folder=tmp_path) for seed in range(1, 6)]
    assert [r.refusals for r in reports] == [0] * 5
    assert all(r.outcome == "won" and not r.stuck for r in reports)


def test_selfplay_is_the_same_for_the_same_seed(tmp_path):
    first = selfplay(get_game("tiny"), 7, folder=tmp_path).to_json()
    assert selfplay(get_game("tiny"), 7, folder=tmp_path).to_json() == first


def test_selfplay_command_prints_its_report():
    run = companion("selfplay", "tiny", "--seed", "2", "--json")
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout)
    assert report["refusals"] == 0 and report["outcome"] == "won" and report["steps"] > 0


# -- typed, versioned events -------------------------------------------------------------


class Moved(EventData):
    version = 2
    to: str
    steps: int


def _moved_table() -> Events[dict[str, Any]]:
    table: Events[dict[str, Any]] = Events()

    @table.on(Moved, text=lambda e: f"moved to {e.to}")
    def _moved(state: dict[str, Any], e: Moved) -> None:
        state["at"] = e.to

    @table.upcast("Moved", from_version=1)
    def _square_became_to(data: dict[str, Any]) -> dict[str, Any]:
        return {"to": data["square"], "steps": data.get("steps", 1)}

    return table


def test_an_old_event_is_upcast_and_a_newer_one_refused():
    table = _moved_table()
    assert table.read("Moved", {"square": "C4"}) == Moved(to="C4", steps=1)
    assert table.write(Moved(to="C4", steps=2)) == ("Moved", {"to": "C4", "steps": 2, "_v": 2})
    with pytest.raises(EventTypeError, match="newer version"):
        table.read("Moved", {"to": "C4", "steps": 1, "_v": 3})
    with pytest.raises(EventTypeError, match="steps"):
        table.read("Moved", {"to": "C4", "steps": "two", "_v": 2})


def test_an_event_emitted_with_a_wrong_field_is_refused_before_it_is_written(tmp_path):
    s = tiny_session(tmp_path)
    game = s.game
    from companion.core.tables import Decision

    d = Decision(s.state, game.evolve, game.events)
    with pytest.raises(EventTypeError):
        d.emit("Added", n="four")
    with pytest.raises(EventTypeError):
        d.emit("Added", n=1, extra=True)


def test_a_saved_event_that_no_longer_fits_is_named_as_damage(tmp_path):
    s = tiny_session(tmp_path)
    s.do("add", {"n": 2})
    with s.store.transaction():  # written by some other program, checksums and all
        tx = s.store.last_tx() + 1
        bad = [("CommandIssued", {"name": "add", "args": {}}), ("Added", {"n": "two"})]
        s.store.append(tx, [*bad, ("CommandDone", {})])
    s.close()
    with pytest.raises(SessionDamaged, match="no longer fit"):
        Session.open(tmp_path / "t.session")


# -- snapshots can't lie -----------------------------------------------------------------

GAME_SOURCE = Path(__file__).resolve().parent.parent / "fixtures" / "tinygame.py"


def _env_with_game(folder: Path) -> dict[str, str]:
    env = os.environ.copy()
    env["PYTHONPATH"] = os.pathsep.join([str(folder), env.get("PYTHONPATH", "")])
    env["COMPANION_EXTRA_GAMES"] = "tinycopy.tinygame:GAME"
    env["COMPANION_HOME"] = str(folder / "home")
    pack = folder / "content" / "tinycopy" / "demo"
    pack.mkdir(parents=True)
    (pack / "tokens.yaml").write_text(
        "tokens:\n  - {id: tinycopy/token/gold, name: Gold, value: 3}\n"
    )
    env["COMPANION_CONTENT_PATH"] = str(folder / "content")
    return env


def test_a_changed_handler_never_gives_a_file_two_answers(tmp_path):
    """As a new maintainer would: 200 commands, a handler changed without bumping any
    version, the file reopened; then the snapshot deleted and the file reopened again."""
    package = tmp_path / "tinycopy"
    package.mkdir()
    (package / "__init__.py").write_text("")
    source = GAME_SOURCE.read_text().replace('id = "tiny"', 'id = "tinycopy"')
    (package / "tinygame.py").write_text(source)
    env = _env_with_game(tmp_path)
    script = "".join(f'{{"do": "add", "with": {{"n": {1 + i % 3}}}}}\n' for i in range(200))
    sid = companion("new", "tinycopy", env=env).stdout.strip()
    assert sid, "the copy of the tiny game starts"
    shell = companion("shell", sid, stdin=script, env=env)
    assert shell.stdout.count('"ok": true') == 200, shell.stderr
    before = json.loads(companion("state", "--json", sid, env=env).stdout)["score"]

    changed = source.replace("s.score += e.n", "s.score += 2 * e.n")
    assert changed != source
    (package / "tinygame.py").write_text(changed)
    reopened = json.loads(companion("state", "--json", sid, env=env).stdout)["score"]
    session_file = next((tmp_path / "home").rglob(f"{sid}.session"))
    code = textwrap.dedent(
        f"""
        import sqlite3
        db = sqlite3.connect({str(session_file)!r})
        print(db.execute("SELECT count(*) FROM snapshots").fetchone()[0])
        db.execute("DELETE FROM snapshots"); db.commit()
        """
    )
    snapshots = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert int(snapshots.stdout) >= 1, "a snapshot of today's rules was written"
    without = json.loads(companion("state", "--json", sid, env=env).stdout)["score"]
    assert reopened == without == 2 * before
