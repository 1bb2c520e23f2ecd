"""Fuzzing the decoders: garbage, split and overlong lines, bad checksums, repeated and
out-of-order sequence numbers, a device vanishing mid-frame.  Nothing may crash, no
corrupt frame may be accepted, and every rejection is logged in words."""

from __future__ import annotations

import logging

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from firmware.common import gatt, wire
from hardware.ble import RollTracker
from hardware.tray_link import TrayLink

# `make test` derandomizes every property test (tests/hypothesis_profiles.py): the same
# examples every run, so a failure is a bug found for good, never a coin toss; `make fuzz`
# hunts at random.  The exhaustive tests below keep the power a random search would add.
FUZZ = settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)

dice = st.sampled_from(["1", "2", "3", "12"])
roll_fields = st.tuples(
    dice, st.integers(0, 65535), st.sampled_from("RSC"), st.integers(0, 19)
).map(lambda t: (t[0], str(t[1]), t[2], "-" if t[2] == "R" and t[3] == 0 else str(t[3])))
frames = st.one_of(
    st.tuples(st.just(wire.ROLL), roll_fields),
    st.tuples(st.just(wire.HEARTBEAT), st.tuples(st.integers(0, 10**6).map(str))),
    st.tuples(
        st.just(wire.DIE),
        st.tuples(
            dice,
            st.sampled_from(["pixels", "godice"]),
            st.sampled_from(["6", "8", "10", "20"]),
            st.text("abcXYZ_-", min_size=1, max_size=10),
        ),
    ),
    st.tuples(st.just(wire.BATTERY), st.tuples(dice, st.integers(0, 100).map(str))),
)


def split_points(data, cuts):
    cuts = sorted({c % (len(data) + 1) for c in cuts})
    pieces, last = [], 0
    for c in cuts:
        pieces.append(data[last:c])
        last = c
    pieces.append(data[last:])
    return pieces


@FUZZ
@given(st.binary(max_size=600), st.lists(st.integers(0, 600), max_size=8))
def test_garbage_never_crashes_and_yields_only_checked_frames(data, cuts):
    dec = wire.LineDecoder()
    for piece in split_points(data, cuts):
        for item in dec.feed(piece):
            assert isinstance(item, wire.Frame | wire.Reject)
            if isinstance(item, wire.Reject):
                assert item.reason  # always says why
            else:
                line = wire.encode(item.seq, item.kind, item.fields)
                assert line.rstrip(b"\n") in data.replace(b"\r", b"")


# One frame of each type, and checksums with hex letters in every place (the lower-case
# spelling hypothesis found hid in those).
CORPUS = [
    wire.encode(110, wire.HEARTBEAT, ("90",)),  # *5AF3
    wire.encode(0, wire.HELLO, ("1", "00AA", "tray", "0.1.0", "roll,battery,blink")),
    wire.encode(65535, wire.ROLL, ("12", "65535", "S", "19")),
    wire.encode(7, wire.ROLL, ("1", "2", "R", "-")),
    wire.encode(40000, wire.ROLL, ("3", "9", "C", "0")),
    wire.encode(9, wire.DIE, ("2", "pixels", "20", "Pix-Y_1")),
    wire.encode(10, wire.GONE, ("2",)),
    wire.encode(11, wire.BATTERY, ("tray", "100")),
    wire.encode(12, wire.ACK, ("301",)),
    wire.encode(13, wire.ERROR, ("302", "unknown-die")),
    wire.encode(14, wire.SYNCED, ("3",)),
    wire.encode(15, wire.SYNC),
    wire.encode(16, wire.BLINK, ("4",)),
]


def test_the_corpus_has_hex_letters_in_every_checksum_place():
    sums = [line[-5:-1].decode() for line in CORPUS]
    assert all(any(s[i] in "ABCDEF" for s in sums) for i in range(4)), sums


@pytest.mark.parametrize("line", CORPUS, ids=lambda line: line[:12].decode())
def test_every_byte_of_a_frame_changed_to_every_value_is_never_accepted(line):
    """Exhaustive, so the same answer every run: each byte but the newline, each of the
    other 254 values it could take, read alone and after a good frame."""
    good = wire.encode(1, wire.HEARTBEAT, ("1",))
    for pos in range(len(line) - 1):
        for new in range(256):
            if new in (line[pos], 0x0A):
                continue
            bad = line[:pos] + bytes([new]) + line[pos + 1 :]
            for item in wire.LineDecoder().feed(good + bad):
                if isinstance(item, wire.Frame):
                    assert item == wire.Frame(1, wire.HEARTBEAT, ("1",)), (pos, new, bad)


