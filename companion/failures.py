"""Turning known failures into one line a player can act on, and its exit code.

The exit code comes from the exception's type, never from its words: 1 when the rules
refused (the input was understood, the game said no), 2 when the input itself was wrong
or a file could not be used.  Why beside the packages and not in the CLI: the app says
the same failures in the same words (`report_error`), and the CLI is what launches the
app, so the app must not import the CLI.
"""

from __future__ import annotations

from companion.content.pack import ContentError
from companion.content.yamlines import YamlSyntaxError
from companion.core.rules import RuleError
from companion.core.store import SessionFileError
from companion.scenario.file import ScenarioInvalid

REFUSED, BAD_INPUT = 1, 2


class CliError(Exception):
    def __init__(self, message: str, code: int = BAD_INPUT) -> None:
        super().__init__(message)
        self.code = code


def explain(exc: BaseException) -> tuple[str, int] | None:
    """Words and exit code for an exception we expect, or None for a bug (which keeps its
    traceback, so it gets reported and fixed)."""
    if isinstance(exc, CliError):
        return str(exc), exc.code
    if isinstance(exc, RuleError):
        return f"refused: {exc.message}", REFUSED
    if isinstance(exc, ContentError):
        return "the content has problems:\n" + "\n".join(f"  {p}" for p in exc.problems), BAD_INPUT
    if isinstance(exc, SessionFileError | YamlSyntaxError | ScenarioInvalid):
        return str(exc), BAD_INPUT
    if isinstance(exc, LookupError) and exc.__class__.__name__ == "UnknownGame":
        return str(exc.args[0]), BAD_INPUT
    if isinstance(exc, OSError) and exc.strerror:
        where = f"{exc.filename}: " if exc.filename else ""
        return f"{where}{exc.strerror}", BAD_INPUT
    return None


def friendly(exc: BaseException) -> str | None:
    """Words for an exception we expect, or None for a bug."""
    known = explain(exc)
    return known[0] if known else None
