"""The host over real HTTP and WebSocket on loopback: joining, refusing, resending,
catching up, and every phone seeing the tablet's state."""

from __future__ import annotations

import aiohttp
import pytest

from companion.host.server import PhoneHost, is_local
from companion.host.tokens import Tokens
from tests.host.phones import ScriptPhone
from tests.host.tablegame import Clock, new_session


@pytest.fixture
async def hosted(tmp_path):
    session = new_session(tmp_path)
    clock = Clock()
    host = PhoneHost(session, tokens=Tokens(clock, join_ttl=600))
    host.clock = clock
    await host.start()
    async with aiohttp.ClientSession() as client:
        yield host, client
    await host.stop()
    session.close()


async def test_the_join_link_serves_the_page_and_its_files(hosted):
    host, client = hosted
    async with client.get(host.join_url) as page:
        assert page.status == 200
        text = await page.text()
        assert host.tokens.join.token in text and "Table Companion" in text
        assert "default-src 'none'" in page.headers["Content-Security-Policy"]
    for name in ("app.js", "app.css", "zxing_reader.js", "zxing_reader.wasm"):
        async with client.get(
            f"http://127.0.0.1:{host.port}/s/{name}?t={host.tokens.join.token}"
        ) as r:
            assert r.status == 200 and len(await r.read()) > 100


async def test_no_path_reaches_a_file_outside_the_shipped_list(hosted):
    host, client = hosted
    token = host.tokens.join.token
    for name in ("index.html", "..%2Fserver.py", "licences", "..%2F..%2F__init__.py"):
        async with client.get(f"http://127.0.0.1:{host.port}/s/{name}?t={token}") as r:
            assert r.status == 404, name
    async with client.get(f"http://127.0.0.1:{host.port}/s/../server.py?t={token}") as r:
        assert r.status == 404


async def test_wrong_expired_and_revoked_tokens_are_refused_in_words(hosted):
    host, client = hosted
    base = f"http://127.0.0.1:{host.port}"
    async with client.get(f"{base}/?t=not-a-token") as r:
        assert r.status == 403 and "not for this table" in await r.text()
    async with client.get(f"{base}/s/app.js") as r:
        assert r.status == 403
    phone = ScriptPhone(client, host, "p1", "Ann")
    await phone.join()
    old_link = host.join_url
    host.clock.now += 601
    async with client.get(old_link) as r:
        assert r.status == 403 and "expired" in await r.text()
    late = ScriptPhone(client, host, "p2", "Ben")
    assert (await late.join())["t"] == "refused"
    host.new_link()
    assert (await ScriptPhone(client, host, "p2", "Ben").join())["t"] == "welcome"
    host.remove_phone("p1")
    refused = await phone.expect("refused")
    assert "took this phone out" in refused["text"]
    again = ScriptPhone(client, host, "p1", "Ann")
    again.token = phone.token
    assert "took this phone out" in (await again.join())["text"]


async def test_a_phone_cut_off_mid_command_resends_and_it_applies_once(hosted):
    host, client = hosted
    phone = ScriptPhone(client, host, "p1", "Ann")
    await phone.join()
    message = phone.command("add", {"n": 1})
    await phone.ws.send_json(message)
    await phone.ws.close()  # gone before the reply came
    back = ScriptPhone(client, host, "p1", "Ann")
    back.token = phone.token
    await back.join()
    assert back.welcome["seq"] == 1  # the tablet says it has number 1 already
    reply = await back.send(message)
    assert reply["ok"] and reply["again"]
    assert host.session.state.score == 1
    added = [r for tx in host.session.history() for r in tx if r.type == "Added"]
    assert len(added) == 1 and back.state["summary"] == "Round 0, score 1"


async def test_a_phone_behind_by_several_revisions_catches_up_on_return(hosted):
    host, client = hosted
    phone = ScriptPhone(client, host, "p1", "Ann")
    await phone.join()
    seen = phone.state["rev"]
    await phone.close()
    for _ in range(3):
        host.session.do("add", {"n": 1})
    host.session.do("next_round")
    back = ScriptPhone(client, host, "p1", "Ann")
    back.token = phone.token
    await back.join(rev=seen)
    assert back.state["rev"] > seen + 4
    assert back.state["summary"] == "Round 1, score 3"
    stale = await back.send({**back.command("add", {"n": 1}), "rev": seen})
    assert stale["ok"]  # adding one is still offered, so it still applies
    host.session.do("roll", {"count": 1})
    await back.expect("state")
    old = await back.send({**back.command("next_round"), "rev": seen})
    assert not old["ok"] and "moved on" in old["text"]


async def test_two_phones_see_each_others_changes_and_the_tablets(hosted):
    host, client = hosted
    ann, ben = ScriptPhone(client, host, "a", "Ann"), ScriptPhone(client, host, "b", "Ben")
    await ann.join()
    await ben.join()
    assert (await ann.send(ann.command("roll", {"count": 1})))["ok"]
    waiting = (await ben.expect("state"))["waiting"]
    assert waiting["kind"] == "dice" and [f["value"] for f in waiting["faces"]] == [
        1,
        2,
        3,
        4,
        5,
        6,
    ]
    reply = await ben.send(ben.command("answer", {"values": [4]}, waiting=waiting["key"]))
    assert reply["ok"]
    state = await ann.until(lambda s: s["waiting"] is None and s["result"] is not None)
    assert state["result"]["title"] == "Roll for score"  # the step the roll answered, then it
    assert state["result"]["lines"] == ["Player: rolled 4 on the d6", "Rolled 4"]
    host.session.do("add", {"n": 1})  # a touch on the tablet
    assert (await ben.until(lambda s: s["summary"] == "Round 0, score 5"))["waiting"] is None
    assert {p.name for p, on in host.phones() if on} == {"Ann", "Ben"}


async def test_names_sent_by_phones_cannot_carry_markup_or_control_characters(hosted):
    host, client = hosted
    phone = ScriptPhone(client, host, "p1", "<b>Ann</b>\x1b[2J" + "x" * 80)
    await phone.join()
    name = phone.welcome["name"]
    assert "\x1b" not in name and len(name) <= 30  # the page shows it as text, never HTML


def test_the_host_refuses_a_public_address():
    assert is_local("127.0.0.1") and is_local("192.168.1.20") and is_local("10.0.0.5")
    assert not is_local("8.8.8.8") and not is_local("0.0.0.0") and not is_local("::")
    with pytest.raises(ValueError, match="local network"):
        PhoneHost(object(), address="8.8.8.8")
