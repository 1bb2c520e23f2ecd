"""The `companion` command line as a user types it."""

from __future__ import annotations

import json
import os

from tests.core.test_content import BROKEN
from tests.core.test_scenario_runner import companion


def test_new_do_answer_state_undo_redo(tmp_path):
    sid = companion("new", "tiny", "--name", "cli-game").stdout.strip()
    assert sid == "cli-game"
    run = companion("do", sid, "add", "--with", '{"n": 3}')
    assert run.returncode == 0 and "Score +3" in run.stdout
    run = companion("do", sid, "roll")
    assert "waiting: Player: roll the d6 (to score)" in run.stdout
    assert companion("answer", sid, "4").returncode == 0
    state = json.loads(companion("state", "--json", sid).stdout)
    assert state["score"] == 7 and state["requests"] == []
    assert companion("undo", sid).returncode == 0
    assert json.loads(companion("state", "--json", sid).stdout)["requests"][0]["profile"] == "d6"
    assert companion("redo", sid).returncode == 0
    assert json.loads(companion("state", "--json", sid).stdout)["score"] == 7
    listing = companion("sessions").stdout
    assert "cli-game" in listing and "Round 0, score 7" in listing


def test_refusals_and_bad_input_are_said_in_words(tmp_path):
    sid = companion("new", "tiny").stdout.strip()
    run = companion("do", sid, "add", "--with", '{"n": -1}')
    assert run.returncode == 1 and "refused: add needs a positive n" in run.stderr
    run = companion("do", sid, "add", "--with", "{n: 1}")
    assert run.returncode == 2 and "--with is not valid JSON" in run.stderr
    run = companion("state", "--json", "nobody-here")
    assert run.returncode == 2 and "no session called 'nobody-here'" in run.stderr
    run = companion("new", "chess")
    assert run.returncode == 2 and "unknown game 'chess'" in run.stderr
    assert "Traceback" not in run.stderr


def test_new_with_setup_file_and_export_scenario(tmp_path):
    setup = tmp_path / "setup.yaml"
    setup.write_text("start: 5\n")
    sid = companion("new", "tiny", "--setup", str(setup)).stdout.strip()
    companion("do", sid, "add", "--with", '{"n": 1}')
    out = tmp_path / "exported.yaml"
    assert companion("session", "export-scenario", sid, "-o", str(out)).returncode == 0
    assert "start: 5" in out.read_text()
    run = companion("scenario", "run", str(out))
    assert run.returncode == 0, run.stdout


def test_content_check_names_file_line_field(tmp_path):
    bad = tmp_path / "tiny" / "mine"
    bad.mkdir(parents=True)
    (bad / "tokens.yaml").write_text("tokens:\n  - id: tiny/token/a\n    value: lots\n")
    run = companion("content", "check", str(bad))
    assert run.returncode == 2
    assert f"{bad / 'tokens.yaml'}:3: tokens[0].value (tiny/token/a): Expected `int`" in run.stdout
    os.environ["COMPANION_CONTENT_PATH"] += os.pathsep + str(BROKEN)
    try:
        run = companion("content", "check")  # every installed pack, the broken fixture among them
    finally:
        os.environ["COMPANION_CONTENT_PATH"] = os.environ["COMPANION_CONTENT_PATH"].rsplit(
            os.pathsep, 1
        )[0]
    assert run.returncode == 2 and "tiny/broken/tokens.yaml:7:" in run.stdout
    assert "problem(s) in" in run.stdout and "tiny/demo" in run.stdout


def test_shell_replies_after_each_commit(tmp_path):
    sid = companion("new", "tiny").stdout.strip()
    import subprocess
    import sys

    lines = "\n".join(
        json.dumps(x)
        for x in (
            {"do": "add", "with": {"n": 2}},
            {"do": "add", "with": {"n": 0}},
            {"do": "roll"},
            {"answer": [5], "state": True},
            "nonsense",
        )
    )
    run = subprocess.run(
        [sys.executable, "-m", "companion", "shell", sid],
        input=lines,
        capture_output=True,
        text=True,
        timeout=60,
    )
    replies = [json.loads(x) for x in run.stdout.splitlines()]
    assert [r["ok"] for r in replies] == [True, False, True, True, False]
    assert "positive" in replies[1]["error"]
    assert replies[2]["waiting"]["profile"] == "d6"
    assert replies[3]["state"]["score"] == 7
