"""Pixels dice, GoDice and the tray over BLE, through the real BleakClient and
BleakScanner with the in-memory radio passed via bleak's `backend=`."""

from __future__ import annotations

import asyncio
import logging

import pytest
from bleak import BleakClient, BleakScanner

from firmware.common import godice, pixels
from hardware.ble_tray import BleTraySource
from hardware.fake_devices import FakeBleTray, FakeGoDice, FakePixelsDie
from hardware.fake_radio import Air, MemoryClient, MemoryScanner
from hardware.godice import GoDiceSource
from hardware.linked import Backoff, DiceSourceError
from hardware.pixels import PixelsSource

PIXELS_ADDR = "C0:FF:EE:00:00:01"
GODICE_ADDR = "C0:FF:EE:00:00:02"


@pytest.fixture
def air():
    return Air()


def radio(air):
    return dict(
        client_backend=MemoryClient,
        scanner_backend=MemoryScanner,
        radio_options={"air": air},
        backoff=Backoff(first=0.02, cap=0.1),
    )


async def events(source, n, timeout=3.0):
    it = source.rolls().__aiter__()
    return [await asyncio.wait_for(it.__anext__(), timeout) for _ in range(n)]


async def until(condition, timeout=3.0):
    for _ in range(int(timeout / 0.01)):
        if condition():
            return True
        await asyncio.sleep(0.01)
    return condition()


async def test_the_real_bleak_classes_run_on_the_memory_radio(air):
    die = FakePixelsDie(air, PIXELS_ADDR)
    found = await BleakScanner.discover(0.1, return_adv=True, backend=MemoryScanner, air=air)
    device, adv = found[PIXELS_ADDR]
    assert pixels.SERVICE in adv.service_uuids and 0x0D39 in adv.manufacturer_data
    async with BleakClient(device, backend=MemoryClient, air=air) as client:
        got = []
        await client.start_notify(pixels.NOTIFY, lambda _c, d: got.append(bytes(d)))
        await client.write_gatt_char(pixels.WRITE, pixels.who_are_you(), response=False)
        await until(lambda: got)
        assert got[0] == die.i_am_a_die()
        assert client.mtu_size == 23


@pytest.mark.parametrize("legacy", [False, True])
async def test_pixels_rolls_with_either_uuid_set(air, legacy):
    die = FakePixelsDie(air, PIXELS_ADDR, die_type=7, legacy=legacy)
    source = PixelsSource(**radio(air))
    found = await source.discover(0.1)
    assert [(d.id, d.kind, d.battery) for d in found] == [(PIXELS_ADDR, "pixels", 87)]
    await source.connect()
    try:
        assert source.die_info.die_type == "d20" and source.die_info.pixel_id == 0x5F3A0001
        assert source.die_id == "pixels:5f3a0001"
        assert (source.info().name, source.info().dice) == ("Pixels d20", ["pixels:5f3a0001"])
        own = "Pixels d20" if legacy else "Red d20"  # only the chunked hello has its name
        assert source.info().die_names == {"pixels:5f3a0001": own}
        assert await source.battery() == 87
        die.roll(17)
        got = await events(source, 2)
        assert [(e.state, e.face_index) for e in got] == [("rolling", -1), ("settled", 17)]
        assert got[0].seq == got[1].seq == 1
        die.roll(3, crooked=True)
        got = await events(source, 2)
        assert got[1].state == "crooked"
        assert await source.identify(source.die_id) is True
    finally:
        await source.disconnect()


async def test_pixels_d10_zero_face_is_ten_and_old_d6_order(air):
    d10_die = FakePixelsDie(air, PIXELS_ADDR, die_type=4)
    old_d6 = FakePixelsDie(
        air, "C0:FF:EE:00:00:09", die_type=2, legacy=True, pixel_id=7, build_s=1_700_000_000
    )
    d10 = PixelsSource(PIXELS_ADDR, **radio(air))
    d6 = PixelsSource("C0:FF:EE:00:00:09", **radio(air))
    await d10.connect()
    await d6.connect()
    try:
        d10_die.roll(0)  # the "0" face
        ev = (await events(d10, 2))[1]
        assert ev.face_index == 9  # printed 0 on a d10 reads 10
        old_d6.land(1)  # an old d6's index 1 is the face printed 5 (faceFromIndex)
        (ev,) = await events(d6, 1)
        assert ev.face_index == 4
    finally:
        await d10.disconnect()
        await d6.disconnect()


