"""Pixels dice (GameWithPixels) as they speak over BLE: what the tray relays and the app
reads directly.  From the public, MIT-licensed pixels-js and DiceFirmware sources: one
message per notification or write, byte 0 the type, fields little-endian.
"""

# MicroPython runs this file too: %-formatting stands in for what it lacks.
# ruff: noqa: UP031

import struct

SERVICE = "a6b90001-7a5a-43f2-a962-350c8edc9b5b"
NOTIFY = "a6b90002-7a5a-43f2-a962-350c8edc9b5b"
WRITE = "a6b90003-7a5a-43f2-a962-350c8edc9b5b"
# Firmware before November 2024: notify on the service's own UUID.
LEGACY_SERVICE = "6e400001-b5a3-f393-e0a9-e50e24dcca9e"
LEGACY_NOTIFY = "6e400001-b5a3-f393-e0a9-e50e24dcca9e"
LEGACY_WRITE = "6e400002-b5a3-f393-e0a9-e50e24dcca9e"
COMPANY_IDS = (0x0D39, 0xFFFF)

WHO_ARE_YOU = 1
I_AM_A_DIE = 2
ROLL_STATE = 3
REQUEST_ROLL_STATE = 23
BLINK = 29
BLINK_ACK = 30
REQUEST_BATTERY = 33
BATTERY_LEVEL = 34
BLINK_ID = 65
BLINK_ID_ACK = 66

# Roll states today: 0 unknown, 1 rolled, 2 handling, 3 rolling, 4 crooked, 5 onFace.
# Before October 2024, 1 meant "on face" and 5 did not exist: both are a result.
ROLL_STATES = {1: "settled", 2: "rolling", 3: "rolling", 4: "crooked", 5: "settled"}

DIE_TYPES = ("unknown", "d4", "d6", "d8", "d10", "d00", "d12", "d20", "d6pipped", "d6fudge")
FACES = {
    "d4": 4,
    "d6": 6,
    "d8": 8,
    "d10": 10,
    "d00": 10,
    "d12": 12,
    "d20": 20,
    "d6pipped": 6,
    "d6fudge": 6,
}
LEGACY_REMAP_BEFORE_MS = 1704150000000  # firmware built on or before: old d4/d6 face order
# The old d6 order swaps faces 2/6 and 3/5 (indices 1<->5, 2<->4); an old d4 reports a
# six-face index whose value is 2, 3, 4 for indices 3, 2, 5 and 1 for the rest.
_LEGACY_D6 = {1: 5, 5: 1, 2: 4, 4: 2}
_LEGACY_D4 = {3: 2, 2: 3, 5: 4}


def who_are_you():
    return bytes([WHO_ARE_YOU])


def request_roll_state():
    return bytes([REQUEST_ROLL_STATE])


def request_battery():
    return bytes([REQUEST_BATTERY])


def blink_id(brightness=255, loops=3):
    return bytes([BLINK_ID, brightness, loops])


class DieInfo:
    """What iAmADie says about a die."""

    def __init__(
        self, die_type, pixel_id, build_timestamp, roll_state, face_index, battery, name=""
    ):
        self.die_type = die_type
        self.pixel_id = pixel_id
        self.build_timestamp = build_timestamp  # seconds
        self.roll_state = roll_state
        self.face_index = face_index
        self.battery = battery
        self.name = name

    @property
    def faces(self):
        return FACES.get(self.die_type, 0)


def _type_name(code):
    return DIE_TYPES[code] if code < len(DIE_TYPES) else "unknown"


def parse_i_am_a_die(data):
    """The legacy 22-byte form or the chunked form; ValueError in words if neither."""
    if len(data) < 2 or data[0] != I_AM_A_DIE:
        raise ValueError("not an iAmADie message")
    if len(data) == 22:
        (_t, _leds, _colour, dtype, _hash, pid, _flash, built, state, face, battery, _bstate) = (
            struct.unpack("<BBBBIIHIBBBB", data)
        )
        return DieInfo(_type_name(dtype), pid, built, state, face, battery)
    chunks = []
    off = 1
    while off < len(data):
        size = data[off]
        if size == 0 or off + size > len(data):
            raise ValueError("iAmADie chunk at byte %d has a bad size %d" % (off, size))
        chunks.append(data[off : off + size])
        off += size
    if len(chunks) < 6:
        raise ValueError("iAmADie has %d chunks, expected 6" % len(chunks))
    version, info, _design, name, _settings, status = chunks[:6]
    if len(version) < 7 or len(info) < 9 or len(status) < 5:
        raise ValueError("iAmADie chunks are too short")
    built = struct.unpack("<I", version[3:7])[0]
    pid = struct.unpack("<I", info[1:5])[0]
    dtype = info[6]
    text = bytes(name[1:])
    end = text.find(b"\x00")
    return DieInfo(
        _type_name(dtype),
        pid,
        built,
        status[3],
        status[4],
        status[1],
        (text if end < 0 else text[:end]).decode(),
    )


def parse_roll_state(data):
    """rollState -> (state word or None for unknown, Pixels face index)."""
    if len(data) != 3 or data[0] != ROLL_STATE:
        raise ValueError("rollState must be 3 bytes, got %d" % len(data))
    return ROLL_STATES.get(data[1]), data[2]


def parse_battery(data):
    if len(data) != 3 or data[0] != BATTERY_LEVEL:
        raise ValueError("batteryLevel must be 3 bytes, got %d" % len(data))
    if data[1] > 100:
        raise ValueError("battery level %d%% is impossible" % data[1])
    return data[1], data[2]


def face_value(die_type, index, build_timestamp_s=None):
    """The number printed on the face (DiceUtils.faceFromIndex): d10 is the index (0 is
    the "0" face), d00 the index times ten, every other die index + 1.  Dice whose
    firmware was built on or before 2024-01-01 number their d6 and d4 faces differently."""
    if build_timestamp_s is not None and build_timestamp_s * 1000 <= LEGACY_REMAP_BEFORE_MS:
        if die_type in ("d6", "d6pipped", "d6fudge"):
            index = _LEGACY_D6.get(index, index)
        elif die_type == "d4":
            return _LEGACY_D4.get(index, 1)
    if die_type == "d10":
        return index
    if die_type == "d00":
        return index * 10
    return index + 1


def face_index(die_type, index, build_timestamp_s=None):
    """Our face index (the face printed index + 1 on a standard die): a d10's "0" is 10."""
    value = face_value(die_type, index, build_timestamp_s)
    if die_type == "d10":
        return (value - 1) % 10
    if die_type == "d00":
        return (value // 10 - 1) % 10
    return value - 1
