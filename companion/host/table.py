"""Phone commands applied to the session exactly once, and refused in words when the
game has moved on; every phone's seat kept in the session file.

Each phone numbers its commands.  The table remembers, per phone, which numbers it has
handled (not just the highest: a number that arrives late, after a higher one, is still
applied or refused, never waved through as "already done") and the replies to the last
few, so a command resent after a dropped connection gets its first reply again instead of
running twice.  That record is written in the same SQLite transaction as the move itself
(`Session.guarded`), so a tablet killed between the two cannot apply a resend twice.

A command carries the revision the phone saw, an answer the key of the request it
answers; both are checked after taking in what other programs wrote, under the write
lock, so an answer to a roll that was undone or answered meanwhile (by the tablet, a
phone or `companion undo` beside it) is refused with the reason, never applied to a
request the player did not see.  Call everything here from the one loop that owns the
session.
"""

from __future__ import annotations

import logging
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from companion.core.actions import offers
from companion.core.rules import RuleError
from companion.core.store import SessionFileError
from companion.host.tokens import Tokens
from companion.host.view import (
    TableView,
    legal_actions,
    name_of,
    revision,
    table_view,
    waiting_key,
)

if TYPE_CHECKING:
    from companion.core.rules import Action, Request
    from companion.core.session import Session

log = logging.getLogger(__name__)

REPLIES_KEPT = 32  # replies remembered per phone for resends (a page's outbox is a few)
TXS_KEPT = 32  # a phone's own transactions remembered, for its Undo
RATE = 20.0  # commands a second a phone may keep up
BURST = 40.0  # commands a phone may send at once after a pause
MAX_PHONES = 16  # phones seated at once: a table seats a handful
SEAT_IDLE = 30.0  # seconds a seat that never played may sit before a new phone takes it
UNPLAYED_PER_ADDRESS = 12  # seats that never played from one address: room stays for others
TABLE_KEY = "phones.table"  # the session file's record of this table's hosting
SEAT_KEY = "phones.seat:"  # ... and of each phone's seat, one record a phone


@dataclass
class Phone:
    """One seated phone: its name and hero, the numbers it has sent, its transactions."""

    id: str
    name: str
    hero: str = ""
    floor: int = 0  # every number up to here is handled (or too old to remember)
    replies: OrderedDict[int, dict[str, object]] = field(default_factory=OrderedDict)
    txs: set[int] = field(default_factory=set)
    played: bool = False  # has a command applied: a real player, never evicted
    address: str = ""  # where it said hello from (not kept: a restart starts afresh)
    seen: float = 0.0  # wall-clock time of its last message
    allowance: float = BURST
    stamp: float = 0.0
    connected: bool = False

    @property
    def last_seq(self) -> int:
        return max([self.floor, *self.replies])

    def handled_above_floor(self) -> list[int]:
        return sorted(s for s in self.replies if s > self.floor)

    def remember(self, seq: int, reply: dict[str, object]) -> None:
        """Keep `reply` as the answer to number `seq` for good."""
        self.replies[seq] = reply
        self.replies = OrderedDict(sorted(self.replies.items()))
        while len(self.replies) > REPLIES_KEPT:
            oldest, _ = self.replies.popitem(last=False)
            self.floor = max(self.floor, oldest)  # a gap below it is forgotten: refused later
        while self.floor + 1 in self.replies:
            self.floor += 1

    def to_json(self) -> dict[str, object]:
        return {
            "id": self.id,
            "name": self.name,
            "hero": self.hero,
            "floor": self.floor,
            # [number, ok, words, revision]: small, as it is written with every move
            "replies": [
                [seq, bool(r.get("ok")), str(r.get("text", "")), r.get("rev")]
                for seq, r in self.replies.items()
            ],
            "txs": sorted(self.txs)[-TXS_KEPT:],
            "played": self.played,
            "seen": self.seen,
        }

    @classmethod
    def from_json(cls, doc: object) -> Phone | None:
        """A seat kept in the session file; None when it is unreadable (that phone joins
        afresh)."""
        if not isinstance(doc, dict):
            return None
        try:
            phone = cls(str(doc["id"]), str(doc["name"]), str(doc.get("hero") or ""))
            phone.floor = int(doc.get("floor") or 0)
            for seq, ok, text, rev in doc.get("replies") or []:
                phone.replies[int(seq)] = {
                    "t": "ack",
                    "seq": int(seq),
                    "ok": bool(ok),
                    "text": str(text),
                    "rev": rev,
                }
            phone.txs = {int(tx) for tx in doc.get("txs") or []}
            phone.played = bool(doc.get("played"))
            phone.seen = float(doc.get("seen") or 0.0)
        except (KeyError, TypeError, ValueError):
            return None
        return phone


