"""No user mistake prints a traceback; the shell survives any line; printed text is safe
(issue 17, finding 7).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from companion.cli.safe import safe_text
from tests.core.test_scenario_runner import companion

BAD_LINES: list[bytes] = [
    b'{"do": "add", "with": [1]}',
    b'{"do": "add", "with": "n=1"}',
    b'{"do": ["add"]}',
    b'{"do": ""}',
    b"[" * 100_000 + b"]" * 100_000,
    b'{"a":' * 50_000 + b"1" + b"}" * 50_000,
    bytes(b for b in range(256) if b != 10),
    b"\xff\xfe\x00garbage",
    b"{not json",
    b"42",
    b"null",
    b'{"answer": [3]}',
    b'{"undo": true, "extra": {"x": [1e999]}}',
    b'{"frobnicate": 1}',
]
PENDING_LINES: list[bytes] = [
    b'{"answer": [1e999]}',
    b'{"answer": {"a": 1}}',
    b'{"answer": [[1]]}',
    b'{"answer": "' + b"9" * 6000 + b'"}',
]


def test_the_shell_survives_any_line(tmp_path):
    sid = companion("new", "tiny", "--name", "survivor").stdout.strip()
    lines = [
        *BAD_LINES,
        b'{"do": "add", "with": {"n": 2}}',
        b'{"do": "roll"}',
        *PENDING_LINES,
        b'{"answer": [4], "state": true}',
    ]
    run = subprocess.run(
        [sys.executable, "-m", "companion", "shell", sid],
        input=b"\n".join(lines) + b"\n",
        capture_output=True,
        env=os.environ.copy(),
        timeout=120,
    )
    assert run.returncode == 0, run.stderr.decode()[-2000:]
    assert b"Traceback" not in run.stderr
    replies = [json.loads(line) for line in run.stdout.splitlines()]
    assert len(replies) == len(lines)
    bad = replies[: len(BAD_LINES)]
    # the undo on a fresh game is refused for having nothing to undo, not for its extras
    assert all(not r["ok"] and r["error"] and not r.get("bug") for r in bad), bad
    assert replies[len(BAD_LINES)]["ok"] and replies[len(BAD_LINES) + 1]["ok"]
    pending = replies[len(BAD_LINES) + 2 : -1]
    assert all(not r["ok"] and not r.get("bug") for r in pending), pending
    assert replies[-1]["ok"] and replies[-1]["state"]["score"] == 6


def test_new_with_a_bad_setup_file_says_why(tmp_path):
    folder = tmp_path / "folder"
    folder.mkdir()
    (tmp_path / "list.yaml").write_text("- 1\n- 2\n")
    (tmp_path / "setup-list.yaml").write_text("game: tiny\nsetup: [1, 2]\n")
    (tmp_path / "bigint.yaml").write_text("start: " + "9" * 5000 + "\n")
    (tmp_path / "content.yaml").write_text("game: tiny\ncontent: {a: 1}\n")
    cases = {
        tmp_path / "missing.yaml": "no such file",
        folder: "is a folder",
        tmp_path / "list.yaml": "a set-up file is a mapping",
        tmp_path / "setup-list.yaml": "'setup' is a mapping",
        tmp_path / "bigint.yaml": "over 1000 digits",
        tmp_path / "content.yaml": "'content' is a list of pack names",
    }
    for path, words in cases.items():
        run = companion("new", "tiny", "--setup", str(path))
        assert run.returncode == 2, (path, run.stderr)
        assert "Traceback" not in run.stderr and words in run.stderr, (path, run.stderr)


def test_file_mistakes_are_said_in_words(tmp_path):
    sid = companion("new", "tiny", "--name", "words").stdout.strip()
    cases = [
        (["session", "export", sid, "-o", str(tmp_path / "nowhere" / "x.tcsave")], "no folder"),
        (["session", "export", sid, "-o", str(tmp_path)], "is a folder"),
        (["session", "export-scenario", sid, "-o", str(tmp_path / "no" / "x.yaml")], "no folder"),
        (["session", "import", str(tmp_path)], "is a folder"),
        (["session", "import", str(tmp_path / "missing.tcsave")], "no such file"),
        (["session", "recover", str(tmp_path / "missing.session")], "no session"),
        (["do", sid, "add", "--with", "[" * 100_000], "nested too deeply"),
        (["do", sid, "add", "--with", "[1]"], "must be a JSON object"),
        (["state", "no/such"], "is not a session name"),
    ]
    for args, words in cases:
        run = companion(*args)
        assert run.returncode == 2, (args, run.stderr)
        assert "Traceback" not in run.stderr and words in run.stderr, (args, run.stderr)


def test_exit_codes_follow_the_kind_of_failure_not_its_words(tmp_path):
    sid = companion("new", "tiny", "--name", "codes").stdout.strip()
    refused = companion("do", sid, "add", "--with", '{"n": -1}')
    assert refused.returncode == 1 and "refused: add needs a positive n" in refused.stderr
    from companion.core.rules import RuleError
    from companion.core.store import SessionLocked
    from companion.failures import explain

    assert explain(RuleError("refused twice"))[1] == 1
    assert explain(SessionLocked("x.session", "refused by the lock"))[1] == 2
    assert explain(ZeroDivisionError()) is None


@pytest.mark.parametrize(
    "text", ["A\u202eB", "bell\x07", "esc\x1b[2J", "c1\x85", "zw\u200bj", "tag\U000e0001"]
)
def test_printed_text_is_made_safe(text):
    out = safe_text(text)
    assert out.isprintable() and json.loads(f'"{out}"') == text


def test_scan_json_escapes_control_and_bidi_characters(tmp_path, capsys):
    import cv2
    import numpy as np
    import segno

    from companion.cli import main

    hostile = "tiny/tokens/\u202egnp.exe\x1b[2J\x85"
    qr = segno.make(hostile, mode="byte", encoding="utf-8")
    grid = np.pad(np.array([list(r) for r in qr.matrix], bool), 4)
    image = np.where(grid, 0, 255).astype(np.uint8)
    cv2.imwrite(str(tmp_path / "q.png"), cv2.resize(image, None, fx=8, fy=8, interpolation=0))
    assert main(["scan", "--json", str(tmp_path / "q.png")]) == 0
    out = capsys.readouterr().out
    assert "\u202e" not in out and "\x1b" not in out and "\x85" not in out
    texts = [c["text"] for r in json.loads(out) for c in r["codes"]]
    assert any(t.startswith("tiny/tokens/\u202egnp.exe") for t in texts)  # still the same text