@FUZZ
@given(
    st.lists(st.tuples(st.integers(0, 65535), frames), min_size=1, max_size=12),
    st.data(),
)
def test_one_corrupt_byte_is_never_accepted(items, data):
    lines = [wire.encode(seq, kind, fields) for seq, (kind, fields) in items]
    victim = data.draw(st.integers(0, len(lines) - 1))
    line = bytearray(lines[victim])
    pos = data.draw(st.integers(0, len(line) - 2))  # keep the newline
    new = data.draw(st.integers(0, 255).filter(lambda b: b != line[pos] and b != 0x0A))
    line[pos] = new
    lines[victim] = bytes(line)
    stream = b"".join(lines)
    cuts = data.draw(st.lists(st.integers(0, len(stream)), max_size=6))
    dec = wire.LineDecoder()
    got = []
    for piece in split_points(stream, cuts):
        got += [i for i in dec.feed(piece) if isinstance(i, wire.Frame)]
    originals = [
        wire.Frame(seq, kind, tuple(wire.clean_field(f) for f in fields))
        for seq, (kind, fields) in items
    ]
    expected = originals[:victim] + originals[victim + 1 :]
    # a `!` written into a frame may cut it short; then the rest of that line is rejected
    assert got == expected


@FUZZ
@given(
    st.lists(st.tuples(st.integers(0, 65535), frames), max_size=8),
    st.integers(1, 60),
    st.lists(st.tuples(st.integers(0, 65535), frames), max_size=8),
)
def test_device_vanishing_mid_frame(before, cut, after):
    dec = wire.LineDecoder()
    for seq, (kind, fields) in before:
        dec.feed(wire.encode(seq, kind, fields))
    half = wire.encode(1, wire.ROLL, ("1", "2", "S", "3"))[:cut]
    dec.feed(half)
    dropped = dec.reset()
    # the unfinished frame is what gets dropped (a whole one was decoded already)
    assert dropped == (b"" if half.endswith(b"\n") else half)
    got = []
    for seq, (kind, fields) in after:
        got += dec.feed(wire.encode(seq, kind, fields))
    assert [(f.seq, f.kind) for f in got] == [(s, k) for s, (k, _) in after]


@FUZZ
@given(st.text(alphabet="!0123456789 ROLLSBHDIE*ABCDEF-\r\n", max_size=300))
def test_near_miss_text(text):
    for item in wire.LineDecoder().feed(text.encode()):
        if isinstance(item, wire.Frame):
            assert wire.encode(item.seq, item.kind, item.fields).rstrip(b"\n") in text.encode()


def test_overlong_line_in_pieces_is_skipped_once():
    dec = wire.LineDecoder()
    out = []
    for _ in range(10):
        out += dec.feed(b"!" + b"7" * 50)
    out += dec.feed(b"\n" + wire.encode(3, wire.HEARTBEAT, ("1",)))
    assert [type(i).__name__ for i in out] == ["Reject", "Frame"]


@FUZZ
@given(st.binary(max_size=40))
def test_ble_garbage_never_crashes(data):
    item = gatt.decode(data)
    assert isinstance(item, wire.Frame | wire.Reject)
    if isinstance(item, wire.Frame):
        assert gatt.encode(item.seq, item.kind, item.fields) == data


@FUZZ
@given(st.tuples(st.integers(0, 65535), frames), st.data())
def test_ble_flipped_byte_is_never_accepted(item, data):
    seq, (kind, fields) = item
    if kind == wire.DIE:
        return  # BLE carries no die names
    packet = bytearray(gatt.encode(seq, kind, fields))
    pos = data.draw(st.integers(0, len(packet) - 1))
    packet[pos] ^= data.draw(st.integers(1, 255))
    assert isinstance(gatt.decode(bytes(packet)), wire.Reject)


