"""Who may talk to the tablet: a short-lived join token in the QR code, then one token per
phone that the tablet can take back.

Why two kinds: the QR code is on a screen anyone at (or walking past) the table can
photograph, so it opens the door only for a few minutes; a phone that came in gets its own
token, which lasts the evening and is revoked when the phone is removed from the Phones
panel.  Every request carries one or the other, and a refusal says which it was in words.
"""

from __future__ import annotations

import hmac
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass

JOIN_TTL = 10 * 60.0  # seconds a join link stays good
PHONE_TTL = 12 * 3600.0  # seconds a joined phone's token stays good without a re-join


class TokenRefused(Exception):
    """A token that does not let its bearer in; the message is shown on the phone."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass
class Grant:
    """One token: a join token (`phone` empty) or a phone's own token."""

    token: str
    expires: float
    phone: str = ""

    @property
    def joining(self) -> bool:
        return not self.phone


class Tokens:
    """Issues, checks and revokes tokens.  `clock` is injectable so expiry is testable."""

    def __init__(
        self,
        clock: Callable[[], float] = time.monotonic,
        join_ttl: float = JOIN_TTL,
        phone_ttl: float = PHONE_TTL,
    ) -> None:
        self.clock = clock
        self.join_ttl = join_ttl
        self.phone_ttl = phone_ttl
        self._live: dict[str, Grant] = {}
        self._revoked: dict[str, str] = {}  # token -> why it no longer works
        self.join: Grant = self.new_join()

    def new_join(self) -> Grant:
        """A fresh join link; the previous one stops working (phones already in stay)."""
        old = getattr(self, "join", None)
        if old is not None:
            self.revoke(old.token)
        self.join = self._issue("")
        return self.join

    def issue_phone(self, phone: str) -> Grant:
        """A phone's own token; any token the same phone held before is revoked."""
        for grant in [g for g in self._live.values() if g.phone == phone]:
            self.revoke(grant.token)
        return self._issue(phone)

    def _issue(self, phone: str) -> Grant:
        ttl = self.phone_ttl if phone else self.join_ttl
        grant = Grant(secrets.token_urlsafe(18), self.clock() + ttl, phone)
        self._live[grant.token] = grant
        return grant

    def check(self, token: str | None) -> Grant:
        """The grant behind `token`, or TokenRefused saying why not."""
        if not token:
            raise TokenRefused("This page needs the join link from the tablet: scan its QR code.")
        grant = self._find(token)
        if grant is None:
            for known, why in self._revoked.items():
                if hmac.compare_digest(token, known):
                    raise TokenRefused(why)
            raise TokenRefused("This link is not for this table. Scan the tablet's QR code.")
        if self.clock() >= grant.expires:
            what = "join link" if grant.joining else "phone's pass"
            raise TokenRefused(f"This {what} has expired. Scan the tablet's QR code again.")
        return grant

    def _find(self, token: str) -> Grant | None:
        for known, grant in self._live.items():
            if hmac.compare_digest(token, known):
                return grant
        return None

    def revoke(self, token: str) -> None:
        grant = self._live.pop(token, None)
        if grant is not None:
            self._revoked[token] = (
                "This join link was replaced by a newer one. Scan the tablet's QR code."
                if grant.joining
                else "The tablet took this phone out of the game. Scan the QR code to join again."
            )

    def revoke_phone(self, phone: str) -> None:
        for grant in [g for g in self._live.values() if g.phone == phone]:
            self.revoke(grant.token)
