"""What the tray needs to relay a Pixels die (GameWithPixels): find and greet it, and
read what it says about itself and its rolls.  The app reads Pixels dice through this
same decoder (hardware/pixels.py adds what only the app does: adverts, blinking, asking
for the roll state), so a die tells the tray and the app the same face.

From the public, MIT-licensed pixels-js sources (DiceUtils.faceFromIndex and
estimateDieType, Pixel._updateRoll, DieMessages): one message per notification or write,
byte 0 the type, fields little-endian.
"""

# MicroPython runs this file too (the tray relays dice): %-formatting stands in for what
# it lacks.
# ruff: noqa: UP031

import struct

SERVICE = "a6b90001-7a5a-43f2-a962-350c8edc9b5b"
NOTIFY = "a6b90002-7a5a-43f2-a962-350c8edc9b5b"
WRITE = "a6b90003-7a5a-43f2-a962-350c8edc9b5b"
# Firmware before November 2024: notify on the service's own UUID.
LEGACY_SERVICE = "6e400001-b5a3-f393-e0a9-e50e24dcca9e"
LEGACY_NOTIFY = "6e400001-b5a3-f393-e0a9-e50e24dcca9e"
LEGACY_WRITE = "6e400002-b5a3-f393-e0a9-e50e24dcca9e"

WHO_ARE_YOU = 1
I_AM_A_DIE = 2
ROLL_STATE = 3
BATTERY_LEVEL = 34

# Roll states as the vendor names them (pixels-js PixelRollState.ts): 0 unknown, 1 rolled
# ("finished rolling and is now on a face, and it looked like a proper roll"), 2 handling
# (being handled), 3 rolling, 4 crooked ("finished rolling but is not on a valid face"),
# 5 onFace ("not moving and ... either never moved or didn't move enough to trigger a
# roll").  The vendor's app counts a roll on `rolled` alone; so does this.  onFace is no
# roll and not crooked either: the die lies on a face as it was put down, so it answers
# nothing ("rested") and the request waits for a real roll.  Firmware before November
# 2024 had no 5 and sent 1 for any rest, which the vendor read as a roll too.  Handling
# starts a roll as rolling does (the vendor's app shows both as "Rolling...").
ROLL_STATES = {1: "settled", 2: "rolling", 3: "rolling", 4: "crooked", 5: "rested"}
RESTED = "rested"

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
# DiceUtils.estimateDieType: a die that says "unknown" is known by its LEDs (a 2023 die
# does).  A d4 has six LEDs too; the vendor reads six as a d6, and so does this.
TYPE_BY_LEDS = {4: "d4", 6: "d6", 8: "d8", 10: "d10", 12: "d12", 20: "d20", 21: "d6pipped"}
# DiceUtils.isFirmwareWithBadNormals: built on or before this (ms), d4 and d6 faces are
# numbered differently.
BAD_NORMALS_UNTIL_MS = 1704150000000
# Pixel._updateRoll: six-LED dice built before this (ms) report "crooked" when slightly
# tilted on a face, which the vendor reads as rolled.
TILT_FIXED_MS = 1716382800000
# The faces those dice show, by index (faceFromIndex): a d6's indices 1-4 read 5, 4, 3, 2
# (0 and 5 read 1 and 6 as today); a d4's indices 3, 2, 5 read 2, 3, 4 and any other 1.
_OLD_D6 = {1: 5, 2: 4, 3: 3, 4: 2}
_OLD_D4 = {3: 2, 2: 3, 5: 4}


def who_are_you():
    # type: () -> bytes
    return bytes([WHO_ARE_YOU])


class DieInfo:
    """What iAmADie says about a die."""

    def __init__(
        self,
        die_type,
        pixel_id,
        build_timestamp,
        roll_state,
        face_index,
        battery,
        name="",
        led_count=0,
    ):
        # type: (str, int, int, int, int, int, str, int) -> None
        if die_type == "unknown":
            die_type = TYPE_BY_LEDS.get(led_count, "unknown")
        self.die_type = die_type
        self.led_count = led_count
        self.pixel_id = pixel_id
        self.build_timestamp = build_timestamp  # seconds
        self.roll_state = roll_state
        self.face_index = face_index
        self.battery = battery
        self.name = name

    @property
    def faces(self):
        # type: () -> int
        return FACES.get(self.die_type, 0)


