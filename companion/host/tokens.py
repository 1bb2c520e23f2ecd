"""Who may talk to the tablet: a short-lived join token in the QR code, then one token per
phone that the tablet can take back.

Why two kinds: the QR code is on a screen anyone at (or walking past) the table can
photograph, so it opens the door only for a few minutes; a phone that came in gets its own
token, which lasts the evening and is revoked when the phone is removed from the Phones
panel.  Every request carries one or the other, and a refusal says which it was in words.

Tokens are kept by their SHA-256, never as given: the session file stores them (a tablet
restart keeps every phone's pass working) without holding anything a copy of the file
could use to get in, and a token of any bytes or length is only ever hashed, never
compared or printed.  Expiry is wall-clock time, so it survives the restart too.
"""

from __future__ import annotations

import hashlib
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass

JOIN_TTL = 10 * 60.0  # seconds a join link stays good
PHONE_TTL = 12 * 3600.0  # seconds a joined phone's token stays good without a re-join
MAX_TOKEN = 200  # characters: ours are 24; anything longer is refused unread
REVOKED_KEPT = 256  # retired tokens remembered, so their refusal says why

JOIN_REPLACED = "This join link was replaced by a newer one. Scan the tablet's QR code."
PHONE_REMOVED = "The tablet took this phone out of the game. Scan the QR code to join again."
EXPIRED_JOIN = "This join link has expired. Scan the tablet's QR code again."
EXPIRED_PHONE = "This phone's pass has expired. Scan the tablet's QR code again."
UNKNOWN = "This link is not for this table. Scan the tablet's QR code."


class TokenRefused(Exception):
    """A token that does not let its bearer in; the message is shown on the phone."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def digest(token: str | bytes) -> str:
    """The token's SHA-256: how it is looked up and stored.  Any bytes hash; none raise."""
    if isinstance(token, str):
        token = token.encode("utf-8", "surrogatepass")
    return hashlib.sha256(token).hexdigest()


@dataclass
class Grant:
    """One token: a join token (`phone` empty) or a phone's own token.  `token` is the
    token itself only for grants issued by this process; restored ones know their hash."""

    token: str
    expires: float
    phone: str = ""
    hash: str = ""

    def __post_init__(self) -> None:
        if not self.hash:
            self.hash = digest(self.token)

    @property
    def joining(self) -> bool:
        return not self.phone


class Tokens:
    """Issues, checks and revokes tokens.  `clock` is injectable so expiry is testable."""

    def __init__(
        self,
        clock: Callable[[], float] = time.time,
        join_ttl: float = JOIN_TTL,
        phone_ttl: float = PHONE_TTL,
    ) -> None:
        self.clock = clock
        self.join_ttl = join_ttl
        self.phone_ttl = phone_ttl
        self._live: dict[str, Grant] = {}  # by hash
        self._revoked: dict[str, str] = {}  # hash -> why it no longer works
        self.join: Grant = self.new_join()

    def new_join(self) -> Grant:
        """A fresh join link; the previous one stops working (phones already in stay)."""
        old = getattr(self, "join", None)
        if old is not None:
            self._revoke(old.hash)
        self.join = self._issue("")
        return self.join

    def issue_phone(self, phone: str) -> Grant:
        """A phone's own token; any token the same phone held before is revoked."""
        self.revoke_phone(phone)
        return self._issue(phone)

    def _issue(self, phone: str) -> Grant:
        ttl = self.phone_ttl if phone else self.join_ttl
        grant = Grant(secrets.token_urlsafe(18), self.clock() + ttl, phone)
        self._live[grant.hash] = grant
        return grant

    def check(self, token: str | bytes | None) -> Grant:
        """The grant behind `token`, or TokenRefused saying why not.  Never raises anything
        else, whatever the token holds."""
        if not token:
            raise TokenRefused("This page needs the join link from the tablet: scan its QR code.")
        if len(token) > MAX_TOKEN:
            raise TokenRefused(UNKNOWN)
        key = digest(token)
        grant = self._live.get(key)
        if grant is None:
            raise TokenRefused(self._revoked.get(key, UNKNOWN))
        if self.clock() >= grant.expires:
            raise TokenRefused(EXPIRED_JOIN if grant.joining else EXPIRED_PHONE)
        return grant

    def _revoke(self, key: str) -> None:
        grant = self._live.pop(key, None)
        if grant is not None:
            self._revoked[key] = JOIN_REPLACED if grant.joining else PHONE_REMOVED
            while len(self._revoked) > REVOKED_KEPT:
                del self._revoked[next(iter(self._revoked))]

    def revoke(self, token: str) -> None:
        self._revoke(digest(token))

    def revoke_phone(self, phone: str) -> None:
        for grant in [g for g in self._live.values() if g.phone == phone]:
            self._revoke(grant.hash)

    # -- kept with the session -------------------------------------------------------------

    def to_json(self) -> dict[str, object]:
        """What the session file keeps: hashes, owners, expiry and refusals; the join token
        itself too while it is good (it is on the tablet's screen anyway, and lets a phone
        that scanned it just before a restart still come in)."""
        now = self.clock()
        revoked = dict(self._revoked)
        for grant in self._live.values():  # an expired pass is refused as expired after a
            if grant.expires <= now:  # restart too, never as another table's
                revoked[grant.hash] = EXPIRED_JOIN if grant.joining else EXPIRED_PHONE
        return {
            "join": {"token": self.join.token, "expires": self.join.expires}
            if self.join.token and self.join.expires > now
            else None,
            "live": [
                {"hash": g.hash, "phone": g.phone, "expires": g.expires}
                for g in self._live.values()
                if g.phone and g.expires > now
            ],
            "revoked": dict(list(revoked.items())[-REVOKED_KEPT:]),
        }

    def restore(self, doc: object) -> None:
        """Take back what `to_json` kept (a tablet restart).  Anything unreadable is skipped:
        the phone it belonged to scans the QR code again."""
        if not isinstance(doc, dict):
            return
        for item in doc.get("live") or []:
            if isinstance(item, dict) and isinstance(item.get("hash"), str):
                phone, expires = item.get("phone"), item.get("expires")
                if isinstance(phone, str) and phone and isinstance(expires, int | float):
                    self._live[item["hash"]] = Grant("", float(expires), phone, item["hash"])
        revoked = doc.get("revoked")
        if isinstance(revoked, dict):
            for key, why in revoked.items():
                if isinstance(key, str) and isinstance(why, str):
                    self._revoked.setdefault(key, why)
        join = doc.get("join")
        if isinstance(join, dict) and isinstance(join.get("token"), str):
            expires = join.get("expires")
            if isinstance(expires, int | float) and expires > self.clock():
                self._live.pop(self.join.hash, None)
                self.join = Grant(join["token"], float(expires))
                self._live[self.join.hash] = self.join
