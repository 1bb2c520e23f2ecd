"""Many phones on loopback sending, dropping and resending for a bounded time: afterwards
every acknowledged command is in the log exactly once and every phone shows the tablet's
state.  Bounded: 9 phones, 25 commands each, 20 seconds at most; loopback only."""

from __future__ import annotations

import asyncio
import json
import random
import subprocess
import sys
from collections import Counter

import aiohttp

from companion.core.session import Session
from companion.host.server import PhoneHost
from companion.host.view import revision
from tests.conftest import ROOT
from tests.host.phones import ScriptPhone
from tests.host.tablegame import ManyHands, new_session

PHONES = 9  # each adds its own amount, 1 to 9; the tablet adds 10
COMMANDS = 25
DEADLINE = 20.0


async def unreliable_phone(client, host, index: int, rng: random.Random) -> dict[int, dict]:
    """Sends COMMANDS numbered commands; drops the line at random (before or after the
    reply), and after each drop resends everything not yet seen acknowledged, duplicates
    included, as a phone that lost its replies would.  Returns the acks by number."""
    phone = ScriptPhone(client, host, f"phone-{index}", f"Player {index}")
    await phone.join()
    sent: dict[int, dict] = {}
    acks: dict[int, dict] = {}
    while len(acks) < COMMANDS:
        if len(sent) < COMMANDS and len(sent) == len(acks):
            message = phone.command("add", {"n": index + 1})
            sent[message["seq"]] = message
        unanswered = [m for s, m in sorted(sent.items()) if s not in acks]
        roll = rng.random()
        for message in unanswered:
            await phone.ws.send_json(message)
        if roll < 0.25:  # the line drops before any reply is read
            await phone.ws.close()
            await phone.join()
            continue
        if roll < 0.35 and acks:  # a duplicate of something already acknowledged
            await phone.ws.send_json(sent[rng.choice(list(acks))])
        while any(s not in acks for s in sent):
            reply = await phone.expect("ack")
            if reply.get("retry"):
                await asyncio.sleep(0.05)
                break
            acks.setdefault(reply["seq"], reply)
    await phone.ws.close()
    return acks


async def test_phones_that_drop_and_resend_never_lose_or_double_a_command(tmp_path):
    session = new_session(tmp_path, ManyHands())
    host = PhoneHost(session)
    await host.start()
    rng = random.Random(15)
    try:
        async with aiohttp.ClientSession() as client:

            async def tablet() -> int:
                done = 0
                for _ in range(20):  # the tablet plays too, between the phones' commands
                    session.do("add", {"n": 10})
                    done += 1
                    await asyncio.sleep(0.02)
                return done

            results = await asyncio.wait_for(
                asyncio.gather(
                    tablet(),
                    *(
                        unreliable_phone(client, host, i, random.Random(rng.random()))
                        for i in range(PHONES)
                    ),
                ),
                DEADLINE,
            )
            tablet_done, phone_acks = results[0], results[1:]
            added = Counter(
                r.data["n"] for tx in session.history() for r in tx if r.type == "Added"
            )
            for index, acks in enumerate(phone_acks):
                assert sorted(acks) == list(range(1, COMMANDS + 1))
                assert all(a["ok"] for a in acks.values()), [
                    a for a in acks.values() if not a["ok"]
                ]
                assert added[index + 1] == COMMANDS, f"phone {index}: {added[index + 1]} applied"
            assert added[10] == tablet_done
            assert (
                session.state.score
                == sum((i + 1) * COMMANDS for i in range(PHONES)) + 10 * tablet_done
            )
            # every phone, coming back, shows the tablet's state
            for index in range(PHONES):
                phone = ScriptPhone(client, host, f"phone-{index}", f"Player {index}")
                phone.token = host.tokens.issue_phone(f"phone-{index}").token
                await phone.join()
                assert phone.state["rev"] == revision(session)
                assert phone.state["summary"] == session.game.summary(session.state)
                await phone.close()
    finally:
        await host.stop()
        session.close()


KILLS = 10
STEADY_PHONES = 4


class Closed(Exception):
    """The line to the tablet went down."""


