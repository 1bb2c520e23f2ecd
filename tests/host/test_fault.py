"""Many phones on loopback sending, dropping and resending for a bounded time: afterwards
every acknowledged command is in the log exactly once and every phone shows the tablet's
state.  Bounded: 9 phones, 25 commands each, 20 seconds at most; loopback only."""

from __future__ import annotations

import asyncio
import random
from collections import Counter

import aiohttp

from companion.host.server import PhoneHost
from companion.host.view import revision
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
