"""What the app does with the tray's frames, whichever wire they came over.

Serial and BLE deliver the same `wire.Frame`s; this turns them into `RollEvent`s once
each, keeps the dice list, notices lost frames (asking for a resync) and a rebooted
tray (a new boot id, a count or an uptime that goes back: never deaf until the count
catches up), and logs every frame it throws away in words.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from firmware.common import wire
from hardware.source import DeviceInfo, RollEvent

log = logging.getLogger("hardware.tray")


@dataclass
class TrayDie:
    id: str
    kind: str
    faces: int
    name: str
    battery: int | None = None


@dataclass
class TrayState:
    """What the host knows about the tray it talks to."""

    boot_id: str | None = None
    name: str = ""
    firmware: str = ""
    version: int = 0
    capabilities: tuple[str, ...] = ()
    battery: int | None = None
    dice: dict[str, TrayDie] = field(default_factory=dict)
    last_frame: float = 0.0
    synced: bool = False


class TrayLink:
    """Frames in, roll events out.  `send(kind, fields)` is how it asks the tray things;
    `replies` gets the tray's ACK/ERR to a host frame (for identify)."""

    def __init__(
        self,
        source: str,
        send: Callable[[str, tuple[str, ...]], int],
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.source = source
        self.send = send
        self.clock = clock
        self.state = TrayState()
        self.seq = wire.SeqTracker()
        self.delivered: dict[str, tuple[int, str]] = {}  # die -> (roll no, state) last given
        self.replies: dict[int, str] = {}
        self.rejected = 0
        # Until the first resync completes, rolls are old news (made before the app
        # listened): remembered so a repeat is recognised, never delivered.
        self.priming = True
        self.uptime: int | None = None  # the last heartbeat's, to see the tray restart
        self._hello_seen = asyncio.Event()
        self._synced_seen = asyncio.Event()

    async def handshake(self, timeout: float, where: str) -> None:
        """HELLO, then SYNC: the start of every connection (see PROTOCOL.md)."""
        self._hello_seen = asyncio.Event()
        self._synced_seen = asyncio.Event()
        self.lost_link()
        self._greet()
        try:
            await asyncio.wait_for(self._hello_seen.wait(), timeout)
            self.send(wire.SYNC, ())
            await asyncio.wait_for(self._synced_seen.wait(), timeout)
        except TimeoutError:
            from hardware.linked import DiceSourceError

            raise DiceSourceError(
                f"no dice tray answered on {where} within {timeout:g} s: "
                "check the cable, or choose another port"
            ) from None

    def _greet(self) -> None:
        self.send(wire.HELLO, (str(wire.VERSION), "0000", "host", "0", "roll"))

    def _start_afresh(self, why: str) -> None:
        """The tray's count restarted without a HELLO reaching us (it rebooted and the
        line was lost) or one misread frame threw ours off: take the count as it is now,
        and ask the tray who it is (a new boot id forgets the old dice) and for all it
        knows.  Rolls already delivered are not delivered again (`delivered`)."""
        log.warning(
            "%s: %s; taking the tray's count afresh and asking it to resync", self.source, why
        )
        self.uptime = None
        self._greet()
        self.send(wire.SYNC, ())

    def device_info(self, device_id: str, kind: str, connected: bool) -> DeviceInfo:
        """What the dice panel shows for the tray, whichever way it is connected."""
        st = self.state
        order = sorted(st.dice, key=_tray_order)  # the tray's own numbering, not arrival order
        return DeviceInfo(
            device_id,
            st.name or "dice tray",
            kind,
            st.battery,
            connected,
            [f"{self.source}:{d}" for d in order],
            {f"{self.source}:{d}": st.dice[d].name for d in order},
        )

    async def blink(self, die: str, timeout: float = 2.0) -> bool:
        """Ask the tray to blink a die; True once it says it did."""
        if "blink" not in self.state.capabilities:
            return False
        seq = self.send(wire.BLINK, (die,))
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            reply = self.replies.pop(seq, None)
            if reply is not None:
                return reply == "ok"
            await asyncio.sleep(0.01)
        return False

    def reject(self, reason: str) -> None:
        self.rejected += 1
        log.warning("%s: ignored a frame: %s", self.source, reason)

    def lost_link(self) -> None:
        """The wire went away: the next frames may skip ahead, that is not a gap."""
        self.seq.reset()
        self.state.synced = False

    def handle(self, item: wire.Frame | wire.Reject) -> RollEvent | None:
        """One decoded frame (or rejection); returns a roll event when there is a new one."""
        if isinstance(item, wire.Reject):
            self.reject(item.reason)
            return None
        now = self.clock()
        self.state.last_frame = now
        if item.kind == wire.HELLO:
            self._hello(item)
            return None
        last = self.seq.last
        verdict, missed = self.seq.check(item.seq)
        if verdict == "repeat":
            self.reject(f"frame {item.seq} came again")
            return None
        if verdict == "old":
            # One wire never reorders: a count that goes back means the tray restarted
            # (its HELLO lost) or the frame before was misread far ahead.  Dropping frames
            # until the count caught up would leave the app deaf for hours.
            self.seq.reset()
            self.seq.check(item.seq)
            self._start_afresh(f"frame {item.seq} came after frame {last}")
        elif missed:
            log.warning(
                "%s: %d frame(s) lost before %d; asking the tray to resync",
                self.source,
                missed,
                item.seq,
            )
            self.send(wire.SYNC, ())
        try:
            return self._frame(item, now)
        except (ValueError, IndexError) as exc:
            self.reject(f"{item.kind} frame {item.seq} is malformed: {exc}")
            return None

    def _hello(self, frame: wire.Frame) -> None:
        f = frame.fields
        if len(f) < 5:
            self.reject("HELLO frame is missing fields")
            return None
        if f[0] != str(wire.VERSION):
            self.reject(f"tray speaks protocol version {f[0]}; this app speaks {wire.VERSION}")
            return None
        if not wire.is_hex4(f[1]):
            self.reject(f"HELLO boot id '{f[1]}' is not four upper-case hex digits")
            return None
        st = self.state
        if st.boot_id is not None and st.boot_id != f[1]:
            log.info("%s: the tray restarted; starting its sequence afresh", self.source)
            self.delivered.clear()
            st.dice.clear()
        st.boot_id, st.name, st.firmware = f[1], f[2], f[3]
        self.uptime = None
        st.version = int(f[0])
        st.capabilities = tuple(f[4].split(","))
        self.seq.reset()
        self.seq.check(frame.seq)
        self._hello_seen.set()
        return None

    def _frame(self, frame: wire.Frame, now: float) -> RollEvent | None:
        kind, f = frame.kind, frame.fields
        st = self.state
        if kind == wire.ROLL:
            die, rollno, state, face = wire.parse_roll(f)
            known = st.dice.get(die)
            if known is not None and face >= known.faces:
                raise ValueError(f"die {die} has {known.faces} faces, not a face index {face}")
            if self.delivered.get(die) == (rollno, state):
                return None  # already given (a resync repeats the last roll)
            self.delivered[die] = (rollno, state)
            if self.priming:
                return None
            return RollEvent(f"{self.source}:{die}", face, state, now, rollno, self.source)
        if kind == wire.DIE:
            if len(f) != 4:
                raise ValueError("DIE needs 4 fields")
            faces = wire.parse_int(f[2], 1, 120, "face count")
            old = st.dice.get(f[0])
            st.dice[f[0]] = TrayDie(f[0], f[1], faces, f[3], old.battery if old else None)
        elif kind == wire.GONE:
            st.dice.pop(f[0], None)
            self.delivered.pop(f[0], None)
        elif kind == wire.BATTERY:
            pct = wire.parse_int(f[1], 0, 100, "battery percent")
            if f[0] == "tray":
                st.battery = pct
            elif f[0] in st.dice:
                st.dice[f[0]].battery = pct
        elif kind in (wire.ACK, wire.ERROR):
            host_seq = wire.parse_int(f[0], 0, wire.SEQ_MOD - 1, "acknowledged frame")
            self.replies[host_seq] = "ok" if kind == wire.ACK else (f[1] if len(f) > 1 else "error")
        elif kind == wire.SYNCED:
            st.synced = True
            self.priming = False
            self._synced_seen.set()
        elif kind == wire.HEARTBEAT:
            uptime = wire.parse_int(f[0], 0, 2**32 - 1, "uptime") if f else None
            if uptime is not None and self.uptime is not None and uptime < self.uptime:
                self._start_afresh(
                    f"the tray's uptime went back from {self.uptime} s to {uptime} s"
                )
            self.uptime = uptime
        else:
            log.info("%s: frame type %s is not known here; ignored", self.source, kind)
        return None


def _tray_order(die: str) -> tuple[int, int, str]:
    """Dice numbered by the tray ("1", "2", ... "10") in that order, then any others."""
    return (0, int(die), "") if die.isdigit() else (1, 0, die)
