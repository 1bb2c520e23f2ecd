"""The tray's serial wire protocol, version 2 (see hardware/PROTOCOL.md).

One frame per line, printable ASCII only, so a stray byte can never reach MicroPython's
REPL as Ctrl-C (0x03) and a human can read the traffic in any terminal:

    !<seq> <TYPE>[ <field>...]*<crc>\n

The CRC-16/CCITT-FALSE of everything from `!` up to the `*` is written as four upper-case
hex digits.  This module runs unchanged under CPython and MicroPython (no dataclasses,
no typing imports, no f-string tricks), because the tray, the die and the app share it.
"""

# MicroPython runs this file too: %-formatting and try/except stand in for what it lacks.
# ruff: noqa: UP031, SIM105, SIM110, SIM115

VERSION = 2  # 2: each ROLL names the boot it was made in (a replayed one is known)
VERSIONS = (1, 2)  # every version this code still speaks (a v1 tray or host works on)
MAX_LINE = 120  # bytes, newline included: longer lines are skipped whole
SEQ_MOD = 65536

# Tray to host
HELLO = "HELLO"  # <version> <boot id> <name> <firmware version> <capabilities,...>
HEARTBEAT = "HB"  # <uptime seconds>
ROLL = "ROLL"  # <die> <roll no> <R|S|C> <face index or -> [<boot id>, version 2]
DIE = "DIE"  # <die> <kind> <faces> <name>
GONE = "GONE"  # <die>
BATTERY = "BAT"  # <die or "tray"> <percent>
ACK = "ACK"  # <host seq>
ERROR = "ERR"  # <host seq> <code>
SYNCED = "SYNCED"  # <dice count>
# Host to tray (HELLO too)
SYNC = "SYNC"
BLINK = "BLINK"  # <die>

STATES = {"R": "rolling", "S": "settled", "C": "crooked"}
STATE_LETTERS = {"rolling": "R", "settled": "S", "crooked": "C"}
HEARTBEAT_EVERY = 1.0  # seconds between heartbeats
SILENCE_LIMIT = 3.5  # seconds without any frame before the host calls the link lost

_FIELD_OK = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.,:+-/#"


def _crc_table():
    # type: () -> list[int]
    table = []
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
        table.append(crc & 0xFFFF)
    return table


_TABLE = _crc_table()


def crc16(data, crc=0xFFFF):
    # type: (bytes, int) -> int
    """CRC-16/CCITT-FALSE ("123456789" gives 0x29B1): catches every 1- and 2-bit error
    and every burst up to 16 bits, which a USB or UART glitch is."""
    table = _TABLE
    for b in data:
        crc = ((crc << 8) & 0xFFFF) ^ table[((crc >> 8) ^ b) & 0xFF]
    return crc


def clean_field(text):
    # type: (object) -> str
    """A field as it may travel: anything outside the safe set becomes `_`."""
    out = "".join(c if c in _FIELD_OK else "_" for c in str(text))
    return out or "_"


def encode(seq, kind, fields=()):
    # type: (int, str, tuple[str, ...] | list[str]) -> bytes
    """One frame as bytes, newline included."""
    body = "!" + str(seq % SEQ_MOD) + " " + kind
    for f in fields:
        body += " " + clean_field(f)
    raw = body.encode()
    line = raw + b"*" + ("%04X" % crc16(raw)).encode() + b"\n"
    if len(line) > MAX_LINE:
        raise ValueError("frame longer than %d bytes" % MAX_LINE)
    return line


class Frame:
    """A frame that passed every check: its sequence number, type and fields."""

    __slots__ = ("seq", "kind", "fields")

    def __init__(self, seq, kind, fields):
        # type: (int, str, tuple[str, ...]) -> None
        self.seq = seq
        self.kind = kind
        self.fields = fields

    def __eq__(self, other):
        # type: (object) -> bool
        return (
            isinstance(other, Frame)
            and self.seq == other.seq
            and self.kind == other.kind
            and self.fields == other.fields
        )

    def __repr__(self):
        # type: () -> str
        return "Frame(%d, %s, %r)" % (self.seq, self.kind, self.fields)


class Reject:
    """A line that was thrown away, with the reason in words for the log."""

    __slots__ = ("reason", "raw")

    def __init__(self, reason, raw=b""):
        # type: (str, bytes) -> None
        self.reason = reason
        self.raw = raw

    def __repr__(self):
        # type: () -> str
        return "Reject(%r)" % self.reason


def _printable(raw):
    # type: (bytes) -> bool
    for b in raw:
        if b < 0x20 or b > 0x7E:
            return False
    return True


_HEX = "0123456789ABCDEF"


def is_hex4(text):
    # type: (str) -> bool
    """Four upper-case hex digits, the one spelling of a checksum or a boot id."""
    if len(text) != 4:
        return False
    for c in text:
        if c not in _HEX:
            return False
    return True


def is_number(text):
    # type: (str) -> bool
    """A whole number as `str(n)` writes it: ASCII digits, no sign, no space, no leading
    zero.  Each value has exactly one spelling, so a changed byte can never give a frame
    that reads the same (int() would take "+7", " 7", "07" and "7_0" too)."""
    if not text:
        return False
    for c in text:
        if c < "0" or c > "9":
            return False
    return text == "0" or text[0] != "0"


