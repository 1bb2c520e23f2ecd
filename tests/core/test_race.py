"""Two real programs on one session file, racing (issue 17, finding 1).

Two `companion shell` processes share one file.  Each round one of them opens a roll,
then both answer it at the same instant, then both add at the same instant.  The write
lock is taken before either decides, so exactly one answer is accepted every round, no
acknowledged command is missing from the file, and both programs' views equal the file.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time

import pytest

from companion.core.rules import RuleError
from companion.core.session import Session
from companion.core.store import Store
from tests.core.helpers import tiny_session

ROUNDS = 1500
SECONDS = 40.0  # the race stops here however many rounds it reached (at least MIN_ROUNDS)
MIN_ROUNDS = 150


class Shell:
    def __init__(self, path) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "companion", "shell", str(path)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=os.environ.copy(),
            text=True,
            bufsize=1,
        )

    def send(self, msg: dict) -> None:
        self.proc.stdin.write(json.dumps(msg) + "\n")
        self.proc.stdin.flush()

    def reply(self) -> dict:
        line = self.proc.stdout.readline()
        assert line, self.proc.stderr.read()
        return json.loads(line)

    def ask(self, msg: dict) -> dict:
        self.send(msg)
        return self.reply()

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait(timeout=30)


@pytest.mark.slow
def test_two_programs_racing_never_answer_twice_nor_lose_a_command(tmp_path):
    tiny_session(tmp_path).close()
    path = tmp_path / "t.session"
    a, b = Shell(path), Shell(path)
    acked: dict[int, tuple[str, object]] = {}  # tx -> what its reply acknowledged
    score = 0
    rounds = 0
    started = time.monotonic()
    try:
        while rounds < ROUNDS and (rounds < MIN_ROUNDS or time.monotonic() - started < SECONDS):
            opener = (a, b)[rounds % 2]
            reply = opener.ask({"do": "roll"})
            assert reply["ok"] and reply["waiting"]["profile"] == "d6", reply
            acked[reply["tx"]] = ("roll", None)
            va, vb = 1 + rounds % 5, 1 + (rounds + 2) % 5  # never a 6: no bonus roll
            a.send({"answer": [va]})
            b.send({"answer": [vb]})
            ra, rb = a.reply(), b.reply()
            accepted = [(r, v) for r, v in ((ra, va), (rb, vb)) if r["ok"]]
            assert len(accepted) == 1, (rounds, ra, rb)
            refused = rb if ra["ok"] else ra
            assert "nothing is waiting" in refused["error"], refused
            reply, value = accepted[0]
            acked[reply["tx"]] = ("answer", [value])
            score += value
            a.send({"do": "add", "with": {"n": 1}})
            b.send({"do": "add", "with": {"n": 1}})
            for r in (a.reply(), b.reply()):
                assert r["ok"], r
                acked[r["tx"]] = ("add", 1)
                score += 1
            rounds += 1
        views = [s.ask({"state": True})["state"] for s in (a, b)]
    finally:
        a.close()
        b.close()
    with Session.open(path) as s:
        file_state = s.to_json()
        heads = {rows[0].tx: rows[0] for rows in s.history()}
    assert views[0] == views[1] == file_state
    assert file_state["score"] == score
    assert len(acked) == 4 * rounds
    for tx, (kind, value) in acked.items():  # every acknowledged command is in the file
        head = heads[tx]
        if kind == "answer":
            assert head.type == "RequestAnswered" and head.data["values"] == value
        else:
            assert head.type == "CommandIssued" and head.data["name"] == kind
    answered = [h for h in heads.values() if h.type == "RequestAnswered"]
    assert len(answered) == rounds  # one answer per request, never two
    print(f"race: {rounds} rounds, {len(acked)} acknowledged commands, all in the file")


def test_a_program_opening_while_another_answers_never_answers_the_same_roll(tmp_path, monkeypatch):
    """The race's round 0 (CI, stop 36): b opened the file while a rolled and answered.

    b read the chain with a's roll, then a committed its answer, then b noted the newest
    row (a's answer) as read without folding it, so b still saw the roll waiting and
    answered it too.  Here a answers from a thread at exactly that instant, while b is
    opening; b must then refuse its own answer, whichever way the two programs' locks fall.
    """
    tiny_session(tmp_path).close()
    path = tmp_path / "t.session"
    a = Session.open(path)
    a.do("roll")
    assert a.request is not None
    answered: list[object] = []
    original = Store.tx_heads
    workers: list[threading.Thread] = []

    def tx_heads_then_a_answers(store: Store) -> list:
        heads = original(store)
        if not workers:  # b's first read only; a's own catching up reads plainly
            worker = threading.Thread(target=lambda: answered.append(a.answer([2])))
            workers.append(worker)
            worker.start()
            worker.join(timeout=0.3)  # done at once unless b's read holds the file
        return heads

    monkeypatch.setattr(Store, "tx_heads", tx_heads_then_a_answers)
    b = Session.open(path)
    monkeypatch.undo()
    workers[0].join(timeout=30)
    try:
        assert len(answered) == 1  # a's answer was committed
        with pytest.raises(RuleError, match="nothing is waiting"):
            b.answer([3])
        assert b.to_json() == a.to_json()
        assert b.to_json()["score"] == 2
    finally:
        a.close()
        b.close()
