"""One truth with every writer: a commit to the session file by another program (the CLI
beside the host) reaches every phone, and an answer to a roll that program took back is
refused in words, never recorded for the roll waiting now (issue 29's misdirected answer,
reproduced with two real processes)."""

from __future__ import annotations

import os
import subprocess
import sys

import aiohttp
import pytest

from companion.core.library import SUFFIX
from companion.core.session import Session
from companion.host.server import PhoneHost
from companion.host.view import waiting_key
from tests.conftest import ROOT
from tests.host.phones import ScriptPhone
from tests.host.tablegame import TableTiny


def companion(*args: str, home) -> subprocess.CompletedProcess:
    """The real CLI, in its own process, on the same session file."""
    return subprocess.run(
        [sys.executable, "-m", "companion", *args],
        cwd=ROOT,
        env={**os.environ, "COMPANION_HOME": str(home)},
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )


@pytest.fixture
async def hosted(tmp_path):
    path = tmp_path / f"table{SUFFIX}"
    session = Session.create(path, TableTiny())
    host = PhoneHost(session)
    await host.start()
    async with aiohttp.ClientSession() as client:
        yield host, client, path
    await host.stop()
    session.close()


def answered(session: Session) -> list[list[int]]:
    return [r.data["values"] for tx in session.history() for r in tx if r.type == "RequestAnswered"]


async def test_an_answer_to_a_roll_another_program_took_back_is_refused(hosted, tmp_path):
    host, client, path = hosted
    session = host.session
    session.do("roll", {"count": 1})  # the first roll ...
    session.answer([3], by="tablet")
    session.do("roll", {"count": 1})  # ... and the second, which the phone shows
    phone = ScriptPhone(client, host, "p1", "Ann")
    await phone.join()
    shown = phone.state["waiting"]["key"]
    assert shown == waiting_key(session)

    # `companion undo` twice from another process: the first roll waits again
    companion("undo", str(path), home=tmp_path)
    companion("undo", str(path), home=tmp_path)

    # the phone taps 4 on the roll it showed, before or after the host noticed
    reply = await phone.send(phone.command("answer", {"values": [4]}, waiting=shown))
    assert not reply["ok"]
    assert "already answered or taken back" in reply["text"] and "to score" in reply["text"]
    assert answered(session) == []  # 4 was not recorded for the roll waiting now
    with Session.open(path) as fresh:  # nor in the file
        assert answered(fresh) == [] and fresh.request is not None

    # the phone is shown the roll now waiting, and told in words what happened
    state = await phone.until(lambda s: s["waiting"] and s["waiting"]["key"] != shown)
    assert state["waiting"]["key"] == waiting_key(session)
    assert state["notice"]["text"].startswith("The tablet took back:")
    now = await phone.send(
        phone.command("answer", {"values": [4]}, waiting=state["waiting"]["key"])
    )
    assert now["ok"] and now["text"] == "You rolled 4: to score."
    assert answered(session) == [[4]]
    await phone.close()


async def test_a_second_programs_commit_reaches_every_phone_without_a_sync(hosted, tmp_path):
    host, client, path = hosted
    phones = [ScriptPhone(client, host, f"p{n}", f"Player {n}") for n in range(8)]
    for phone in phones:
        await phone.join()
    screen: list[object] = []  # the tablet's own screen listens to the session as well
    host.session.subscribe(lambda _session, result: screen.append(result))
    companion("do", str(path), "add", "--with", '{"n": 5}', home=tmp_path)
    companion("do", str(path), "correct", "--with", '{"path": "round", "value": 3}', home=tmp_path)
    for phone in phones:  # no phone asks: the host pushes what the file says
        state = await phone.until(lambda s: s["summary"] == "Round 3, score 5")
        assert state["notice"]["kind"] == "corrected"
        assert state["notice"]["text"] == "The tablet corrected round: 0 is now 3."
    assert host.session.state.round == 3 and screen  # the tablet's screen was told too
    companion("undo", str(path), home=tmp_path)
    for phone in phones:
        state = await phone.until(lambda s: s["summary"] == "Round 0, score 5")
        assert state["notice"]["text"] == "The tablet took back: Corrected round: 0 -> 3."
        await phone.close()


async def test_a_phones_own_undo_is_named_for_the_other_phones(hosted):
    host, client, _path = hosted
    ann, ben = ScriptPhone(client, host, "a", "Ann"), ScriptPhone(client, host, "b", "Ben")
    await ann.join()
    await ben.join()
    assert (await ann.send(ann.command("add", {"n": 1})))["ok"]
    assert (await ann.send(ann.command("undo")))["ok"]
    state = await ben.until(lambda s: s["notice"] is not None)
    assert state["notice"]["text"] == "Ann's phone took back: Add one."
    assert (await ann.send(ann.command("add", {"n": 1})))["ok"]
    assert (await ben.until(lambda s: s["notice"] is None))["summary"] == "Round 0, score 1"
