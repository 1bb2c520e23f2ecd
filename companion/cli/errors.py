"""Turning known failures into one line a player can act on."""

from __future__ import annotations

from companion.content.pack import ContentError
from companion.content.yamlines import YamlSyntaxError
from companion.core.rules import RuleError
from companion.core.store import SessionFileError


class CliError(Exception):
    def __init__(self, message: str, code: int = 2) -> None:
        super().__init__(message)
        self.code = code


def friendly(exc: BaseException) -> str | None:
    """Words for an exception we expect, or None for a bug (which keeps its traceback)."""
    if isinstance(exc, RuleError):
        return f"refused: {exc.message}"
    if isinstance(exc, ContentError):
        return "the content has problems:\n" + "\n".join(f"  {p}" for p in exc.problems)
    if isinstance(exc, SessionFileError | YamlSyntaxError):
        return str(exc)
    if isinstance(exc, LookupError) and exc.__class__.__name__ == "UnknownGame":
        return str(exc.args[0])
    return None