def start_host(path, die_after: int = 0) -> tuple[subprocess.Popen[str], dict]:
    """A host in its own process on the session file, and what it printed once listening;
    with `die_after`, one that kills itself right after that many commits (hostproc)."""
    process = subprocess.Popen(
        [sys.executable, "-m", "tests.host.hostproc", str(path), str(die_after)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    assert process.stdout is not None
    line = process.stdout.readline()
    assert line, "the host did not start"
    return process, json.loads(line)


async def next_of(ws: aiohttp.ClientWebSocketResponse, kind: str) -> dict:
    while True:
        msg = await ws.receive(timeout=30)
        if msg.type != aiohttp.WSMsgType.TEXT:
            raise Closed
        data = json.loads(msg.data)
        if data["t"] == "refused":  # a phone of this table is never turned away
            raise AssertionError(f"refused: {data['text']}")
        if data["t"] == kind:
            return data


async def steady_phone(client, port: int, index: int, join: str, stop: asyncio.Event) -> dict:
    """A phone as the page behaves: one command at a time; when the line drops, it
    reconnects by itself with the pass it holds and resends what it saw no ack for."""
    token, seq, acks = join, 0, {}
    pending: dict | None = None
    resent = drops = 0
    tables = set()
    while not (stop.is_set() and pending is None):
        try:
            ws = await client.ws_connect(f"http://127.0.0.1:{port}/ws?t={token}")
        except (aiohttp.ClientError, OSError):
            await asyncio.sleep(0.05)  # the tablet is restarting: try again shortly
            continue
        try:
            await ws.send_json({"t": "hello", "phone": f"phone-{index}", "name": f"P{index}"})
            welcome = await next_of(ws, "welcome")
            token = welcome["token"]
            tables.add(welcome["table"])
            while not (stop.is_set() and pending is None):
                if pending is None:
                    seq += 1
                    pending = {
                        "t": "cmd",
                        "phone": f"phone-{index}",
                        "seq": seq,
                        "rev": None,
                        "do": "add",
                        "with": {"n": index + 1},
                    }
                await ws.send_json(pending)
                reply = await next_of(ws, "ack")
                assert reply["seq"] == pending["seq"] and reply["ok"], reply
                acks[seq] = reply
                pending = None
        except (Closed, aiohttp.ClientError, ConnectionError, TimeoutError):
            drops += 1
            resent += pending is not None
        finally:
            await ws.close()
    return {"acks": acks, "resent": resent, "drops": drops, "tables": tables}


async def test_a_host_killed_mid_command_ten_times_loses_and_doubles_nothing(tmp_path):
    session = new_session(tmp_path, ManyHands())
    path = session.path
    session.close()
    loop = asyncio.get_running_loop()
    process, first = await loop.run_in_executor(None, start_host, path)
    rng = random.Random(29)
    stop = asyncio.Event()
    try:
        async with aiohttp.ClientSession() as client:
            phones = [
                asyncio.create_task(steady_phone(client, first["port"], i, first["join"], stop))
                for i in range(STEADY_PHONES)
            ]
            for kill in range(KILLS):
                if kill % 2:  # killed by itself between a commit and its ack
                    await loop.run_in_executor(None, process.wait)
                else:  # killed from outside whenever: mid-command, as the phones never stop
                    await asyncio.sleep(rng.uniform(0.3, 0.8))
                    process.kill()
                    await loop.run_in_executor(None, process.wait)
                die_after = rng.randint(5, 20) if kill % 2 == 0 else 0
                process, info = await loop.run_in_executor(None, start_host, path, die_after)
                assert info["port"] == first["port"] and info["table"] == first["table"]
            await asyncio.sleep(0.3)
            stop.set()
            results = await asyncio.wait_for(asyncio.gather(*phones), 60)
    finally:
        process.kill()
        process.wait()
    with Session.open(path) as after:
        added = Counter(r.data["n"] for tx in after.history() for r in tx if r.type == "Added")
    for index, result in enumerate(results):
        acks = result["acks"]
        assert sorted(acks) == list(range(1, len(acks) + 1))
        assert added[index + 1] == len(acks), f"phone {index}: {added[index + 1]} in the log"
        assert result["drops"] >= 1 and result["tables"] == {first["table"]}
    # the kills did land mid-command: phones had to resend what they saw no ack for, five
    # times right after the commit, when the resend must get the first reply, not a rerun
    assert sum(r["resent"] for r in results) >= KILLS // 2
    assert sum(bool(a.get("again")) for r in results for a in r["acks"].values()) >= KILLS // 2
