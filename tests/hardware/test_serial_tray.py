"""The serial source against the tray firmware through a real pseudo-terminal, with the
firmware under CPython and under the MicroPython unix port."""

from __future__ import annotations

import asyncio
import logging
import os

import pytest

from companion.table.assignments import Assignments
from companion.table.dice_answers import RequestAnswerer
from hardware.linked import Backoff, DiceSourceError
from hardware.serial_tray import SerialTraySource
from hardware.simulated import open_simulated_source

RUNTIMES = ["cpython", pytest.param("micropython", marks=pytest.mark.slow)]


async def until(condition, timeout=3.0):
    for _ in range(int(timeout / 0.02)):
        if condition():
            return True
        await asyncio.sleep(0.02)
    return condition()


async def next_rolls(source, n, timeout=5.0):
    it = source.rolls().__aiter__()
    return [await asyncio.wait_for(it.__anext__(), timeout) for _ in range(n)]


@pytest.fixture(params=RUNTIMES)
async def tray_and_source(request):
    tray, source = await open_simulated_source(runtime=request.param)
    yield tray, source
    await source.disconnect()
    tray.stop()


async def test_hello_and_dice_list(tray_and_source):
    tray, source = tray_and_source
    st = source.link.state
    assert st.name == "tray-sim" and st.version == 2
    assert "roll" in st.capabilities
    assert st.boot_id == f"{tray.boot_id:04X}"
    assert {d: st.dice[d].faces for d in st.dice} == {d.id: d.faces for d in tray.dice}
    assert source.status == "connected"
    # the dice by the names the tray gives them, for the screens (never their ids)
    assert source.info().die_names == {f"sim-tray:{d.id}": d.name for d in tray.dice}


async def test_rolls_arrive_rolling_then_settled(tray_and_source):
    tray, source = tray_and_source
    tray.roll([3, 5])
    events = await next_rolls(source, 4)
    assert [(e.die_id, e.state, e.face_index) for e in events] == [
        ("sim-tray:1", "rolling", -1),
        ("sim-tray:1", "settled", 3),
        ("sim-tray:2", "rolling", -1),
        ("sim-tray:2", "settled", 5),
    ]
    assert events[0].seq == events[1].seq  # one roll, one roll number
    tray.roll([1])
    again = await next_rolls(source, 2)
    assert again[1].seq == events[1].seq + 1


async def test_crooked_die(tray_and_source):
    tray, source = tray_and_source
    tray.control("crooked 3 2")
    events = await next_rolls(source, 2)
    assert [e.state for e in events] == ["rolling", "crooked"]


async def test_identify_blinks_a_known_die_only(tray_and_source):
    _tray, source = tray_and_source
    assert await source.identify("sim-tray:2") is True
    assert await source.identify("sim-tray:99") is False


async def test_roll_answers_the_session_request(tray_and_source, tiny_session):
    tray, source = tray_and_source
    tiny_session.do("roll", {"count": 2})
    answerer = RequestAnswerer(tiny_session, Assignments({"d6": ["sim-tray:1", "sim-tray:2"]}))
    tray.roll([2, 4])
    messages = [answerer.feed(e) for e in await next_rolls(source, 4)]
    assert messages[:3] == [None, None, None]
    assert "rolled 3, 5" in messages[3]
    assert tiny_session.state.last_roll == [3, 5]
    assert tiny_session.request is None
    assert tiny_session.history()[-1][0].data["by"] == "sim-tray"


async def test_garbage_on_the_wire_is_logged_and_skipped(caplog):
    tray, source = await open_simulated_source()
    try:
        caplog.set_level(logging.WARNING, logger="hardware.tray")
        os.write(tray._master, b"MicroPython v1.24 on 2025-01-01; ESP32\r\n>>> \r\n")
        tray.roll([4])
        events = await next_rolls(source, 2)
        assert events[1].face_index == 4
        assert "does not start with '!'" in caplog.text
        assert source.link.rejected >= 2
    finally:
        await source.disconnect()
        tray.stop()


