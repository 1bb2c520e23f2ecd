"""The tray's BLE service: the serial protocol's messages packed into binary packets
that fit one 20-byte notification at the default MTU (see hardware/PROTOCOL.md).

Packet: kind (u8), seq (u16 LE), the kind's fields, CRC-16 of all before it (u16 LE).
Decoding yields the same `wire.Frame` the serial decoder gives, fields as text, so the
host handles both transports with one piece of code.  As on serial, each frame has one
spelling: a code this table does not know is rejected, not read as "unknown".
"""

# MicroPython runs this file too: %-formatting and try/except stand in for what it lacks.
# ruff: noqa: UP031, SIM105, SIM110, SIM115

import struct

from firmware.common import wire

SERVICE = "7c0e0001-5d8b-4a57-9d6e-2f1f0a7d1c3a"
NOTIFY = "7c0e0002-5d8b-4a57-9d6e-2f1f0a7d1c3a"  # tray to host, notify
WRITE = "7c0e0003-5d8b-4a57-9d6e-2f1f0a7d1c3a"  # host to tray, write without response
NAME_PREFIX = "DiceTray"
MAX_PACKET = 20

# kind code, wire type, struct layout of the fields
_KINDS = (
    (1, wire.HELLO, "<BHBB"),  # version, boot id, firmware major, minor (name, caps implied)
    (2, wire.HEARTBEAT, "<I"),  # uptime seconds
    (3, wire.ROLL, "<BHBB"),  # die, roll no, state code, face (255 = none)
    (4, wire.DIE, "<BBB"),  # die, kind code, faces
    (5, wire.GONE, "<B"),
    (6, wire.BATTERY, "<BB"),  # die (255 = the tray), percent
    (7, wire.ACK, "<H"),
    (8, wire.ERROR, "<HB"),  # host seq, error code
    (9, wire.SYNCED, "<B"),
    (10, wire.SYNC, ""),
    (11, wire.BLINK, "<B"),
)
# Version 2's ROLL adds the boot id (u16): 12 bytes, told from version 1's 10 by its length
ROLL_V2 = "<BHBBH"
_BY_CODE = {code: (kind, fmt) for code, kind, fmt in _KINDS}
_BY_KIND = {kind: (code, fmt) for code, kind, fmt in _KINDS}
_STATE_CODES = {"R": 0, "S": 1, "C": 2}
_STATE_LETTERS = {0: "R", 1: "S", 2: "C"}
DIE_KINDS = ("unknown", "pixels", "godice", "home")
ERRORS = ("unknown", "unknown-die", "bad-frame", "unsupported")
BLE_CAPS = "roll,battery,blink,settle"


def _to_numbers(kind, fields):
    # type: (str, tuple[str, ...] | list[str]) -> tuple[int, ...]
    if kind == wire.HELLO:
        major, _, minor = fields[3].partition(".")
        return (int(fields[0]), int(fields[1], 16), int(major), int(minor.split(".")[0] or 0))
    if kind == wire.ROLL:
        die, rollno, letter, face = fields[:4]
        numbers = (int(die), int(rollno), _STATE_CODES[letter], 255 if face == "-" else int(face))
        return numbers + ((int(fields[4], 16),) if len(fields) == 5 else ())
    if kind == wire.DIE:
        code = DIE_KINDS.index(fields[1]) if fields[1] in DIE_KINDS else 0
        return (int(fields[0]), code, int(fields[2]))
    if kind == wire.BATTERY:
        return (255 if fields[0] == "tray" else int(fields[0]), int(fields[1]))
    if kind == wire.ERROR:
        code = ERRORS.index(fields[1]) if fields[1] in ERRORS else 0
        return (int(fields[0]), code)
    return tuple(int(f) for f in fields)


def _to_fields(kind, numbers):
    # type: (str, tuple[int, ...]) -> tuple[str, ...]
    if kind == wire.HELLO:
        version, boot, major, minor = numbers
        return (str(version), "%04X" % boot, "tray-ble", "%d.%d" % (major, minor), BLE_CAPS)
    if kind == wire.ROLL:
        die, rollno, code, face = numbers[:4]
        letter = _STATE_LETTERS.get(code)
        if letter is None:
            raise ValueError("roll state code %d is unknown" % code)
        fields = (str(die), str(rollno), letter, "-" if face == 255 else str(face))
        return fields + (("%04X" % numbers[4],) if len(numbers) == 5 else ())
    if kind == wire.DIE:
        die, code, faces = numbers
        if code >= len(DIE_KINDS):
            raise ValueError("die kind code %d is unknown" % code)  # 0 spells "unknown"
        name = DIE_KINDS[code]
        return (str(die), name, str(faces), "%s-%d" % (name, die))
    if kind == wire.BATTERY:
        return ("tray" if numbers[0] == 255 else str(numbers[0]), str(numbers[1]))
    if kind == wire.ERROR:
        code = numbers[1]
        if code >= len(ERRORS):
            raise ValueError("error code %d is unknown" % code)  # 0 spells "unknown"
        return (str(numbers[0]), ERRORS[code])
    return tuple(str(n) for n in numbers)


def encode(seq, kind, fields=()):
    # type: (int, str, tuple[str, ...] | list[str]) -> bytes
    code, fmt = _BY_KIND[kind]
    if kind == wire.ROLL and len(fields) == 5:
        fmt = ROLL_V2
    head = struct.pack("<BH", code, seq % wire.SEQ_MOD)
    body = head + (struct.pack(fmt, *_to_numbers(kind, fields)) if fmt else b"")
    return body + struct.pack("<H", wire.crc16(body))


def decode(data):
    # type: (bytes | bytearray) -> wire.Frame | wire.Reject
    """One notification -> wire.Frame, or wire.Reject saying what was wrong."""
    data = bytes(data)
    if len(data) < 5:
        return wire.Reject("packet of %d bytes is too short" % len(data), data)
    if len(data) > MAX_PACKET:
        return wire.Reject("packet of %d bytes is longer than 20" % len(data), data[:20])
    body, said = data[:-2], struct.unpack("<H", data[-2:])[0]
    got = wire.crc16(body)
    if said != got:
        return wire.Reject(
            "checksum mismatch (packet says %04X, content gives %04X)" % (said, got), data
        )
    code, seq = struct.unpack("<BH", body[:3])
    entry = _BY_CODE.get(code)
    if entry is None:
        return wire.Reject("packet kind %d is unknown" % code, data)
    kind, fmt = entry
    if kind == wire.ROLL and len(body) - 3 == struct.calcsize(ROLL_V2):
        fmt = ROLL_V2
    size = struct.calcsize(fmt) if fmt else 0
    if len(body) - 3 != size:
        return wire.Reject(
            "%s packet has %d field bytes, expected %d" % (kind, len(body) - 3, size), data
        )
    try:
        fields = _to_fields(kind, struct.unpack(fmt, body[3:]) if fmt else ())
    except ValueError as exc:
        return wire.Reject(str(exc), data)
    return wire.Frame(seq, kind, fields)
