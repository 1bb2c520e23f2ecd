"""A tablet restart strands no phone: the seats, the passes, the port and the numbers of
the commands already applied are kept in the session file, so a phone comes back with the
pass it holds, keeps its name and hero, and a command it resends is applied once."""

from __future__ import annotations

import aiohttp

from companion.core.session import Session
from companion.host.server import PhoneHost
from companion.host.table import SEAT_KEY
from tests.host.phones import ScriptPhone
from tests.host.tablegame import TableTiny, new_session


def reopen(path) -> Session:
    """The session as a restarted tablet opens it (the file, with the test's buttons)."""
    session = Session.open(path)
    session.game = TableTiny()
    return session


def added(session: Session) -> int:
    return sum(1 for tx in session.history() for r in tx if r.type == "Added")


async def test_phones_keep_their_pass_seat_and_numbers_across_a_restart(tmp_path):
    session = new_session(tmp_path)
    path = session.path
    host = PhoneHost(session)
    await host.start()
    port, table, join = host.port, host.epoch, host.tokens.join.token
    async with aiohttp.ClientSession() as client:
        ann = ScriptPhone(client, host, "ann", "Ann")
        await ann.join()
        await ann.ws.send_json({"t": "seat", "hero": "Stormbringer"})
        assert (await ann.expect("welcome"))["hero"] == "Stormbringer"
        assert (await ann.send(ann.command("add", {"n": 1})))["ok"]
        unseen = ann.command("add", {"n": 1})
        await ann.ws.send_json(unseen)
        assert (await ann.expect("ack"))["ok"]  # applied; say its reply was lost with the tablet
        ben = ScriptPhone(client, host, "ben", "Ben")
        await ben.join()
        host.remove_phone("ben")
        await host.stop()
        session.close()

        session = reopen(path)
        host = PhoneHost(session)  # port 0: the port this session had
        await host.start()
        try:
            assert host.port == port and host.epoch == table
            back = ScriptPhone(client, host, "ann", "")  # the page sends no name this time
            back.token = ann.token  # the pass it holds, not a new QR code
            welcome = await back.join()
            assert welcome["t"] == "welcome" and welcome["table"] == table
            assert welcome["name"] == "Ann" and welcome["hero"] == "Stormbringer"
            assert welcome["seq"] == 2  # both numbers handled: drop them from the outbox
            again = await back.send(unseen)  # resent anyway: the first reply, not a second add
            assert again["ok"] and again["again"]
            assert session.state.score == 2 and added(session) == 2
            assert (await back.send(back.command("add", {"n": 1})))["ok"]
            assert session.state.score == 3

            gone = ScriptPhone(client, host, "ben", "Ben")
            gone.token = ben.token
            refused = await gone.join()  # told why, never that it is at another table
            assert refused["t"] == "refused" and "took this phone out" in refused["text"]
            late = ScriptPhone(client, host, "cat", "Cat")
            late.token = join  # the QR code scanned just before the restart still works
            assert (await late.join())["t"] == "welcome"
        finally:
            await host.stop()
            session.close()


async def test_what_the_file_keeps_holds_no_phones_pass(tmp_path):
    session = new_session(tmp_path)
    host = PhoneHost(session)
    await host.start()
    try:
        async with aiohttp.ClientSession() as client:
            phone = ScriptPhone(client, host, "ann", "Ann")
            await phone.join()
            await phone.close()
        kept = session.store.meta()
        assert kept[SEAT_KEY + "ann"]["name"] == "Ann"
        assert phone.token not in repr(kept)  # its hash only: a copy of the file lets no one in
    finally:
        await host.stop()
        session.close()


async def test_a_restart_on_a_taken_port_still_serves_on_another(tmp_path):
    session = new_session(tmp_path)
    host = PhoneHost(session)
    await host.start()
    port = host.port
    try:
        fresh = reopen(session.path)
        second = PhoneHost(fresh)  # the kept port, still held by the first host
        await second.start()  # is taken: another one, said in the log
        assert second.port not in (0, port)
        await second.stop()
        fresh.close()
    finally:
        await host.stop()
        session.close()
