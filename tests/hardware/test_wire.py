"""The serial frame codec and the BLE packet codec, shared by firmware and app."""

from __future__ import annotations

import struct

import pytest

from firmware.common import gatt, wire


def test_crc_is_ccitt_false():
    assert wire.crc16(b"123456789") == 0x29B1


def test_round_trip_and_exact_bytes():
    line = wire.encode(5, wire.ROLL, wire.roll_fields("2", 7, "settled", 4))
    assert line.startswith(b"!5 ROLL 2 7 S 4*") and line.endswith(b"\n")
    assert int(line[-5:-1], 16) == wire.crc16(b"!5 ROLL 2 7 S 4")
    (frame,) = wire.LineDecoder().feed(line)
    assert frame == wire.Frame(5, "ROLL", ("2", "7", "S", "4"))
    assert wire.parse_roll(frame.fields) == ("2", 7, "settled", 4)


def test_every_byte_is_printable_ascii_and_never_ctrl_c():
    line = wire.encode(65535, wire.DIE, ("1", "pix\x03els", "6", "name with spaces\x7f"))
    assert b"\x03" not in line
    assert all(0x20 <= b <= 0x7E for b in line[:-1])


def test_split_lines_join_up():
    data = wire.encode(1, wire.HEARTBEAT, ("9",)) + wire.encode(2, wire.HEARTBEAT, ("10",))
    dec = wire.LineDecoder()
    got = []
    for i in range(len(data)):
        got += dec.feed(data[i : i + 1])
    assert [f.seq for f in got] == [1, 2]


def test_bad_checksum_is_rejected_in_words():
    line = bytearray(wire.encode(3, wire.ROLL, ("1", "1", "S", "2")))
    line[10] = ord("5") if line[10] != ord("5") else ord("4")
    (item,) = wire.LineDecoder().feed(bytes(line))
    assert isinstance(item, wire.Reject)
    assert "checksum mismatch" in item.reason


def test_overlong_line_is_skipped_and_the_next_frame_survives():
    good = wire.encode(4, wire.HEARTBEAT, ("1",))
    out = wire.LineDecoder().feed(b"!" + b"x" * 500 + b"\n" + good)
    assert isinstance(out[0], wire.Reject) and "longer than" in out[0].reason
    assert out[-1] == wire.Frame(4, "HB", ("1",))


def test_a_restarted_frame_drops_the_partial_one():
    good = wire.encode(8, wire.HEARTBEAT, ("1",))
    out = wire.LineDecoder().feed(b"!7 ROLL 1 2" + good)
    assert "incomplete frame" in out[0].reason
    assert out[1] == wire.Frame(8, "HB", ("1",))


@pytest.mark.parametrize(
    "fields, words",
    [
        (("1", "2", "X", "3"), "not R, S or C"),
        (("1", "2", "S", "-"), "must name its face"),
        (("1", "two", "S", "3"), "not a whole number"),
        (("1", "2", "S"), "needs 4 fields"),
    ],
)
def test_bad_roll_fields_are_explained(fields, words):
    with pytest.raises(ValueError, match=words):
        wire.parse_roll(fields)


def test_sequence_tracker_wraps_and_sees_repeats_and_gaps():
    t = wire.SeqTracker()
    assert t.check(65534) == ("new", 0)
    assert t.check(65535) == ("new", 0)
    assert t.check(0) == ("new", 0)
    assert t.check(0) == ("repeat", 0)
    assert t.check(65535) == ("old", 0)
    assert t.check(3) == ("new", 2)


@pytest.mark.parametrize(
    "kind, fields",
    [
        (wire.ROLL, ("2", "7", "S", "4")),
        (wire.ROLL, ("9", "65535", "R", "-")),
        (wire.DIE, ("3", "pixels", "20", "pixels-3")),
        (wire.BATTERY, ("tray", "50")),
        (wire.HEARTBEAT, ("123456",)),
        (wire.SYNC, ()),
        (wire.ERROR, ("12", "unknown-die")),
    ],
)
def test_ble_packets_fit_twenty_bytes_and_round_trip(kind, fields):
    packet = gatt.encode(9, kind, fields)
    assert len(packet) <= 20
    assert gatt.decode(packet) == wire.Frame(9, kind, fields)


