"""The host's defences that are not about the game: tokens kept out of every log line,
wrong guesses slowed per address, JSON too deep refused before it is parsed, and a
request from another site's page told apart by its Origin.

Why here and not in the handlers: each is needed by more than one route, and each is
tested on its own (tests/host/test_safety.py) as well as through the server.
"""

from __future__ import annotations

import logging
import re
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import urlsplit

MAX_DEPTH = 8  # brackets deep in a phone message: a command is 3
TOKEN_IN_TEXT = re.compile(r"([?&](?:amp;)?t=)[^&\s'\"<>#]*", re.IGNORECASE)
HIDDEN = "<hidden>"
# aiohttp's own loggers (a 400's "LineTooLong ... /?t=<token>" comes from aiohttp.server)
LOGGERS = (
    "aiohttp.access",
    "aiohttp.server",
    "aiohttp.web",
    "aiohttp.websocket",
    "aiohttp.internal",
    "companion.host",
)


def redact(text: str) -> str:
    """`text` with every `t=<token>` query value hidden."""
    return TOKEN_IN_TEXT.sub(lambda m: m.group(1) + HIDDEN, text)


class RedactTokens(logging.Filter):
    """Rewrites a record before any handler sees it: its message, arguments and traceback
    with every `?t=` value hidden (a request line quoted in an error carries the token)."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a record that cannot format is passed on as it is
            return True
        record.msg, record.args = redact(message), None
        if record.exc_info and record.exc_info[1] is not None:
            trace = logging.Formatter().formatException(record.exc_info)
            record.exc_text = redact(trace)
            record.exc_info = None
        elif record.exc_text:
            record.exc_text = redact(record.exc_text)
        if record.stack_info:
            record.stack_info = redact(record.stack_info)
        return True


_FILTER = RedactTokens()


def hide_tokens_in_logs() -> None:
    """Put the filter on the host's and aiohttp's loggers (once, whatever the calls)."""
    for name in LOGGERS:
        logger = logging.getLogger(name)
        if _FILTER not in logger.filters:
            logger.addFilter(_FILTER)
    for name in logging.root.manager.loggerDict:  # companion.host.* made before this call
        if name.startswith(("companion.host.", "aiohttp.")):
            logger = logging.getLogger(name)
            if _FILTER not in logger.filters:
                logger.addFilter(_FILTER)


def too_deep(text: str, limit: int = MAX_DEPTH) -> bool:
    """Whether the JSON in `text` nests deeper than `limit` (strings are skipped, so a
    bracket inside a name does not count).  Runs before parsing: a message nested
    thousands deep never reaches the parser's recursion."""
    depth = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > limit:
                return True
        elif ch in "]}":
            depth -= 1
    return False


def same_origin(origin: str | None, host: str | None, scheme: str) -> bool:
    """A request is let through when it carries no Origin (not from a page: a phone's
    address bar, a script) or an Origin of this very server (the phone page itself).  A
    page from another site, which a phone's browser would send with the phone's cookies
    and network, is not."""
    if origin is None:
        return True
    if not host:
        return False
    try:
        parts = urlsplit(origin)
    except ValueError:
        return False
    return parts.scheme == scheme and parts.netloc.lower() == host.lower()


@dataclass
class _Bucket:
    allowance: float
    stamp: float


class Throttle:
    """Wrong tokens allowed per address: `burst` at once, then one every `1/rate` seconds.
    Nothing sleeps: an address over its allowance is told to wait, in words, until the
    bucket refills, and the loop goes on serving everyone else."""

    def __init__(
        self,
        rate: float = 0.5,
        burst: float = 10.0,
        clock: Callable[[], float] = time.monotonic,
        addresses: int = 1024,
    ) -> None:
        self.rate, self.burst, self.clock, self.addresses = rate, burst, clock, addresses
        self._buckets: OrderedDict[str, _Bucket] = OrderedDict()

    def _bucket(self, address: str) -> _Bucket:
        now = self.clock()
        bucket = self._buckets.pop(address, None) or _Bucket(self.burst, now)
        bucket.allowance = min(self.burst, bucket.allowance + (now - bucket.stamp) * self.rate)
        bucket.stamp = now
        self._buckets[address] = bucket
        while len(self._buckets) > self.addresses:
            self._buckets.popitem(last=False)
        return bucket

    def wait(self, address: str) -> float:
        """Seconds `address` must wait before its next token is looked at (0: go ahead)."""
        bucket = self._bucket(address)
        return 0.0 if bucket.allowance >= 1 else (1 - bucket.allowance) / self.rate

    def failed(self, address: str) -> None:
        """`address` sent a token that let it nowhere."""
        self._bucket(address).allowance -= 1