class _PhoneMove:
    """A phone's command as `Session.guarded` runs it: `check` refuses it in words when
    the request or button it was made for is gone (after other writers' commits are in),
    `wrote` keeps its number and reply in the move's own transaction."""

    def __init__(
        self, table: Table, phone: Phone, seq: int, check: Callable[[], None], text: str
    ) -> None:
        self.table, self.phone, self.seq, self._check, self.text = table, phone, seq, check, text
        self.tx: int | None = None
        self.reply: dict[str, object] = {}

    def check(self) -> None:
        self._check()

    def wrote(self, tx: int) -> None:
        self.tx = tx
        self.reply = self.table._reply(self.seq, True, self.text)
        seat = Phone.from_json(self.phone.to_json())
        assert seat is not None
        seat.remember(self.seq, self.reply)
        seat.txs.add(tx)
        seat.played = True
        self.table.session.store.set_meta(SEAT_KEY + seat.id, seat.to_json())


class Table:
    """The session as the phones see it, and the phones' seats."""

    def __init__(
        self,
        session: Session,
        clock: Callable[[], float] = time.monotonic,
        rate: float = RATE,
        burst: float = BURST,
        wall: Callable[[], float] = time.time,
    ) -> None:
        self.session = session
        self.clock = clock
        self.wall = wall
        self.rate = rate
        self.burst = burst
        self.phones: dict[str, Phone] = {}
        self.evicted: list[Phone] = []  # seats given to newer phones, for the host to close
        self.tokens: Tokens | None = None
        self.epoch = secrets.token_hex(6)
        self.port = 0
        self._kept_tokens: object = None
        self._restore()

    # -- kept with the session -------------------------------------------------------------

    def _restore(self) -> None:
        """Take the seats back from the session file (the tablet restarted)."""
        try:
            meta = self.session.store.meta()
        except SessionFileError as exc:
            log.warning("the phones' seats could not be read: %s", exc)
            return
        kept = meta.get(TABLE_KEY)
        if isinstance(kept, dict):
            if isinstance(kept.get("epoch"), str) and kept["epoch"]:
                self.epoch = kept["epoch"]
            if isinstance(kept.get("port"), int):
                self.port = kept["port"]
            self._kept_tokens = kept.get("tokens")
        for key, doc in meta.items():
            if key.startswith(SEAT_KEY) and doc is not None:
                phone = Phone.from_json(doc)
                if phone is not None:
                    phone.allowance = self.burst
                    phone.stamp = self.clock()
                    self.phones[phone.id] = phone

    def attach(self, tokens: Tokens) -> None:
        """Use `tokens` for this table, with the passes the session file kept."""
        self.tokens = tokens
        if self._kept_tokens is not None:
            tokens.restore(self._kept_tokens)
            self._kept_tokens = None

    def _write(self, key: str, value: object) -> None:
        store = self.session.store
        try:
            if store.db.in_transaction:
                store.set_meta(key, value)
            else:
                with store.transaction():
                    store.set_meta(key, value)
        except SessionFileError as exc:  # the seat still works until the tablet restarts
            log.warning("a phone's seat could not be saved: %s", exc)

    def save_seat(self, phone: Phone) -> None:
        self._write(SEAT_KEY + phone.id, phone.to_json())

    def save_table(self) -> None:
        """The hosting's own record: its name, port and the passes given out."""
        doc: dict[str, object] = {"epoch": self.epoch, "port": self.port}
        if self.tokens is not None:
            doc["tokens"] = self.tokens.to_json()
        self._write(TABLE_KEY, doc)

    # -- phones ------------------------------------------------------------------------

    def join(self, phone_id: str, name: str, hero: object = None, address: str = "") -> Phone:
        """Seat a phone, or welcome it back to its seat.  Seats that never played give way
        (`evicted`) to a new phone: the oldest from its own address once that address holds
        UNPLAYED_PER_ADDRESS of them, and when every seat is taken one that is gone or has
        sat idle SEAT_IDLE.  So phone ids made up to fill the table never keep a real
        phone out."""
        phone_id = _clean(phone_id, 64)
        if not phone_id:
            raise RuleError("This phone did not say who it is: reload the page.")
        phone = self.phones.get(phone_id)
        if phone is None:
            mine = [p for p in self.phones.values() if p.address == address and not p.played]
            if address and len(mine) >= UNPLAYED_PER_ADDRESS:
                self._evict(min(mine, key=lambda p: p.seen))
        if phone is None and len(self.phones) >= MAX_PHONES:
            self._make_room()
        if phone is None:
            phone = Phone(phone_id, _clean(name, 30) or "Phone", allowance=self.burst)
            phone.stamp = self.clock()
            self.phones[phone_id] = phone
        elif _clean(name, 30):
            phone.name = _clean(name, 30)
        if isinstance(hero, str):
            phone.hero = _clean(hero, 64)
        phone.seen = self.wall()
        phone.address = address or phone.address
        self.save_seat(phone)
        return phone

    def _make_room(self) -> None:
        now = self.wall()
        idle = [
            p
            for p in self.phones.values()
            if not p.played and (not p.connected or now - p.seen >= SEAT_IDLE)
        ]
        if not idle:
            raise RuleError("The table is full: remove a phone on the tablet first.")
        self._evict(min(idle, key=lambda p: (p.connected, p.seen)))

    def _evict(self, phone: Phone) -> None:
        self.remove(phone.id)
        self.evicted.append(phone)

    def seat(self, phone: Phone, name: object = None, hero: object = None) -> None:
        """A phone's new name or hero, kept with its seat."""
        if isinstance(name, str) and _clean(name, 30):
            phone.name = _clean(name, 30)
        if isinstance(hero, str):
            phone.hero = _clean(hero, 64)
        self.save_seat(phone)

    def remove(self, phone_id: str) -> None:
        if self.phones.pop(phone_id, None) is not None:
            self._write(SEAT_KEY + phone_id, None)
        if self.tokens is not None:
            self.tokens.revoke_phone(phone_id)
            self.save_table()

    def whose(self, tx: int) -> str | None:
        """Whose phone made transaction `tx`, in words; None for the tablet's own."""
        for phone in self.phones.values():
            if tx in phone.txs:
                return f"{phone.name}'s phone"
        return None

    def view(self) -> TableView:
        return table_view(self.session, self.whose)

    # -- commands ------------------------------------------------------------------------

    def command(self, phone: Phone, message: Mapping[str, object]) -> dict[str, object]:
        """Apply one command from `phone` (at most once) and return the reply to send."""
        seq = message.get("seq")
        if isinstance(seq, bool) or not isinstance(seq, int) or seq < 1 or seq > 2**53:
            return self._reply(None, False, "The phone sent a command without its number.")
        phone.seen = self.wall()
        kept = phone.replies.get(seq)
        if kept is not None:
            return {**kept, "again": True}
        if seq <= phone.floor:
            # handled long ago, or skipped past: the tablet cannot say which, so it is not
            # run now against a state the player did not see, and not called done either
            return self._reply(
                seq,
                False,
                "The tablet no longer knows that tap (it is too old): look at the table "
                "and tap again if it is still needed.",
            )
        if not self.allowed(phone):
            # not counted as handled: the phone may send the same number again later
            return self._reply(seq, False, "Too fast: wait a moment and try again.", retry=True)
        try:
            move = self._apply(phone, seq, message)
        except _Refused as refused:
            reply = self._reply(seq, False, refused.text)
            phone.remember(seq, reply)
            self.save_seat(phone)
            return reply
        except SessionFileError as exc:  # nothing was written: the number is not used up
            return self._reply(seq, False, f"The tablet could not save that: {exc}", retry=True)
        reply = move.reply | {"rev": revision(self.session)}
        phone.remember(seq, reply)
        phone.played = True
        if move.tx is not None:
            phone.txs.add(move.tx)
        while len(phone.txs) > TXS_KEPT:
            phone.txs.discard(min(phone.txs))
        if reply["text"] != move.text:  # a card's words are known only once it was read
            self.save_seat(phone)
        return reply

    def _reply(self, seq: int | None, ok: bool, text: str, **extra: object) -> dict[str, object]:
        reply: dict[str, object] = {
            "t": "ack",
            "seq": seq,
            "ok": ok,
            "text": text,
            "rev": revision(self.session),
        }
        return reply | extra

    def allowed(self, phone: Phone) -> bool:
        """Whether `phone` may be served now: a token bucket of `rate` a second, `burst` deep."""
        now = self.clock()
        phone.allowance = min(self.burst, phone.allowance + (now - phone.stamp) * self.rate)
        phone.stamp = now
        if phone.allowance < 1:
            return False
        phone.allowance -= 1
        return True

    def _apply(self, phone: Phone, seq: int, message: Mapping[str, object]) -> _PhoneMove:
        """Run the command under its guard; _Refused with the words when it is not run."""
        do = message.get("do")
        args = message.get("with") or {}
        if not isinstance(do, str) or not isinstance(args, dict):
            raise _Refused("The phone sent a command the tablet cannot read.")
        by = f"phone: {phone.name}"
        session = self.session
        try:
            if do == "answer":
                move = self._move(phone, seq, lambda: None, "Answered.")
                move._check = lambda: self._still_waiting(message, move)
                with session.guarded(move):
                    session.answer(args.get("values"), by=by)
                return move
            if do == "scan":
                return self._scan(phone, seq, args.get("text"), by)
            if do == "undo":
                move = self._move(phone, seq, lambda: self._own_last(phone), "Undone.")
                with session.guarded(move):
                    result = session.undo()
                phone.txs.add(result.tx)
                return move
            action: Action = {"do": do, "with": args}
            move = self._move(phone, seq, lambda: self._offered(action, message), "Done.")
            with session.guarded(move):
                result = session.do(do, args)
            phone.txs.add(result.tx)
            return move
        except RuleError as exc:
            raise _Refused(exc.message) from None

    def _move(self, phone: Phone, seq: int, check: Callable[[], None], text: str) -> _PhoneMove:
        return _PhoneMove(self, phone, seq, check, text)

    # the checks below run inside the write transaction, after other writers' commits

    def _still_waiting(self, message: Mapping[str, object], move: _PhoneMove) -> None:
        request = self.session.request
        if request is None:
            raise RuleError("Nothing is waiting for a roll now: someone answered it already.")
        if message.get("waiting") != waiting_key(self.session):
            what = "roll" if request.kind == "dice" else "card"
            raise RuleError(
                f"That {what} was already answered or taken back: the game moved on. "
                f"Now: {request.why}."
            )
        args = message.get("with")  # a dict, or nothing: `_apply` refused anything else
        values = args.get("values") if isinstance(args, dict) else None
        move.text = _answered(self.session, request, values)

    def _own_last(self, phone: Phone) -> None:
        alive = self.session.chain.alive
        if len(alive) <= 1 or alive[-1] not in phone.txs:
            raise RuleError(
                "Undo takes back only this phone's own last action, and the last step was not it."
            )

    def _offered(self, action: Action, message: Mapping[str, object]) -> None:
        """A button the phone was shown is sent as listed; whether it still is a listed
        action (a table fact within what the action declares) is the rules' `offers`."""
        offered = legal_actions(self.session)
        listed = any(offers(a, action["do"], action["with"]) for a in offered)
        moved_on = message.get("rev") != revision(self.session)
        if moved_on and not listed:
            raise RuleError("The game moved on: that is no longer possible.")
        if offered and not listed:
            raise RuleError("The rules do not offer that now.")

    def _scan(self, phone: Phone, seq: int, text: object, by: str) -> _PhoneMove:
        from companion.table.card_answers import offer_card

        if not isinstance(text, str) or not text or len(text) > 512:
            raise _Refused("The camera read nothing the tablet can use.")
        move = self._move(phone, seq, lambda: None, "Card read.")
        with self.session.guarded(move):
            offer = offer_card(self.session, text, by=by)
        if move.tx is None or not offer.accepted:
            raise _Refused(offer.message)
        if offer.result is not None:
            phone.txs.add(offer.result.tx)
        move.reply["text"] = offer.message
        return move


class _Refused(Exception):
    """A command not run, with the words for the player."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text


def _answered(session: Session, request: Request, values: object) -> str:
    """The value a player tapped, echoed ("You rolled 4: to score."), so a phone shows
    what the tablet took."""
    if isinstance(values, list):
        shown = ", ".join(str(v) for v in values)
    else:
        shown = name_of(session, values) if isinstance(values, str) else str(values)
    verb = "rolled" if request.kind == "dice" else "chose"
    return f"You {verb} {shown}: {request.why}."


def _clean(text: object, limit: int) -> str:
    """A phone-given name or id with control characters dropped and its length capped."""
    if not isinstance(text, str):
        return ""
    return "".join(c for c in text if c.isprintable()).strip()[:limit]
