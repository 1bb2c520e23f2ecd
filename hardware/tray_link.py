"""What the app does with the tray's frames, whichever wire they came over.

Serial and BLE deliver the same `wire.Frame`s; this turns them into `RollEvent`s once
each, keeps the dice list, notices lost frames (asking for a resync) and a rebooted
tray (a new boot id, a count or an uptime that goes back: never deaf until the count
catches up), and logs every frame it throws away in words.

A roll is new only when its die's roll number is past the furthest this host has seen
from that die in that boot of the tray (`BootMarks`).  Frame sequence numbers say what
was lost, never what is new: a ROLL replayed after a reconnect, a lost HELLO or a resync
names a roll already seen and is dropped, however its frame is numbered (issue 26).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict
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


RANK = {"rolling": 0, "settled": 1, "crooked": 1}  # a roll number's states, in order
KEEP_BOOTS = 64  # boots remembered per link: each a few bytes per die


@dataclass
class BootMarks:
    """What one boot of the tray has shown this host: per die, the furthest (roll number,
    rank) seen.  A ROLL at or behind it was seen before; the roll numbers are the tray's
    own, which only go up within a boot (version 2 also across a die leaving and joining
    again; version 1 restarts a die that joins again at 1, so its marks go with it)."""

    version: int
    marks: dict[str, tuple[int, int]] = field(default_factory=dict)

    def take(self, die: str, rollno: int, state: str) -> bool:
        """True when (rollno, state) is past the mark (and moves it); False: seen before."""
        rank = RANK[state]
        mark = self.marks.get(die)
        if mark is not None:
            ahead = wire.seq_after(rollno, mark[0])
            if ahead < 0 or (ahead == 0 and rank <= mark[1]):
                return False
        self.marks[die] = (rollno, rank)
        return True


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
        # every boot of the tray this link has heard a HELLO from, oldest first
        self.boots: OrderedDict[str, BootMarks] = OrderedDict()
        self.replies: dict[int, str] = {}
        self.rejected = 0
        self.replayed = 0  # ROLL frames of rolls already seen, dropped
        self._asked: float | None = None  # when the host's HELLO went unanswered since
        self._asked_who: float | None = None  # when a frame that did not fit last asked
        self._sync_sent: float | None = None  # a SYNC not yet answered by SYNCED
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
        self._asked = self.clock()
        self.send(wire.HELLO, (str(wire.VERSION), "0000", "host", "0", "roll"))

    def _sync(self) -> None:
        """Ask for everything (SYNC), unless a SYNC went out less than a second ago and
        its SYNCED has not come: that answer will hold everything lost until it was
        asked, so a burst of gaps or old frames costs the tray one resync, not hundreds."""
        now = self.clock()
        if self._sync_sent is not None and now - self._sync_sent < 1.0:
            return
        self._sync_sent = now
        self.send(wire.SYNC, ())

    def _ask_who(self, why: str) -> None:
        """Something does not fit the boot this host believes it talks to: ask the tray
        who it is and for everything (HELLO, then SYNC: its resync's ROLLs then come
        after the HELLO naming their boot).  At most once a second however many frames
        do not fit: a replayed burst of old frames must not set off a burst of resyncs."""
        now = self.clock()
        if self._asked_who is not None and now - self._asked_who < 1.0:
            return
        self._asked_who = now
        log.warning("%s: %s; asking the tray who it is", self.source, why)
        self._greet()
        self._sync_sent = now
        self.send(wire.SYNC, ())

    def _start_afresh(self, why: str) -> None:
        """The tray's count restarted without a HELLO reaching us (it rebooted and the
        line was lost) or one misread frame threw ours off: take the count as it is now,
        and ask the tray who it is (a new boot id forgets the old dice) and for all it
        knows.  Rolls already seen are not delivered again (`BootMarks`)."""
        log.warning(
            "%s: %s; taking the tray's count afresh and asking it to resync", self.source, why
        )
        self.uptime = None
        self._ask_who(why)

    def _forget_version_1_boot(self) -> None:
        """A version 1 tray restarted (its uptime went back): old firmware draws its boot
        id from the clock at power-up, so the new boot may carry the old id and count
        its rolls from 1 again.  Its marks must go, or the tray would go unheard until
        each die passed its old roll number.  (Version 2 draws a random id and names it
        in every ROLL: nothing to forget; a replayed heartbeat cannot reopen anything.)"""
        boot = self.state.boot_id
        marks = self.boots.get(boot) if boot is not None else None
        if marks is not None and marks.version < 2 and marks.marks:
            log.info("%s: a version 1 tray restarted; its roll numbers start again", self.source)
            marks.marks.clear()

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
        self._sync_sent = None  # a SYNC sent on the old wire is answered on none

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
            self._sync()
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
        if f[0] not in {str(v) for v in wire.VERSIONS}:
            self.reject(
                f"tray speaks protocol version {f[0]}; this app speaks "
                + " and ".join(str(v) for v in wire.VERSIONS)
            )
            return None
        if not wire.is_hex4(f[1]):
            self.reject(f"HELLO boot id '{f[1]}' is not four upper-case hex digits")
            return None
        st = self.state
        boot = f[1]
        asked = self._asked is not None and self.clock() - self._asked < 5.0
        if boot != st.boot_id and boot in self.boots and not asked:
            # A tray that restarts draws a new boot id; one this host saw the tray leave,
            # unasked, is an old frame come again.  Believing it would judge the tray's
            # new rolls against the wrong marks: ask the tray itself.
            self.reject(f"a HELLO from the tray's earlier boot {boot} came again")
            self._ask_who("an old HELLO came again")
            return None
        if st.boot_id is not None and st.boot_id != boot:
            log.info("%s: the tray restarted; starting its sequence afresh", self.source)
            st.dice.clear()
            if not asked:
                self._sync()  # its dice, as the new boot knows them
        version = int(f[0])
        marks = self.boots.pop(boot, None) or BootMarks(version)
        marks.version = version
        self.boots[boot] = marks  # the newest last
        while len(self.boots) > KEEP_BOOTS:
            self.boots.popitem(last=False)
        if boot != st.boot_id:
            self.uptime = None  # a new boot counts from 0; the same one (a cable moved)
            # counts on, and a heartbeat going back then shows a restart with the old id
        st.boot_id, st.name, st.firmware = boot, f[2], f[3]
        st.version = version
        st.capabilities = tuple(f[4].split(","))
        self._asked = None
        self.seq.reset()
        self.seq.check(frame.seq)
        self._hello_seen.set()
        return None

    def _roll(self, frame: wire.Frame, now: float) -> RollEvent | None:
        """A ROLL: an event when it is a roll this host has not seen, else None."""
        st = self.state
        die, rollno, state, face = wire.parse_roll(frame.fields)
        known = st.dice.get(die)
        if known is not None and face >= known.faces:
            raise ValueError(f"die {die} has {known.faces} faces, not a face index {face}")
        boot = wire.roll_boot(frame.fields) or st.boot_id
        marks = self.boots.get(boot) if boot is not None else None
        if marks is None:
            # a roll from a boot no HELLO has told of: the tray restarted and its HELLO
            # was lost, or an old frame came again.  The tray's answer tells which; its
            # resync brings the die's last roll if it is new.
            self.reject(f"a roll of die {die} from boot {boot}, which has not said HELLO")
            self._ask_who(f"a roll came from the tray's boot {boot}, unknown here")
            return None
        if boot != st.boot_id:
            # a roll of a boot the tray has left is an old frame (or this host was fooled
            # by an old HELLO): not delivered and not marked.  If the tray is in that boot
            # after all, its answer says so and its resync brings the die's last roll.
            self.reject(f"a roll of die {die} from the tray's earlier boot {boot}")
            self._ask_who(f"a roll came from the tray's earlier boot {boot}")
            return None
        if not marks.take(die, rollno, state):
            self.replayed += 1
            log.info(
                "%s: die %s roll %d (%s, boot %s) was seen before; not a new roll",
                self.source,
                die,
                rollno,
                state,
                boot,
            )
            return None
        if self.priming:
            return None
        return RollEvent(f"{self.source}:{die}", face, state, now, rollno, self.source)

    def _frame(self, frame: wire.Frame, now: float) -> RollEvent | None:
        kind, f = frame.kind, frame.fields
        st = self.state
        if kind == wire.ROLL:
            return self._roll(frame, now)
        if kind == wire.DIE:
            if len(f) != 4:
                raise ValueError("DIE needs 4 fields")
            faces = wire.parse_int(f[2], 1, 120, "face count")
            old = st.dice.get(f[0])
            st.dice[f[0]] = TrayDie(f[0], f[1], faces, f[3], old.battery if old else None)
        elif kind == wire.GONE:
            st.dice.pop(f[0], None)
            marks = self.boots.get(st.boot_id) if st.boot_id is not None else None
            if marks is not None and marks.version < 2:
                # a version 1 tray counts a die that joins again from 1: its mark must go
                # (a replayed roll of it may then come again: version 2 closes that)
                marks.marks.pop(f[0], None)
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
            self._sync_sent = None
            st.synced = True
            self.priming = False
            self._synced_seen.set()
        elif kind == wire.HEARTBEAT:
            uptime = wire.parse_int(f[0], 0, 2**32 - 1, "uptime") if f else None
            if uptime is not None and self.uptime is not None and uptime < self.uptime:
                self._forget_version_1_boot()
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
