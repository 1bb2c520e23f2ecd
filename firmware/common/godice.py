"""What the tray needs to relay a GoDice (Particula): find it, ask its battery, and read
its rolls.  The app reads GoDice through this same decoder (hardware/godice.py adds what
only the app does: colour, blinking), so a die tells the tray and the app the same face.
Written from the protocol's description (their code's licence forbids copying it; only
the published reference vectors are used).

The die knows nothing of the shell it wears: the player says d6, d20, d10, d10X, d4, d8
or d12, and a stable reading x y z (signed bytes) is matched to the nearest reference
vector of that shell's table; the first entry wins a tie.
"""

# MicroPython runs this file too (the tray relays dice): %-formatting stands in for what
# it lacks.
# ruff: noqa: UP031

SERVICE = "6e400001-b5a3-f393-e0a9-e50e24dcca9e"
WRITE = "6e400002-b5a3-f393-e0a9-e50e24dcca9e"
NOTIFY = "6e400003-b5a3-f393-e0a9-e50e24dcca9e"
NAME_PREFIX = "GoDice_"

REQUEST_BATTERY = 0x03  # host to die
COLOURS = ("black", "red", "green", "blue", "yellow", "orange")

# Reference vectors (face value, vector); values are the face printed on the shell.
D6 = (
    (1, (-64, 0, 0)),
    (2, (0, 0, 64)),
    (3, (0, 64, 0)),
    (4, (0, -64, 0)),
    (5, (0, 0, -64)),
    (6, (64, 0, 0)),
)
D20 = (
    (1, (-64, 0, -22)),
    (2, (42, -42, 40)),
    (3, (0, 22, -64)),
    (4, (0, 22, 64)),
    (5, (-42, -42, 42)),
    (6, (22, 64, 0)),
    (7, (-42, -42, -42)),
    (8, (64, 0, -22)),
    (9, (-22, 64, 0)),
    (10, (42, -42, -42)),
    (11, (-42, 42, 42)),
    (12, (22, -64, 0)),
    (13, (-64, 0, 22)),
    (14, (42, 42, 42)),
    (15, (-22, -64, 0)),
    (16, (42, 42, -42)),
    (17, (0, -22, -64)),
    (18, (0, -22, 64)),
    (19, (-42, 42, -42)),
    (20, (64, 0, 22)),
)
D24 = (
    (1, (20, -60, -20)),
    (2, (20, 0, 60)),
    (3, (-40, -40, 40)),
    (4, (-60, 0, 20)),
    (5, (40, 20, 40)),
    (6, (-20, -60, -20)),
    (7, (20, 60, 20)),
    (8, (-40, 20, -40)),
    (9, (-40, 40, 40)),
    (10, (-20, 0, 60)),
    (11, (-20, -60, 20)),
    (12, (60, 0, 20)),
    (13, (-60, 0, -20)),
    (14, (20, 60, -20)),
    (15, (20, 0, -60)),
    (16, (40, -20, -40)),
    (17, (-20, 60, -20)),
    (18, (-40, -40, -40)),
    (19, (40, -20, 40)),
    (20, (20, -60, 20)),
    (21, (60, 0, -20)),
    (22, (40, 20, -40)),
    (23, (-20, 0, -60)),
    (24, (-20, 60, 20)),
)
# Lookups from the d20 or d24 table's entry to the shell's face (entries 1..20 / 1..24).
D10_FROM_D20 = (8, 2, 6, 1, 4, 3, 9, 0, 7, 5, 5, 7, 0, 9, 3, 4, 1, 6, 2, 8)
D4_FROM_D24 = (3, 1, 4, 1, 4, 4, 1, 4, 2, 3, 1, 1, 1, 4, 2, 3, 3, 2, 2, 2, 4, 1, 3, 2)
D8_FROM_D24 = (3, 3, 6, 1, 2, 8, 1, 1, 4, 7, 5, 5, 4, 4, 2, 5, 7, 7, 8, 2, 8, 3, 6, 6)
D12_FROM_D24 = tuple(list(range(1, 13)) * 2)
SHELLS = {"d6": 6, "d20": 20, "d10": 10, "d10X": 10, "d4": 4, "d8": 8, "d12": 12}


def nearest(table, x, y, z):
    # type: (tuple[tuple[int, tuple[int, int, int]], ...], int, int, int) -> int
    """The entry (1-based) whose vector is nearest; the first one wins a tie."""
    best, best_d = 0, None
    for entry, v in table:
        d = (x - v[0]) * (x - v[0]) + (y - v[1]) * (y - v[1]) + (z - v[2]) * (z - v[2])
        if best_d is None or d < best_d:
            best, best_d = entry, d
    return best


def face_value(shell, x, y, z):
    # type: (str, int, int, int) -> int
    """The number on the face up for a die wearing `shell` (d10: 0-9; d10X: 00-90)."""
    if shell == "d6":
        return nearest(D6, x, y, z)
    if shell == "d20":
        return nearest(D20, x, y, z)
    if shell in ("d10", "d10X"):
        v = D10_FROM_D20[nearest(D20, x, y, z) - 1]
        return v * 10 if shell == "d10X" else v
    entry = nearest(D24, x, y, z) - 1
    if shell == "d4":
        return D4_FROM_D24[entry]
    if shell == "d8":
        return D8_FROM_D24[entry]
    if shell == "d12":
        return D12_FROM_D24[entry]
    raise ValueError("'%s' is not a GoDice shell (d4, d6, d8, d10, d10X, d12, d20)" % shell)


def face_index(shell, x, y, z):
    # type: (str, int, int, int) -> int
    """Our face index (printed number - 1); a d10's 0 is 10, a d10X's 00 is 100."""
    value = face_value(shell, x, y, z)
    if shell == "d10":
        return (value - 1) % 10
    if shell == "d10X":
        return (value // 10 - 1) % 10
    return value - 1


def _signed(b):
    # type: (int) -> int
    return b - 256 if b > 127 else b


def parse(data):
    # type: (bytes | bytearray) -> tuple[str, tuple[int, int, int] | int | str | bool | None]
    """One notification -> (kind, value).  Kinds: "rolling"; "stable", "fake", "tilt",
    "moved" with (x, y, z); "battery" percent; "colour" name; "charging" bool; "tap";
    "double-tap".  ValueError in words for anything else."""
    data = bytes(data)
    if data == b"R":
        return "rolling", None
    for prefix, kind in ((b"S", "stable"), (b"FS", "fake"), (b"TS", "tilt"), (b"MS", "moved")):
        if data[: len(prefix)] == prefix and len(data) == len(prefix) + 3:
            rest = data[len(prefix) :]
            return kind, (_signed(rest[0]), _signed(rest[1]), _signed(rest[2]))
    if data[:3] == b"Bat" and len(data) == 4:
        if data[3] > 100:
            raise ValueError("battery level %d%% is impossible" % data[3])
        return "battery", data[3]
    if data[:3] == b"Col" and len(data) == 4:
        if data[3] >= len(COLOURS):
            raise ValueError("colour code %d is unknown" % data[3])
        return "colour", COLOURS[data[3]]
    if data[:4] == b"Char" and len(data) == 5:
        return "charging", data[4] == 1
    if data == b"Tap":
        return "tap", None
    if data == b"DTap":
        return "double-tap", None
    raise ValueError("GoDice message %r is not one this app knows" % data[:8])