async def test_unplugged_tray_is_reconnected_and_resynced():
    tray, source = await open_simulated_source()
    source.backoff = Backoff(first=0.05, cap=0.2)
    try:
        tray.roll([1])
        await next_rolls(source, 2)
        tray.unplug()
        tray.roll([2, 3])  # rolled while the cable was out: frames lost on the way
        assert await until(lambda: source.status in ("reconnecting", "lost"))
        tray.replug()
        events = await next_rolls(source, 2, timeout=5)
        # the resync gives each die's last roll once; the die 1 roll seen before is not repeated
        assert sorted((e.die_id, e.state, e.face_index) for e in events) == [
            ("sim-tray:1", "settled", 2),
            ("sim-tray:2", "settled", 3),
        ]
        assert await until(lambda: source.status == "connected")
        assert source.reconnects == 1
        tray.roll([5])
        events = await next_rolls(source, 2)
        assert events[1].face_index == 5
        assert source._queue.empty()
    finally:
        await source.disconnect()
        tray.stop()


async def test_a_port_with_no_tray_says_so_in_words():
    import pty

    master, slave = pty.openpty()
    try:
        source = SerialTraySource(os.ttyname(slave), hello_timeout=0.3)
        with pytest.raises(DiceSourceError, match="no dice tray answered"):
            await source.connect()
        with pytest.raises(DiceSourceError, match="cannot open"):
            await SerialTraySource("/dev/does-not-exist").connect()
    finally:
        os.close(master)
        os.close(slave)


async def test_a_tray_that_falls_silent_is_reconnected():
    """The port stays open but the tray stops talking (frozen firmware): the watchdog
    notices within the silence limit."""
    import pty

    from firmware.common import wire

    master, slave = pty.openpty()
    os.set_blocking(master, False)
    source = SerialTraySource(
        os.ttyname(slave), silence_limit=0.4, hello_timeout=2, backoff=Backoff(first=5, cap=5)
    )

    async def play_tray_once():
        dec = wire.LineDecoder()
        seq = 0
        while True:
            await asyncio.sleep(0.01)
            try:
                data = os.read(master, 4096)
            except BlockingIOError:
                continue
            for frame in dec.feed(data):
                reply = {
                    "HELLO": (wire.HELLO, ("1", "00AA", "frozen", "0.1", "roll")),
                    "SYNC": (wire.SYNCED, ("0",)),
                }.get(frame.kind)
                if reply:
                    os.write(master, wire.encode(seq, *reply))
                    seq += 1
                    if reply[0] == wire.SYNCED:
                        return

    player = asyncio.create_task(play_tray_once())
    try:
        await source.connect()
        await player
        assert source.status == "connected"
        for _ in range(40):
            if source.status != "connected":
                break
            await asyncio.sleep(0.05)
        assert source.status == "reconnecting"
    finally:
        await source.disconnect()
        os.close(master)
        os.close(slave)


async def test_the_ui_contract_names():
    """What the UI helper builds against (briefs/dice-ui-contract.md)."""
    tray, source = await open_simulated_source()
    try:
        assert os.path.exists(tray.port) and tray.port.startswith("/dev/pts/")
        faces = tray.roll(count=3)  # random faces
        assert len(faces) == 3
        assert all(0 <= f < d.faces for f, d in zip(faces, tray.dice, strict=False))
        settled = [e for e in await next_rolls(source, 6) if e.state == "settled"]
        assert [e.face_index for e in settled] == faces
        with pytest.raises(ValueError, match="has faces 0-5"):
            tray.roll([6])
    finally:
        await source.disconnect()
        tray.stop()


async def test_named_dice_roll_in_turn_and_a_die_named_twice_rolls_twice():
    tray, source = await open_simulated_source()
    try:
        faces = tray.roll(dice=["4", "1", "1"])  # the fate d8, then die 1 twice
        assert 0 <= faces[0] < 8 and all(0 <= f < 6 for f in faces[1:])
        settled = [e for e in await next_rolls(source, 6) if e.state == "settled"]
        assert [(e.die_id, e.face_index) for e in settled] == list(
            zip(["sim-tray:4", "sim-tray:1", "sim-tray:1"], faces, strict=True)
        )
        assert settled[1].seq != settled[2].seq  # two rolls, not a repeat
        with pytest.raises(ValueError, match="no die 9"):
            tray.roll(dice=["9"])
        with pytest.raises(ValueError, match="2 dice roll, but 1 faces"):
            tray.roll([1], dice=["1", "2"])
    finally:
        await source.disconnect()
        tray.stop()