# pixels-js DiceUtils.faceFromIndex (packages/pixels-core-animation/src/DiceUtils.ts), for
# firmware built on or before FW_2023_11_17 = 1704150000000 ms ("bad normals"):
#   d4: index 3 -> 2, 2 -> 3, 5 -> 4, any other -> 1
#   d6: index 4 -> 2, 3 -> 3, 2 -> 4, 1 -> 5, any other -> index + 1
# and for later firmware (and every other die) d10 -> index, d00 -> index * 10, else + 1.
VENDOR_OLD_D6 = {0: 1, 1: 5, 2: 4, 3: 3, 4: 2, 5: 6}
VENDOR_OLD_D4 = {0: 1, 1: 1, 2: 3, 3: 2, 4: 1, 5: 4}
BAD_NORMALS_S = 1704150000  # the last second the vendor reads as old


@pytest.mark.parametrize("built, new", [(BAD_NORMALS_S, False), (BAD_NORMALS_S + 1, True)])
def test_pixels_faces_are_the_vendors_faces(built, new):
    for index in range(6):
        d6 = index + 1 if new else VENDOR_OLD_D6[index]
        assert pixels.face_value("d6", index, built) == d6
        assert pixels.face_index("d6", index, built) == d6 - 1
        d4 = index + 1 if new else VENDOR_OLD_D4[index]
        assert pixels.face_value("d4", index, built) == d4
        # the vendor remaps only d4 and d6, not the pipped or fudge d6
        assert pixels.face_value("d6pipped", index, built) == index + 1
    assert [pixels.face_value("d10", i, built) for i in (0, 9)] == [0, 9]
    assert [pixels.face_value("d00", i, built) for i in (0, 9)] == [0, 90]
    assert pixels.face_value("d6", 1, 0) == 2  # no build date known: not old firmware


async def test_an_old_d6_reads_every_face_as_the_vendor_does(air):
    die = FakePixelsDie(air, PIXELS_ADDR, die_type=2, legacy=True, build_s=1_700_000_000)
    source = PixelsSource(PIXELS_ADDR, **radio(air))
    await source.connect()
    try:
        read = []
        for index in range(6):
            die.roll(index)
            read.append((await events(source, 2))[1].face_index + 1)
        assert read == [VENDOR_OLD_D6[i] for i in range(6)]
    finally:
        await source.disconnect()


@pytest.mark.parametrize("legacy", [True, False])
async def test_a_2023_die_saying_type_0_is_known_by_its_leds(air, legacy):
    """pixels-js Pixel.ts: dieType "unknown" in iAmADie -> DiceUtils.estimateDieType(
    ledCount) (6 -> d6, 20 -> d20, 21 -> d6pipped, ...)."""
    die = FakePixelsDie(
        air, PIXELS_ADDR, die_type=0, led_count=6, legacy=legacy, build_s=1_690_000_000
    )
    source = PixelsSource(PIXELS_ADDR, **radio(air))
    await source.connect()
    try:
        assert source.die_info.die_type == "d6" and source.die_info.faces == 6
        for index in (0, 1, 5, 2):  # every roll answers, not only the first
            die.roll(index)
            rolling, settled = await events(source, 2)
            assert (settled.state, settled.face_index) == ("settled", VENDOR_OLD_D6[index] - 1)
        assert source.rejected == 0
    finally:
        await source.disconnect()