def _type_name(code):
    # type: (int) -> str
    return DIE_TYPES[code] if code < len(DIE_TYPES) else "unknown"


def parse_i_am_a_die(data):
    # type: (bytes) -> DieInfo
    """The legacy 22-byte form or the chunked form; ValueError in words if neither."""
    if len(data) < 2 or data[0] != I_AM_A_DIE:
        raise ValueError("not an iAmADie message")
    if len(data) == 22:
        (_t, leds, _colour, dtype, _hash, pid, _flash, built, state, face, battery, _bstate) = (
            struct.unpack("<BBBBIIHIBBBB", data)
        )
        return DieInfo(_type_name(dtype), pid, built, state, face, battery, led_count=leds)
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
    if len(version) < 7 or len(info) < 8 or len(status) < 5:
        raise ValueError("iAmADie chunks are too short")
    built = struct.unpack("<I", version[3:7])[0]
    pid = struct.unpack("<I", info[1:5])[0]
    dtype, leds = info[6], info[7]  # after the chip model
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
        leds,
    )


def parse_roll_state(data):
    # type: (bytes) -> tuple[int, int]
    """rollState -> (state code, Pixels face index)."""
    if len(data) != 3 or data[0] != ROLL_STATE:
        raise ValueError("rollState must be 3 bytes, got %d" % len(data))
    return data[1], data[2]


def parse_battery(data):
    # type: (bytes) -> tuple[int, int]
    if len(data) != 3 or data[0] != BATTERY_LEVEL:
        raise ValueError("batteryLevel must be 3 bytes, got %d" % len(data))
    if data[1] > 100:
        raise ValueError("battery level %d%% is impossible" % data[1])
    return data[1], data[2]


def face_value(die_type, index, build_timestamp_s=None):
    # type: (str, int, int | None) -> int
    """The number printed on the face (DiceUtils.faceFromIndex): d10 is the index (0 is
    the "0" face), d00 the index times ten, every other die index + 1.  Dice whose
    firmware was built on or before 2024-01-01 number their d6 and d4 faces differently."""
    if build_timestamp_s and build_timestamp_s * 1000 <= BAD_NORMALS_UNTIL_MS:
        if die_type == "d6":
            return _OLD_D6.get(index, index + 1)
        if die_type == "d4":
            return _OLD_D4.get(index, 1)
    if die_type == "d10":
        return index
    if die_type == "d00":
        return index * 10
    return index + 1


def face_index(die_type, index, build_timestamp_s=None):
    # type: (str, int, int | None) -> int
    """Our face index (the face printed index + 1 on a standard die): a d10's "0" is 10."""
    value = face_value(die_type, index, build_timestamp_s)
    if die_type == "d10":
        return (value - 1) % 10
    if die_type == "d00":
        return (value // 10 - 1) % 10
    return value - 1


def reading(info, code, index):
    # type: (DieInfo, int, int) -> tuple[str | None, int]
    """A roll state code and Pixels face index from the die `info` describes -> (state
    word or None for "unknown", our face index; -1 while rolling).  "rested" (onFace) is
    a die lying on a face without a roll: its face, never a result.  ValueError in words
    for a face the die does not have."""
    state = ROLL_STATES.get(code)
    if code == 4 and info.led_count == 6 and info.build_timestamp * 1000 < TILT_FIXED_MS:
        state = "settled"  # slightly tilted on a face: the vendor's fix, read as rolled
    if state is None or state == "rolling":
        return state, -1
    face = face_index(info.die_type, index, info.build_timestamp)
    if not 0 <= face < info.faces:
        raise ValueError("face index %d is not on a %s" % (index, info.die_type))
    return state, face


def roll_result(info, data):
    # type: (DieInfo, bytes) -> tuple[str | None, int]
    """A rollState message -> `reading`; ValueError in words if it is malformed."""
    code, index = parse_roll_state(data)
    return reading(info, code, index)