def parse_line(raw):
    # type: (bytes) -> Frame | Reject | None
    """One line without its newline: a Frame, or a Reject saying what was wrong.

    Every frame has exactly one spelling (see PROTOCOL.md): the checksum in upper-case
    hex, numbers without signs or leading zeros, one space between fields, nothing after
    the checksum; any other spelling is rejected rather than read as the same frame."""
    if not raw:
        return None
    if raw[0:1] != b"!":
        return Reject("line does not start with '!' (not a frame)", raw)
    if not _printable(raw):
        return Reject("line holds bytes that are not printable ASCII", raw)
    star = raw.rfind(b"*")
    if star < 0 or len(raw) - star != 5:
        return Reject("line has no 4-digit checksum after '*'", raw)
    body = raw[:star]
    said = raw[star + 1 :].decode()
    if not is_hex4(said):
        return Reject("checksum '%s' is not four upper-case hex digits" % said, raw)
    got = crc16(body)
    if int(said, 16) != got:
        return Reject("checksum mismatch (line says %s, content gives %04X)" % (said, got), raw)
    parts = body[1:].decode().split(" ")
    if len(parts) < 2 or not is_number(parts[0]) or not parts[1]:
        return Reject("frame has no sequence number and type", raw)
    seq = int(parts[0])
    if seq >= SEQ_MOD:
        return Reject("sequence number %d is out of range" % seq, raw)
    for f in parts[2:]:
        if not f:
            return Reject("frame has an empty field (two spaces, or one at the end)", raw)
    return Frame(seq, parts[1], tuple(parts[2:]))


class LineDecoder:
    """Turns a byte stream into frames and rejections.

    Keeps at most MAX_LINE bytes of an unfinished line; an overlong line is skipped up to
    its newline, and a `!` in the middle of a line starts a new frame (a device that reset
    mid-frame leaves a partial line behind).
    """

    def __init__(self):
        # type: () -> None
        self._buf = b""
        self._skipping = False

    def reset(self):
        # type: () -> bytes
        """Forget a partial line (the device vanished mid-frame)."""
        dropped = self._buf
        self._buf = b""
        self._skipping = False
        return dropped

    def feed(self, data):
        # type: (bytes) -> list[Frame | Reject]
        out = []  # type: list[Frame | Reject]
        buf = self._buf + data
        start = 0
        while True:
            nl = buf.find(b"\n", start)
            if nl < 0:
                break
            line = buf[start:nl]
            start = nl + 1
            if self._skipping:
                self._skipping = False
                continue
            if len(line) >= MAX_LINE:
                out.append(Reject("line longer than %d bytes" % MAX_LINE, line[:40]))
                continue
            self._split_restart(line, out)
        rest = buf[start:]
        if len(rest) >= MAX_LINE:
            if not self._skipping:
                out.append(Reject("line longer than %d bytes" % MAX_LINE, rest[:40]))
            self._skipping = True
            rest = b""
        self._buf = rest
        return out

    def _split_restart(self, line, out):
        # type: (bytes, list[Frame | Reject]) -> None
        bang = line.rfind(b"!")
        if bang > 0:
            out.append(Reject("incomplete frame dropped (a new frame began)", line[:bang]))
            line = line[bang:]
        result = parse_line(line)
        if result is not None:
            out.append(result)


def parse_int(text, low, high, what):
    # type: (str, int, int, str) -> int
    """A bounded whole number from a field, or ValueError in words."""
    if not is_number(text):
        raise ValueError("%s '%s' is not a whole number as the tray writes one" % (what, text))
    value = int(text)
    if value < low or value > high:
        raise ValueError("%s %d is outside %d-%d" % (what, value, low, high))
    return value


def parse_roll(fields):
    # type: (tuple[str, ...]) -> tuple[str, int, str, int]
    """ROLL fields -> (die, roll number, state word, face index or -1); a version 2 ROLL's
    boot id is checked here and read with `roll_boot`."""
    if len(fields) not in (4, 5):
        raise ValueError("ROLL needs 4 fields (5 with its boot id), got %d" % len(fields))
    die, rollno, letter, face = fields[:4]
    if len(fields) == 5 and not is_hex4(fields[4]):
        raise ValueError("ROLL boot id '%s' is not four upper-case hex digits" % fields[4])
    state = STATES.get(letter)
    if state is None:
        raise ValueError("roll state '%s' is not R, S or C" % letter)
    number = parse_int(rollno, 0, SEQ_MOD - 1, "roll number")
    if face == "-":
        if state != "rolling":
            raise ValueError("a %s roll must name its face" % state)
        return die, number, state, -1
    return die, number, state, parse_int(face, 0, 119, "face index")


def roll_boot(fields):
    # type: (tuple[str, ...]) -> str | None
    """The boot id a version 2 ROLL carries (None from a version 1 tray)."""
    return fields[4] if len(fields) == 5 else None


def roll_fields(die, rollno, state, face, boot_id=None):
    # type: (str, int, str, int, int | None) -> tuple[str, ...]
    """A ROLL's fields; with `boot_id` (version 2) the roll names the boot it was made in."""
    fields = (die, str(rollno % SEQ_MOD), STATE_LETTERS[state], "-" if face < 0 else str(face))
    if boot_id is None:
        return fields
    return fields + ("%04X" % (boot_id & 0xFFFF),)


def seq_after(seq, last):
    # type: (int, int) -> int
    """How far `seq` is ahead of `last` on the 16-bit circle (negative when behind)."""
    diff = (seq - last) % SEQ_MOD
    return diff - SEQ_MOD if diff >= SEQ_MOD // 2 else diff


class SeqTracker:
    """Tells new frames from repeats and notices gaps (which call for a resync)."""

    def __init__(self):
        # type: () -> None
        self.last = None  # type: int | None

    def reset(self):
        # type: () -> None
        self.last = None

    def check(self, seq):
        # type: (int) -> tuple[str, int]
        """(verdict, missed): verdict is "new", "repeat" or "old"; missed counts lost frames."""
        if self.last is None:
            self.last = seq
            return "new", 0
        ahead = seq_after(seq, self.last)
        if ahead == 0:
            return "repeat", 0
        if ahead < 0:
            return "old", 0
        self.last = seq
        return "new", ahead - 1