@pytest.mark.parametrize("runtime", RUNTIMES)
async def test_floor_sensor_holds_results_until_the_tray_is_quiet(runtime):
    """A die reports its face while others still bounce: the result waits for a quiet floor."""
    tray, source = await open_simulated_source(runtime=runtime, floor=True)
    try:
        tray.control("floor 200")  # dice hit the floor
        tray.roll([2])
        (rolling,) = await next_rolls(source, 1)
        assert rolling.state == "rolling"
        await asyncio.sleep(0.2)
        assert source._queue.empty()  # held back
        tray.control("floor 0")
        await asyncio.sleep(0.45)  # the quiet window is 350 ms
        tray.control("floor 0")
        (settled,) = await next_rolls(source, 1)
        assert (settled.state, settled.face_index) == ("settled", 2)
    finally:
        await source.disconnect()
        tray.stop()


@pytest.mark.parametrize("runtime", RUNTIMES)
async def test_a_tray_rebooted_with_its_hello_lost_is_heard_at_once(runtime, caplog):
    """Issue 17: after a reboot whose HELLO was lost the tray counts from 0 again; every
    frame was dropped as out of order (hours of deafness, heartbeats keeping the panel
    "connected").  The count going back now restarts it at once."""
    tray, source = await open_simulated_source(runtime=runtime)
    try:
        for face in (1, 2, 3):  # the host's count is well past what a new boot starts at
            tray.roll([face])
            await next_rolls(source, 2)
        tray.reboot(0x0BAD, hello_lost=True)
        assert await until(lambda: source.link.state.boot_id == "0BAD")  # it asked who
        tray.roll([4])
        rolling, settled = await next_rolls(source, 2, timeout=3)
        assert (settled.die_id, settled.state, settled.face_index) == ("sim-tray:1", "settled", 4)
        assert source.status == "connected"
        assert "taking the tray's count afresh" in caplog.text
    finally:
        await source.disconnect()
        tray.stop()


async def test_one_valid_frame_far_ahead_does_not_deafen_the_host(caplog):
    """A frame with a sequence number far ahead (checked, yet not the tray's count) must
    not make every later frame look out of order."""
    from firmware.common import wire

    tray, source = await open_simulated_source()
    try:
        tray.roll([1])
        await next_rolls(source, 2)
        ahead = (source.link.seq.last + 30000) % wire.SEQ_MOD
        os.write(tray._master, wire.encode(ahead, wire.HEARTBEAT, ("5",)))
        assert await until(lambda: f"lost before {ahead}" in caplog.text)  # taken in
        tray.roll([5])
        rolling, settled = await next_rolls(source, 2, timeout=3)
        assert (settled.state, settled.face_index) == ("settled", 5)
        assert "came after frame" in caplog.text
        tray.roll([2])  # and on as before
        assert (await next_rolls(source, 2))[1].face_index == 2
        assert source._queue.empty()
    finally:
        await source.disconnect()
        tray.stop()


def test_a_heartbeat_whose_uptime_goes_back_shows_the_tray_restarted(caplog):
    """A reboot whose new count happens to run ahead of the old one (the host's count was
    near the top of the circle): the uptime going back gives it away, and the host asks
    the tray who it is and for everything it has."""
    from firmware.common import wire
    from hardware.tray_link import TrayLink

    sent = []
    link = TrayLink("t", lambda kind, fields: sent.append(kind) or 0)
    link.handle(wire.Frame(65530, wire.HELLO, ("1", "00AA", "tray", "0.1", "roll")))
    link.priming = False
    link.handle(wire.Frame(65531, wire.HEARTBEAT, ("5000",)))
    assert sent == []
    link.handle(wire.Frame(0, wire.HEARTBEAT, ("0",)))  # ahead on the circle, yet it restarted
    assert sent[-2:] == [wire.HELLO, wire.SYNC]
    assert "uptime went back from 5000 s to 0 s" in caplog.text
    link.handle(wire.Frame(1, wire.HELLO, ("1", "0BAD", "tray", "0.1", "roll")))
    assert link.state.boot_id == "0BAD"
    event = link.handle(wire.Frame(2, wire.ROLL, ("1", "1", "S", "3")))
    assert (event.die_id, event.face_index) == ("t:1", 3)
