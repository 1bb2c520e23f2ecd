"""Phone seats: the phone server's life at the table, without a window (the Phones panel
only shows them)."""

from __future__ import annotations

import asyncio
import socket

import aiohttp
import pytest

from companion.host.seats import PORT, PhoneSeats
from tests.host.phones import ScriptPhone
from tests.host.tablegame import new_session


@pytest.fixture
def session(tmp_path, monkeypatch):
    monkeypatch.setenv("COMPANION_HOME", str(tmp_path / "home"))  # its own certificate
    s = new_session(tmp_path)
    yield s
    s.close()


async def test_seats_open_take_a_phone_and_close(session):
    told: list[str] = []
    seats = PhoneSeats(on_change=lambda: told.append("changed"))
    assert not seats.hosting and seats.join_link() == "" and seats.phones() == []
    assert await seats.start(session, "127.0.0.1", secure=False)
    assert seats.hosting and seats.door is None and seats.host is not None
    assert seats.status.startswith("No local network found")
    link = seats.join_link()
    assert link == seats.host.join_url
    async with aiohttp.ClientSession() as client:
        assert seats.host is not None
        phone = ScriptPhone(client, seats.host, "p1", "Ann")
        assert (await phone.join())["t"] == "welcome"
        assert [(p.name, here) for p, here in seats.phones()] == [("Ann", True)]
        assert told  # a phone coming in is news for the panel
        seats.new_link()
        assert seats.join_link() != link
        seats.remove(phone.id)
        assert seats.phones() == []
    seats.stop()
    assert not seats.hosting and seats.join_link() == ""
    assert seats.status.startswith("Phones are not connected")
    await asyncio.sleep(0)  # the host's stop runs on the loop


async def test_over_https_a_trust_door_leads_in_and_its_code_is_said(session):
    seats = PhoneSeats()
    assert await seats.start(session, "127.0.0.1")
    try:
        assert seats.door is not None
        assert seats.join_link() == seats.door.url(seats.host.tokens.join.token)
        assert seats.door.certificate.fingerprint() in seats.status
    finally:
        seats.stop()
        await asyncio.sleep(0.05)


async def test_a_busy_port_takes_another_and_a_public_address_is_refused(session):
    busy = socket.socket()
    try:
        busy.bind(("127.0.0.1", PORT))
        busy.listen()
    except OSError:
        pass  # already busy: the seats take another port either way
    seats = PhoneSeats()
    try:
        assert await seats.start(session, "127.0.0.1", secure=False)
        assert seats.host is not None and seats.host.port != PORT
    finally:
        seats.stop()
        busy.close()
        await asyncio.sleep(0.05)
    refused = PhoneSeats()
    assert not await refused.start(session, "8.8.8.8", secure=False)
    assert refused.status.startswith("Phones cannot join:") and "local network" in refused.status
    assert not refused.hosting and not refused.starting
