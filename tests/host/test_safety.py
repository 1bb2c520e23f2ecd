"""The host's defences, each against the finding of issue 29 it answers, over real
sockets on loopback: no token in any log line, bad tokens of any bytes refused with 403,
messages too big or too deep refused in words, silent sockets and made-up phones never
locking out a real phone, the Origin checked, and wrong guesses slowed per address."""

from __future__ import annotations

import asyncio
import json
import logging

import aiohttp
import pytest

from companion.host import server
from companion.host.safety import Throttle, redact, same_origin, too_deep
from companion.host.server import PhoneHost
from companion.host.tokens import TokenRefused, Tokens
from tests.host.phones import ScriptPhone
from tests.host.tablegame import Clock, new_session


@pytest.fixture
async def hosted(tmp_path):
    session = new_session(tmp_path)
    clock = Clock()
    host = PhoneHost(session, throttle=Throttle(clock=clock))
    host.clock = clock
    await host.start()
    async with aiohttp.ClientSession() as client:
        yield host, client
    await host.stop()
    session.close()


async def raw(host: PhoneHost, request: bytes) -> bytes:
    """Send bytes as they are (no client library to tidy them) and read the reply."""
    reader, writer = await asyncio.open_connection("127.0.0.1", host.port)
    writer.write(request)
    await writer.drain()
    reply = await asyncio.wait_for(reader.read(65536), 10)
    writer.close()
    return reply


def logged(caplog) -> str:
    """Every log line as a handler would write it, tracebacks included."""
    formatter = logging.Formatter()
    return "\n".join(formatter.format(record) for record in caplog.records)


async def test_no_token_reaches_a_log_line_even_in_a_rejected_request(hosted, caplog):
    host, client = hosted
    token = host.tokens.join.token
    caplog.set_level(logging.DEBUG)
    long_line = b"GET /?t=" + token.encode() + b"&x=" + b"a" * 9000 + b" HTTP/1.1\r\n"
    assert b" 400 " in (await raw(host, long_line + b"Host: 127.0.0.1\r\n\r\n")).split(b"\r\n")[0]
    garbled = b"GET /?t=" + token.encode() + b"\x00\xff HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
    assert b" 400 " in (await raw(host, garbled)).split(b"\r\n")[0]
    text = logged(caplog)
    assert "Error handling request" in text and "t=<hidden>" in text  # it was logged ...
    assert token not in text  # ... without the token


def test_redaction_hides_every_t_value_and_nothing_else():
    line = "GET /ws?t=abc-DEF_123&x=1 and /s/app.js?x=2&t=zzz HTTP/1.1 'http://h/?t=q'"
    assert redact(line) == (
        "GET /ws?t=<hidden>&x=1 and /s/app.js?x=2&t=<hidden> HTTP/1.1 'http://h/?t=<hidden>'"
    )
    record = logging.LogRecord("aiohttp.server", 40, "", 0, "bad %s", ("/?t=secret",), None)
    server.hide_tokens_in_logs()
    logging.getLogger("aiohttp.server").filters[0].filter(record)
    assert record.getMessage() == "bad /?t=<hidden>"


@pytest.mark.parametrize(
    "token",
    ["%C3%A9t%C3%A9", "%FF%FE", "%00", "é" * 30, "x" * 5000, "%F0%9F%98%80", "a%20b", "%ED%A0%80"],
)
async def test_a_bad_token_of_any_bytes_is_refused_with_403(hosted, token):
    host, client = hosted
    base = f"http://127.0.0.1:{host.port}"
    for path in ("/", "/s/app.js"):
        async with client.get(f"{base}{path}?t={token}") as r:
            assert r.status == 403, (path, token)
    ws = await client.ws_connect(f"{base}/ws?t={token}")
    refused = await ws.receive_json(timeout=5)
    assert refused["t"] == "refused" and "not for this table" in refused["text"]
    await ws.close()


def test_tokens_check_any_input_without_raising_anything_but_a_refusal():
    tokens = Tokens()
    for token in ["é", "\udcff", "\x00", b"\xff\xfe", "x" * 10**6, " ", "🎲" * 10]:
        with pytest.raises(TokenRefused):
            tokens.check(token)


async def test_a_message_too_big_or_too_deep_is_refused_in_words(hosted):
    host, client = hosted
    for data in (
        json.dumps({"t": "sync", "pad": "x" * (server.MAX_MESSAGE + 1)}),
        "[" * 100_000 + "]" * 100_000,
        '{"t": "cmd", "with": ' + '{"a": ' * 50 + "1" + "}" * 50 + "}",
    ):
        phone = ScriptPhone(client, host, "p1", "Ann")
        assert (await phone.join())["t"] == "welcome"
        await phone.ws.send_str(data)
        refused = await phone.expect("refused")
        assert "more than a phone ever sends" in refused["text"]
        assert (await phone.ws.receive(timeout=5)).type == aiohttp.WSMsgType.CLOSE
    phone = ScriptPhone(client, host, "p1", "Ann")  # the host goes on serving
    assert (await phone.join())["t"] == "welcome"
    assert (await phone.send(phone.command("add", {"n": 1})))["ok"]


def test_depth_is_counted_outside_strings_only():
    assert not too_deep('{"name": "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["}')
    assert not too_deep('{"t": "cmd", "with": {"values": [[1, 2]]}}')
    assert too_deep("[" * 9 + "]" * 9)
    assert not too_deep('["\\"[[[[[[[[[[[[["]')


