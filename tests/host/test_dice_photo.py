"""A phone's photo of its dice over real HTTP on loopback (issue 28): only a seated phone's
own pass sends one, the photo reaches the tablet's reader whole with the phone's name,
and a photo too large, a host taking no photos, or another site is refused in words."""

from __future__ import annotations

from typing import Any

import aiohttp
import pytest

from companion.host import server
from companion.host.server import PhoneHost
from companion.host.tokens import Tokens
from tests.host.phones import ScriptPhone
from tests.host.tablegame import Clock, new_session


@pytest.fixture
async def hosted(tmp_path):
    session = new_session(tmp_path)
    host = PhoneHost(session, tokens=Tokens(Clock(), join_ttl=600))
    await host.start()
    async with aiohttp.ClientSession() as client:
        yield host, client
    await host.stop()
    session.close()


async def post(client: aiohttp.ClientSession, host: PhoneHost, token: str, body: bytes, **kw: Any):
    url = f"http://127.0.0.1:{host.port}/dice-photo?t={token}"
    async with client.post(url, data=body, **kw) as r:
        return r.status, await r.json()


async def test_a_seated_phones_photo_reaches_the_tablets_reader(hosted):
    host, client = hosted
    got: list[tuple[str, bytes]] = []

    async def read(name: str, data: bytes) -> dict[str, Any]:
        got.append((name, data))
        return {"ok": True, "text": "The tablet read 3 and 5."}

    host.dice_photo = read
    phone = ScriptPhone(client, host, "p1", "Ann")
    await phone.join()
    photo = bytes(range(256)) * 1000  # 256 kB: more than a message may be
    assert await post(client, host, phone.token, photo) == (
        200,
        {"ok": True, "text": "The tablet read 3 and 5."},
    )
    assert got == [("Ann", photo)]


async def test_refused_in_words_without_a_seat_a_reader_or_room(hosted, monkeypatch):
    host, client = hosted
    phone = ScriptPhone(client, host, "p1", "Ann")
    await phone.join()
    assert await post(client, host, phone.token, b"photo") == (
        503,
        {"ok": False, "text": "The tablet is not reading dice photos: use the keys."},
    )

    async def read(name: str, data: bytes) -> dict[str, Any]:
        raise AssertionError("a refused photo never reaches the reader")

    host.dice_photo = read
    status, said = await post(client, host, host.tokens.join.token, b"photo")
    assert (status, said["text"]) == (403, "Join the game first: then send the photo.")
    status, said = await post(client, host, "not-a-token", b"photo")
    assert status == 403 and "not for this table" in said["text"]
    monkeypatch.setattr(server, "MAX_PHOTO", 1000)
    assert await post(client, host, phone.token, b"x" * 5000) == (
        413,
        {"ok": False, "text": "That photo is too large for the tablet."},
    )
    url = f"http://127.0.0.1:{host.port}/dice-photo?t={phone.token}"
    elsewhere = {"Origin": "http://elsewhere.example"}
    async with client.post(url, data=b"photo", headers=elsewhere) as r:
        assert r.status == 403 and "only from the tablet's own link" in await r.text()
