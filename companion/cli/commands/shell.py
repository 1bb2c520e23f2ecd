"""`companion shell SESSION`: drive a session with one JSON command per line on stdin.

Each line is `{"do": NAME, "with": {...}}`, `{"answer": VALUES}`, `{"undo": true}`,
`{"redo": true}`, `{"actions": true}` (what the rules accept now) or `{"state": true}`
(take in other programs' moves and show the state); each reply is one JSON line, printed only after the command is committed, so a script (or
the crash test) can trust every reply it has read.  No line ends the shell: not a
refusal, not garbage bytes, not a line nested too deep to read, not even a bug (which is
answered with `"bug": true` so it gets reported).
"""

from __future__ import annotations

import argparse
import json
import sys
import traceback
from collections.abc import Mapping
from typing import TYPE_CHECKING

from companion.core.library import Library
from companion.failures import friendly
from companion.jsontypes import JsonValue

if TYPE_CHECKING:
    from companion.core.session import Session

MAX_LINE = 1024 * 1024


def _handle(session: Session, msg: object) -> dict[str, object]:
    if not isinstance(msg, dict):
        return {"ok": False, "error": "each line must be a JSON object"}
    if msg.get("actions"):
        session.refresh()
        return {"ok": True, **session.actions()}
    if "do" in msg:
        if not isinstance(msg["do"], str):
            return {"ok": False, "error": '"do" names a command, e.g. {"do": "add"}'}
        result = session.do(msg["do"], msg.get("with"))
    elif "answer" in msg:
        result = session.answer(msg["answer"], by=str(msg.get("by", "shell")))
    elif msg.get("undo"):
        result = session.undo()
    elif msg.get("redo"):
        result = session.redo()
    elif msg.get("state"):
        session.refresh()
        return _reply(session, None, msg)
    else:
        return {"ok": False, "error": "say do, answer, undo, redo, actions or state"}
    return _reply(session, result.tx, msg)


def _reply(session: Session, tx: int | None, msg: Mapping[str, object]) -> dict[str, object]:
    reply: dict[str, object] = {"ok": True}
    if tx is not None:
        reply["tx"] = tx
    if msg.get("state"):
        reply["state"] = session.to_json()
    if session.request is not None:
        reply["waiting"] = session.request.to_json()
    return reply


def _decode(raw: bytes) -> tuple[JsonValue, str | None]:
    """The line's JSON value, or why it is not one."""
    if len(raw) > MAX_LINE:
        return None, f"the line is too long (at most {MAX_LINE // 1024} KB)"
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return None, "not text: each line must be UTF-8 JSON"
    if not text.strip():
        return None, ""
    try:
        return json.loads(text), None
    except RecursionError:
        return None, "not JSON this shell can read: it is nested too deeply"
    except ValueError as exc:
        return None, f"not JSON: {exc}"


def answer_line(session: Session, raw: bytes) -> dict[str, object] | None:
    """The reply to one raw line (None for a blank line)."""
    msg, problem = _decode(raw)
    if problem == "":
        return None
    if problem is not None:
        return {"ok": False, "error": problem}
    try:
        return _handle(session, msg)
    except Exception as exc:  # noqa: BLE001 - no line may end the shell
        message = friendly(exc)
        if message is not None:
            return {"ok": False, "error": message}
        traceback.print_exc(file=sys.stderr)
        return {"ok": False, "bug": True, "error": f"the program failed on this line ({exc!r})"}


def cmd_shell(args: argparse.Namespace) -> int:
    with Library().open(args.session) as session:
        for raw in sys.stdin.buffer:
            reply = answer_line(session, raw)
            if reply is None:
                continue
            sys.stdout.write(json.dumps(reply) + "\n")
            sys.stdout.flush()
    return 0


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("shell", help="drive a session with JSON lines on stdin")
    p.add_argument("session", nargs="?")
    p.set_defaults(func=cmd_shell)
