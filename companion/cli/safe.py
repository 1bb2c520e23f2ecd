"""Printed text made safe for a terminal.

Why: names, card texts and QR codes come from files and cameras anyone can write.  A
control character can rewrite the terminal and a bidirectional override can make one
text read as another, so every character of those kinds leaves as a visible escape.
"""

from __future__ import annotations

import re
import unicodedata
from typing import TextIO

_ASCII_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
# Controls, format characters (bidi embeddings, overrides and isolates, zero-width marks)
# and line or paragraph separators.
_UNSAFE_CATEGORIES = {"Cc", "Cf", "Zl", "Zp"}


def _unsafe(c: str) -> bool:
    return c not in "\n\t" and unicodedata.category(c) in _UNSAFE_CATEGORIES


def _escape(c: str) -> str:
    """JSON's escape (valid inside a JSON string too, so `--json` output still parses)."""
    n = ord(c)
    if n > 0xFFFF:
        n -= 0x10000
        return f"\\u{0xD800 + (n >> 10):04x}\\u{0xDC00 + (n & 0x3FF):04x}"
    return f"\\u{n:04x}"


def safe_text(text: str) -> str:
    """`text` with every control or reordering character written as an escape."""
    if text.isascii() and not _ASCII_CONTROL.search(text):
        return text
    return "".join(_escape(c) if _unsafe(c) else c for c in text)


class SafeStream:
    """A text stream that escapes unsafe characters in everything written to it."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        return self._stream.write(safe_text(text))

    def __getattr__(self, name: str) -> object:
        return getattr(self._stream, name)