@pytest.mark.parametrize(
    "leds, die_type",
    [
        (4, "d4"),
        (6, "d6"),
        (8, "d8"),
        (10, "d10"),
        (12, "d12"),
        (20, "d20"),
        (21, "d6pipped"),
        (7, "unknown"),
        (0, "unknown"),
    ],
)
def test_type_0_dice_take_the_vendors_estimate(leds, die_type):
    info = pixels.DieInfo("unknown", 1, 1_690_000_000, 1, 0, 50, led_count=leds)
    assert info.die_type == die_type
    assert pixels.DieInfo("d8", 1, 0, 1, 0, 50, led_count=6).die_type == "d8"  # said: kept


async def test_a_pixels_die_set_down_by_hand_is_not_a_roll(air):
    """Issue 26: onFace (roll state 5, firmware from November 2024) was read as crooked.
    The vendor's meaning (pixels-js PixelRollState.ts): "not moving and ... either never
    moved or didn't move enough to trigger a roll"; its app counts a roll on "rolled"
    alone.  So a die picked up and put down answers nothing (neither a result nor "roll
    again"), and its next real roll is one roll with a number of its own."""
    die = FakePixelsDie(air, PIXELS_ADDR)
    source = PixelsSource(PIXELS_ADDR, **radio(air))
    await source.connect()
    try:
        die.send(bytes([3, 2, 4]))  # handling: picked up
        die.land(7, state=5)  # and put down on the 8
        die.land(2, state=5)  # turned by hand to the 3
        die.roll(7)  # then rolled for real
        got = await events(source, 3)
        assert [(e.state, e.face_index, e.seq) for e in got] == [
            ("rolling", -1, 1),  # the hand starts a roll, as the vendor's "Rolling..."
            ("rolling", -1, 2),  # nothing came of it; the real roll is the next one
            ("settled", 7, 2),
        ]
        die.land(7, state=5)  # still, on the face it rolled: nothing new
        die.roll(3)
        assert [(e.state, e.face_index) for e in await events(source, 2)] == [
            ("rolling", -1),
            ("settled", 3),
        ]
        assert source.rejected == 0 and source._queue.empty()
    finally:
        await source.disconnect()


@pytest.mark.parametrize(
    "code, answer",
    [(0, None), (1, "settled"), (2, "rolling"), (3, "rolling"), (4, "crooked"), (5, "rested")],
)
def test_each_pixels_roll_state_means_what_the_vendor_says(code, answer):
    """unknown, rolled (a roll: the answer), handling and rolling (a roll begins),
    crooked (a roll that needs rolling again), onFace (lying still: no answer)."""
    info = pixels.DieInfo("d20", 1, 1_730_000_000, 1, 0, 50)
    state, face = pixels.reading(info, code, 11)
    assert state == answer
    assert face == (11 if answer in ("settled", "crooked", "rested") else -1)


async def test_a_pixels_die_met_lying_on_a_face_is_not_a_roll_when_asked_again(air):
    """Connected to a die lying still (iAmADie says onFace): after a reconnection its
    requestRollState answer (onFace, the same face) is no roll made while away."""
    die = FakePixelsDie(air, PIXELS_ADDR)
    die.state, die.face = 5, 12
    source = PixelsSource(PIXELS_ADDR, **radio(air))
    await source.connect()
    try:
        die.land(12, state=5)
        die.land(4, state=5)  # turned by hand
        die.roll(9)
        got = await events(source, 2)
        assert [(e.state, e.face_index) for e in got] == [("rolling", -1), ("settled", 9)]
    finally:
        await source.disconnect()


async def test_a_six_led_die_before_the_tilt_fix_is_not_called_crooked(air):
    """pixels-js Pixel._updateRoll: ledCount 6, firmware before FW_2024_05_22, "crooked"
    -> "rolled" (a slightly tilted accelerometer)."""
    early = FakePixelsDie(air, PIXELS_ADDR, die_type=2, build_s=1_716_382_799)
    source = PixelsSource(PIXELS_ADDR, **radio(air))
    await source.connect()
    try:
        early.roll(2, crooked=True)
        assert (await events(source, 2))[1].state == "settled"
    finally:
        await source.disconnect()
    later = FakePixelsDie(air, "C0:FF:EE:00:00:09", die_type=2, build_s=1_716_382_800)
    source = PixelsSource("C0:FF:EE:00:00:09", **radio(air))
    await source.connect()
    try:
        later.roll(2, crooked=True)
        assert (await events(source, 2))[1].state == "crooked"
    finally:
        await source.disconnect()