async def test_a_lower_number_than_one_applied_is_applied_never_called_done(hosted):
    host, client = hosted
    phone = ScriptPhone(client, host, "p1", "Ann")
    await phone.join()
    two = {**phone.command("add", {"n": 1}), "seq": 2}
    one = {**phone.command("add", {"n": 1}), "seq": 1}
    assert (await phone.send(two))["ok"]
    late = await phone.send(one)  # sent first, arrived second
    assert late["ok"] and not late.get("again")
    assert host.session.state.score == 2
    again = await phone.send(one)  # a resend gets the first reply, and is not run again
    assert again["ok"] and again["again"] and host.session.state.score == 2
    back = ScriptPhone(client, host, "p1", "Ann")
    back.token = phone.token
    await back.join()
    assert back.welcome["seq"] == 2 and back.welcome["done"] == []


async def test_a_number_too_old_to_remember_is_refused_not_called_done(hosted):
    from companion.host.table import REPLIES_KEPT

    host, client = hosted
    host.table.rate = host.table.burst = 1e9
    phone = ScriptPhone(client, host, "p1", "Ann")
    await phone.join()
    for seq in range(2, REPLIES_KEPT + 3):  # number 1 never arrives
        reply = await phone.send({**phone.command("add", {"n": 1}), "seq": seq})
        assert reply["ok"]
    score = host.session.state.score
    late = await phone.send({**phone.command("add", {"n": 1}), "seq": 1})
    assert not late["ok"] and "too old" in late["text"] and not late.get("again")
    assert host.session.state.score == score


async def test_sockets_that_never_say_hello_do_not_lock_out_a_phone(hosted, monkeypatch):
    host, client = hosted
    url = f"http://127.0.0.1:{host.port}/ws?t={host.tokens.join.token}"
    silent = [await client.ws_connect(url) for _ in range(40)]
    phone = ScriptPhone(client, host, "real", "Ann")
    assert (await phone.join())["t"] == "welcome"
    assert len(host.links) <= server.MAX_SOCKETS
    dropped = [ws for ws in silent if (await ws.receive(timeout=5)).type == aiohttp.WSMsgType.TEXT]
    assert len(dropped) >= 40 - server.UNSEATED_PER_ADDRESS
    for ws in silent:
        await ws.close()


async def test_a_socket_that_never_says_hello_is_closed(hosted, monkeypatch):
    host, client = hosted
    monkeypatch.setattr(server, "HELLO_WITHIN", 0.2)
    ws = await client.ws_connect(f"http://127.0.0.1:{host.port}/ws?t={host.tokens.join.token}")
    refused = await ws.receive_json(timeout=5)
    assert refused["t"] == "refused" and "did not say hello" in refused["text"]
    assert not [k for k in host.links if k.phone is None]


async def test_made_up_phones_do_not_fill_the_table(hosted):
    from companion.host.table import MAX_PHONES, UNPLAYED_PER_ADDRESS

    host, client = hosted
    made_up = [ScriptPhone(client, host, f"fake-{n}", "x") for n in range(MAX_PHONES + 4)]
    for phone in made_up:
        assert (await phone.join())["t"] == "welcome"
    phone = ScriptPhone(client, host, "real", "Ann")
    assert (await phone.join())["t"] == "welcome"
    assert (await phone.send(phone.command("add", {"n": 1})))["ok"]
    assert len(host.table.phones) <= UNPLAYED_PER_ADDRESS + 1
    first = await made_up[0].expect("refused")  # the oldest made-up seat gave way, in words
    assert "had not played" in first["text"]
    for fake in made_up:
        await fake.close()


async def test_a_request_from_another_sites_page_is_refused(hosted):
    host, client = hosted
    url = host.join_url
    own = f"http://127.0.0.1:{host.port}"
    async with client.get(url, headers={"Origin": "http://evil.example"}) as r:
        assert r.status == 403
    async with client.get(url, headers={"Origin": own}) as r:
        assert r.status == 200
    async with client.get(url) as r:  # no Origin: an address bar
        assert r.status == 200
    ws_url = f"{own}/ws?t={host.tokens.join.token}"
    with pytest.raises(aiohttp.WSServerHandshakeError) as caught:
        await client.ws_connect(ws_url, origin="http://192.168.1.9:8765")
    assert caught.value.status == 403
    ws = await client.ws_connect(ws_url, origin=own)
    await ws.close()


def test_same_origin_wants_scheme_host_and_port_to_match():
    assert same_origin(None, "10.0.0.2:8765", "https")
    assert same_origin("https://10.0.0.2:8765", "10.0.0.2:8765", "https")
    assert not same_origin("http://10.0.0.2:8765", "10.0.0.2:8765", "https")
    assert not same_origin("https://10.0.0.2:8766", "10.0.0.2:8765", "https")
    assert not same_origin("null", "10.0.0.2:8765", "https")


async def test_wrong_tokens_are_slowed_per_address_without_stopping_the_host(hosted):
    host, client = hosted
    base = f"http://127.0.0.1:{host.port}"
    statuses = []
    for n in range(30):
        async with client.get(f"{base}/?t=guess-{n}") as r:
            statuses.append((r.status, "Too many wrong links" in await r.text()))
    assert statuses[:10] == [(403, False)] * 10  # the first few are only wrong
    assert statuses[10:] == [(403, True)] * 20  # then not even looked at
    async with client.get(host.join_url) as r:  # the right one waits too, from there
        assert r.status == 403 and "wait" in await r.text()
    other = aiohttp.TCPConnector(local_addr=("127.0.0.2", 0))
    async with (
        aiohttp.ClientSession(connector=other) as elsewhere,
        elsewhere.get(host.join_url) as r,
    ):
        assert r.status == 200  # another device is not held up
    host.clock.now += 2.0  # one more guess every two seconds
    async with client.get(host.join_url) as r:
        assert r.status == 200