def test_ble_packet_with_a_flipped_bit_is_rejected():
    packet = bytearray(gatt.encode(1, wire.ROLL, ("1", "1", "S", "1")))
    packet[5] ^= 0x04
    item = gatt.decode(bytes(packet))
    assert isinstance(item, wire.Reject) and "checksum" in item.reason


def signed(body: bytes, crc: str = "%04X") -> bytes:
    """`body` with a checksum that is right for it, spelled as `crc` spells it."""
    return body + b"*" + (crc % wire.crc16(body)).encode()


def test_the_frame_hypothesis_found_is_spelled_one_way():
    """`!110 HB 90*5AF3` was also taken as `*5aF3`: a corrupt byte accepted."""
    assert wire.encode(110, wire.HEARTBEAT, ("90",)) == b"!110 HB 90*5AF3\n"
    assert wire.parse_line(b"!110 HB 90*5AF3") == wire.Frame(110, "HB", ("90",))
    item = wire.parse_line(b"!110 HB 90*5aF3")
    assert isinstance(item, wire.Reject) and "upper-case hex" in item.reason


@pytest.mark.parametrize(
    "line",
    [
        signed(b"!110 HB 90", "%04x"),  # lower-case checksum
        b"!110 HB 90* 5AF",  # a space where a digit was (int(" 5AF", 16) reads it)
        b"!110 HB 90*+5AF",  # a sign
        b"!110 HB 90*5_AF",  # an underscore (int() skips it between digits)
        b"!110 HB 90*0x5A",
        signed(b"!0110 HB 90"),  # a leading zero on the sequence number
        signed(b"!+110 HB 90"),
        signed(b"! 110 HB 90"),
        signed(b"!110  HB 90"),  # two spaces
        signed(b"!110 HB 90 "),  # a space at the end
        signed(b"!110 HB 90") + b" ",
        signed(b"!110 HB 90") + b"\r",  # a line ends with \n alone
        signed(b"!110 HB 90") + b"\t",
    ],
)
def test_any_other_spelling_of_a_frame_is_rejected(line):
    assert isinstance(wire.parse_line(line), wire.Reject)
    assert not [f for f in wire.LineDecoder().feed(line + b"\n") if isinstance(f, wire.Frame)]


@pytest.mark.parametrize(
    "fields, words",
    [
        (("1", "07", "S", "3"), "not a whole number"),  # a leading zero
        (("1", "7", "S", "+3"), "not a whole number"),
        (("1", "7", "S", "0x3"), "not a whole number"),
        (("1", "7", "S", "3_0"), "not a whole number"),
    ],
)
def test_numbers_in_fields_have_one_spelling(fields, words):
    with pytest.raises(ValueError, match=words):
        wire.parse_roll(fields)
    assert wire.parse_roll(("1", "0", "S", "0")) == ("1", 0, "settled", 0)


@pytest.mark.parametrize(
    "kind, numbers, words",
    [(wire.DIE, (3, 9, 6), "die kind code 9"), (wire.ERROR, (12, 7), "error code 7")],
)
def test_ble_codes_no_table_knows_are_rejected_not_read_as_unknown(kind, numbers, words):
    code = {wire.DIE: 4, wire.ERROR: 8}[kind]
    fmt = {wire.DIE: "<BBB", wire.ERROR: "<HB"}[kind]
    body = struct.pack("<BH", code, 5) + struct.pack(fmt, *numbers)
    item = gatt.decode(body + struct.pack("<H", wire.crc16(body)))
    assert isinstance(item, wire.Reject) and words in item.reason