async def test_pixels_repeats_are_suppressed_and_garbage_is_logged(air, caplog):
    die = FakePixelsDie(air, PIXELS_ADDR)
    source = PixelsSource(PIXELS_ADDR, **radio(air))
    await source.connect()
    try:
        caplog.set_level(logging.WARNING, logger="hardware.ble")
        die.roll(4)
        die.land(4)  # the same result again (rolled, face 4)
        die.send(bytes([3, 9]))  # truncated rollState
        die.send(bytes([34, 250, 0]))  # a battery level no battery has
        die.send(bytes([3, 5, 44]))  # a face a d20 does not have
        die.roll(6)
        got = await events(source, 4)
        assert [(e.state, e.face_index, e.seq) for e in got] == [
            ("rolling", -1, 1),
            ("settled", 4, 1),
            ("rolling", -1, 2),
            ("settled", 6, 2),
        ]
        assert source.rejected == 3
        assert "rollState must be 3 bytes" in caplog.text
        assert "not on a d20" in caplog.text
    finally:
        await source.disconnect()


async def test_pixels_reconnects_with_backoff_and_resyncs(air):
    die = FakePixelsDie(air, PIXELS_ADDR)
    source = PixelsSource(PIXELS_ADDR, **radio(air))
    await source.connect()
    try:
        die.roll(2)
        await events(source, 2)
        die.peripheral.fail_connects = 1  # BlueZ's transient abort, once
        air.remove(PIXELS_ADDR)  # out of range
        assert await until(lambda: source.status in ("reconnecting", "lost"))
        die.state, die.face = 1, 11  # rolled while out of range
        air.add(die.peripheral)
        (ev,) = await events(source, 1, timeout=5)
        assert (ev.state, ev.face_index) == ("settled", 11)
        assert await until(lambda: source.status == "connected")
        assert die.peripheral.connects == 2
        # reconnecting again with nothing new delivers nothing
        die.peripheral.drop()
        assert await until(lambda: source.status == "connected" and die.peripheral.connects == 3)
        await asyncio.sleep(0.1)
        assert source._queue.empty()
    finally:
        await source.disconnect()


async def test_pixels_not_in_range_says_so(air):
    source = PixelsSource("C0:FF:EE:99:99:99", **radio(air))
    source.scan_timeout = 0.1
    with pytest.raises(DiceSourceError, match="not in range"):
        await source.connect()


@pytest.mark.parametrize(
    "shell, xyz, face_index",
    [
        ("d6", (-64, 0, 0), 0),
        ("d6", (60, 5, -3), 5),
        ("d20", (64, 0, 22), 19),
        ("d10", (0, 22, 64), 0),
        ("d10", (-42, -42, -42), 8),
        ("d8", (-20, -60, -20), 7),
    ],
)
async def test_godice_face_from_the_vector_for_its_shell(air, shell, xyz, face_index):
    die = FakeGoDice(air, GODICE_ADDR)
    source = GoDiceSource(shell=shell, **radio(air))
    await source.connect()
    try:
        die.roll(xyz)
        got = await events(source, 2)
        assert [(e.state, e.face_index) for e in got] == [("rolling", -1), ("settled", face_index)]
        assert got[1].die_id == f"godice:{GODICE_ADDR}"
        assert await until(lambda: source.battery_level == 64 and source.colour == "green")
    finally:
        await source.disconnect()


async def test_godice_tilted_or_turned_by_hand_asks_for_a_reroll(air, caplog):
    die = FakeGoDice(air, GODICE_ADDR)
    source = GoDiceSource(GODICE_ADDR, shell="d6", **radio(air))
    await source.connect()
    try:
        die.roll((40, 40, 0), prefix=b"TS")
        die.send(b"Xyz")
        die.roll((-64, 0, 0), prefix=b"FS")
        got = await events(source, 4)
        assert [e.state for e in got] == ["rolling", "crooked", "rolling", "crooked"]
        assert "not one this app knows" in caplog.text
        assert await source.identify(source.die_id)
        assert await until(lambda: die.pulses)
    finally:
        await source.disconnect()


