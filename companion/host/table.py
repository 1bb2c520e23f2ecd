"""Phone commands applied to the session exactly once, and refused in words when the
game has moved on.

Each phone numbers its commands.  The table remembers, per phone, the highest number it
has handled and the replies to the last few, so a command resent after a dropped
connection gets its first reply again instead of running twice.  A command carries the
revision the phone saw; when the log has moved on since, the command is looked at again
against the state now: an answer to a request that was meanwhile answered, or a button
the rules no longer offer, is refused with the reason, never applied to a state the
player did not see.  Call everything here from the one loop that owns the session.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from companion.core.rules import RuleError
from companion.core.store import SessionFileError
from companion.host.view import legal_actions, revision, same_action, table_view, waiting_key

REPLIES_KEPT = 64  # replies remembered per phone for resends
RATE = 20.0  # commands a second a phone may keep up
BURST = 40.0  # commands a phone may send at once after a pause
MAX_PHONES = 16  # phones remembered at once: a table seats a handful


@dataclass
class Phone:
    """One joined phone: its name, what it has sent, and the transactions it made."""

    id: str
    name: str
    last_seq: int = 0
    replies: OrderedDict[int, dict[str, Any]] = field(default_factory=OrderedDict)
    txs: set[int] = field(default_factory=set)
    allowance: float = BURST
    stamp: float = 0.0
    connected: bool = False


class Table:
    """The session as the phones see it."""

    def __init__(
        self,
        session: Any,
        clock: Callable[[], float] = time.monotonic,
        rate: float = RATE,
        burst: float = BURST,
    ) -> None:
        self.session = session
        self.clock = clock
        self.rate = rate
        self.burst = burst
        self.phones: dict[str, Phone] = {}

    # -- phones ------------------------------------------------------------------------

    def join(self, phone_id: str, name: str) -> Phone:
        phone_id = _clean(phone_id, 64)
        if not phone_id:
            raise RuleError("This phone did not say who it is: reload the page.")
        phone = self.phones.get(phone_id)
        if phone is None and len(self.phones) >= MAX_PHONES:
            raise RuleError("The table is full: remove a phone on the tablet first.")
        if phone is None:
            phone = Phone(phone_id, _clean(name, 30) or "Phone", allowance=self.burst)
            phone.stamp = self.clock()
            self.phones[phone_id] = phone
        elif name:
            phone.name = _clean(name, 30)
        return phone

    def remove(self, phone_id: str) -> None:
        self.phones.pop(phone_id, None)

    def view(self) -> dict[str, Any]:
        return table_view(self.session)

    # -- commands ------------------------------------------------------------------------

    def command(self, phone: Phone, message: dict[str, Any]) -> dict[str, Any]:
        """Apply one command from `phone` (at most once) and return the reply to send."""
        seq = message.get("seq")
        if isinstance(seq, bool) or not isinstance(seq, int) or seq < 1:
            return self._reply(None, False, "The phone sent a command without its number.")
        if seq <= phone.last_seq:
            kept = phone.replies.get(seq)
            if kept is not None:
                return {**kept, "again": True}
            return self._reply(seq, True, "Already done.", again=True)
        if not self.allowed(phone):
            # not counted as handled: the phone may send the same number again later
            return self._reply(seq, False, "Too fast: wait a moment and try again.", retry=True)
        ok, text = self._apply(phone, message)
        reply = self._reply(seq, ok, text)
        phone.last_seq = seq
        phone.replies[seq] = reply
        while len(phone.replies) > REPLIES_KEPT:
            phone.replies.popitem(last=False)
        return reply

    def _reply(self, seq: int | None, ok: bool, text: str, **extra: Any) -> dict[str, Any]:
        reply = {"t": "ack", "seq": seq, "ok": ok, "text": text, "rev": revision(self.session)}
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

    def _apply(self, phone: Phone, message: dict[str, Any]) -> tuple[bool, str]:
        do = message.get("do")
        args = message.get("with") or {}
        if not isinstance(do, str) or not isinstance(args, dict):
            return False, "The phone sent a command the tablet cannot read."
        seen_rev = message.get("rev")
        moved_on = seen_rev != revision(self.session)
        by = f"phone: {phone.name}"
        try:
            if do == "answer":
                return self._answer(phone, message, args.get("values"), by)
            if do == "scan":
                return self._scan(phone, args.get("text"), by)
            if do == "undo":
                return self._undo(phone)
            return self._action(phone, {"do": do, "with": args}, moved_on)
        except RuleError as exc:
            return False, exc.message
        except SessionFileError as exc:
            return False, f"The tablet could not save that: {exc}"

    def _answer(
        self, phone: Phone, message: dict[str, Any], values: Any, by: str
    ) -> tuple[bool, str]:
        request = self.session.request
        if request is None:
            return False, "Nothing is waiting for a roll now: someone answered it already."
        if message.get("waiting") != waiting_key(self.session):
            return False, f"The game moved on: that roll was answered. Now: {request.why}."
        result = self.session.answer(values, by=by)
        phone.txs.add(result.tx)
        return True, "Answered."

    def _scan(self, phone: Phone, text: Any, by: str) -> tuple[bool, str]:
        from vision.answering import offer_card

        if not isinstance(text, str) or not text or len(text) > 512:
            return False, "The camera read nothing the tablet can use."
        offer = offer_card(self.session, text, by=by)
        if offer.result is not None:
            phone.txs.add(offer.result.tx)
        return offer.accepted, offer.message

    def _undo(self, phone: Phone) -> tuple[bool, str]:
        alive = self.session.chain.alive
        if len(alive) <= 1 or alive[-1] not in phone.txs:
            return (
                False,
                "Undo takes back only this phone's own last action, and the last step was not it.",
            )
        result = self.session.undo()
        phone.txs.add(result.tx)
        return True, "Undone."

    def _action(self, phone: Phone, action: dict[str, Any], moved_on: bool) -> tuple[bool, str]:
        offered = legal_actions(self.session)
        if moved_on and not any(same_action(action, a) for a in offered):
            return False, "The game moved on: that is no longer possible."
        if offered and not any(same_action(action, a) for a in offered):
            return False, "The rules do not offer that now."
        result = self.session.do(action["do"], action["with"])
        phone.txs.add(result.tx)
        return True, "Done."


def _clean(text: Any, limit: int) -> str:
    """A phone-given name or id with control characters dropped and its length capped."""
    if not isinstance(text, str):
        return ""
    return "".join(c for c in text if c.isprintable()).strip()[:limit]