@FUZZ
@given(st.lists(st.tuples(st.integers(0, 40), roll_fields), max_size=40))
def test_tray_link_sequences_never_deliver_twice(caplog, items):
    caplog.clear()
    caplog.set_level(logging.WARNING, logger="hardware.tray")
    sent = []
    link = TrayLink("t", lambda kind, fields: sent.append(kind) or 0)
    link.handle(wire.Frame(0, wire.HELLO, ("1", "00AA", "tray", "0.1", "roll")))
    link.priming = False
    delivered = []
    for seq, fields in items:
        event = link.handle(wire.Frame(seq, wire.ROLL, fields))
        if event is not None:
            delivered.append((event.die_id, event.seq, event.state))
    # each (die, roll number, state) at most once in a row, and the rejections were logged
    for a, b in zip(delivered, delivered[1:], strict=False):
        assert not (a[0] == b[0] and a == b)
    assert link.rejected == len([r for r in caplog.records if "ignored a frame" in r.message])
    # One wire never reorders: only a repeat of the last number is dropped; a number that
    # goes back restarts the count (the tray rebooted, or a frame was misread ahead)
    accepted_seqs = []
    last = 0
    for seq, _ in items:
        if seq != last:
            accepted_seqs.append(seq)
            last = seq
    assert len(delivered) <= len(accepted_seqs)
    # and never deaf: whatever came before, the next new rolls are heard at once
    start = (last + 1 + len(items)) % wire.SEQ_MOD if items else 7
    heard = [
        link.handle(
            wire.Frame((start + i) % wire.SEQ_MOD, wire.ROLL, ("9", str(1000 + i), "S", "1"))
        )
        for i in range(3)
    ]
    assert all(e is not None and e.state == "settled" for e in heard)


@FUZZ
@given(
    st.lists(
        st.one_of(
            st.binary(max_size=30),
            st.tuples(st.sampled_from([1, 2, 3, 4, 5, 0, 9]), st.integers(0, 40)).map(
                lambda t: bytes([3, t[0], t[1]])
            ),
        ),
        max_size=25,
    )
)
def test_pixels_notifications_never_crash_or_give_impossible_faces(messages):
    from firmware.common.pixels import DieInfo
    from hardware.pixels import PixelsSource

    source = PixelsSource("C0:FF:EE:00:00:01")
    source._met(DieInfo("d20", 1, 1730000000, 5, 0, 50))
    got = []
    source.listeners.append(got.append)
    for m in messages:
        source._on_notify(None, bytearray(m))
    for event in got:
        assert event.state in ("rolling", "settled", "crooked")
        assert -1 <= event.face_index < 20
    keys = [(e.seq, e.state) for e in got]
    assert len(keys) == len(set(keys))  # nothing delivered twice


@FUZZ
@given(
    st.lists(
        st.one_of(
            st.binary(max_size=8),
            st.tuples(
                st.sampled_from([b"S", b"TS", b"FS", b"MS", b"R"]),
                st.binary(min_size=3, max_size=3),
            ).map(lambda t: t[0] + t[1]),
        ),
        max_size=25,
    ),
    st.sampled_from(["d4", "d6", "d8", "d10", "d10X", "d12", "d20"]),
)
def test_godice_notifications_never_crash_or_give_impossible_faces(messages, shell):
    from firmware.common.godice import SHELLS
    from hardware.godice import GoDiceSource

    source = GoDiceSource("C0:FF:EE:00:00:02", shell=shell)
    source.tracker = RollTracker("g", "g:1")
    got = []
    source.listeners.append(got.append)
    for m in messages:
        source._on_notify(None, bytearray(m))
    for event in got:
        assert -1 <= event.face_index < SHELLS[shell]


@FUZZ
@given(
    st.integers(1, 25), st.lists(st.tuples(st.integers(0, 65535), frames), min_size=1, max_size=6)
)
def test_partial_frame_left_behind_is_dropped_by_the_next_start_mark(cut, after):
    """No reset at all (the host never noticed the device go): the next `!` still wins."""
    dec = wire.LineDecoder()
    line = wire.encode(1, wire.ROLL, ("1", "2", "S", "3"))
    items = dec.feed(line[: min(cut, len(line) - 1)])  # never its newline
    for seq, (kind, fields) in after:
        items += dec.feed(wire.encode(seq, kind, fields))
    assert [(f.seq, f.kind) for f in items if isinstance(f, wire.Frame)] == [
        (s, k) for s, (k, _) in after
    ]
    assert all("incomplete frame" in r.reason for r in items if isinstance(r, wire.Reject))