def test_godice_shell_is_checked():
    with pytest.raises(ValueError, match="not a GoDice shell"):
        GoDiceSource(shell="d7")


def test_godice_ties_go_to_the_first_vector():
    # halfway between face 1 (-64,0,0) and face 2 (0,0,64): the first entry wins
    assert godice.face_value("d6", -32, 0, 32) == 1


async def test_tray_over_ble(air):
    tray = FakeBleTray(air)
    tray.app.die_rolling("1")
    tray.app.die_result("1", 12)  # before the app listened: not delivered
    source = BleTraySource(**radio(air))
    await source.connect()
    try:
        st = source.link.state
        assert st.boot_id == "0B0B" and set(st.dice) == {"1", "2"}
        tray.app.die_rolling("2")
        tray.app.die_result("2", 4)
        got = await events(source, 2)
        assert [(e.die_id, e.state, e.face_index) for e in got] == [
            ("tray-ble:2", "rolling", -1),
            ("tray-ble:2", "settled", 4),
        ]
        assert await source.identify("tray-ble:1") is True and tray.blinked == ["1"]
        # out of range; a roll happens meanwhile; back in range: resync delivers it once
        tray.peripheral.drop()
        tray.app.die_rolling("1")
        tray.app.die_result("1", 7)
        (ev,) = await events(source, 1, timeout=5)
        assert (ev.die_id, ev.face_index) == ("tray-ble:1", 7)
        assert await until(lambda: source.status == "connected")
        await asyncio.sleep(0.1)
        assert source._queue.empty()
    finally:
        await source.disconnect()


@pytest.mark.parametrize("die_kind", ["pixels onFace", "godice FS", "godice MS"])
async def test_a_die_set_down_by_hand_answers_nothing_whichever_kind(air, tiny_session, die_kind):
    """One policy (docs/dice.md): a die that comes to rest without a roll (a Pixels die's
    onFace, a GoDice's fake or moved stable) is not a roll: nothing is recorded; the roll
    that follows answers.  A GoDice says it was moved by hand ("roll it again"); a Pixels
    die's onFace is the die lying still as the vendor means it, never "crooked" (issue
    26), so the request simply waits."""
    from companion.table.dice_answers import RequestAnswerer

    if die_kind.startswith("pixels"):
        pixels_die = FakePixelsDie(air, PIXELS_ADDR, die_type=2)
        source = PixelsSource(PIXELS_ADDR, **radio(air))

        def by_hand():
            pixels_die.send(bytes([3, 2, 5]))  # handling
            pixels_die.land(5, state=5)

        def roll():
            pixels_die.roll(3)
    else:
        godice_die = FakeGoDice(air, GODICE_ADDR)
        source = GoDiceSource(GODICE_ADDR, shell="d6", **radio(air))

        def by_hand():
            godice_die.roll((64, 0, 0), prefix=die_kind[-2:].encode())  # the 6

        def roll():
            godice_die.roll((0, -64, 0))  # the 4

    tiny_session.do("roll", {"count": 1})
    answerer = RequestAnswerer(tiny_session)
    await source.connect()
    try:
        by_hand()
        pixels = die_kind.startswith("pixels")
        messages = [answerer.feed(e) for e in await events(source, 1 if pixels else 2)]
        if pixels:
            assert messages == [None]  # handling began a roll; onFace delivered nothing
        else:
            assert messages[-1].endswith("landed crooked or was set down by hand: roll it again")
        assert tiny_session.request is not None and tiny_session.state.last_roll != [6]
        roll()
        got = await events(source, 2)
        assert [e.state for e in got] == ["rolling", "settled"]
        assert answerer.feed(got[1]) is not None
        assert tiny_session.state.last_roll == [4]
    finally:
        await source.disconnect()
