"""`companion shell SESSION`: drive a session with one JSON command per line on stdin.

Each line is `{"do": NAME, "with": {...}}`, `{"answer": VALUES}`, `{"undo": true}`,
`{"redo": true}` or `{"actions": true}` (what the rules accept now); each reply is one JSON line, printed only after the command is committed,
so a script (or the crash test) can trust every reply it has read.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from companion.cli.errors import friendly
from companion.core.library import Library


def _handle(session, msg: Any) -> dict[str, Any]:
    if not isinstance(msg, dict):
        return {"ok": False, "error": "each line must be a JSON object"}
    if msg.get("actions"):
        return {"ok": True, **session.actions()}
    if "do" in msg:
        result = session.do(str(msg["do"]), msg.get("with") or {})
    elif "answer" in msg:
        result = session.answer(msg["answer"], by=msg.get("by", "shell"))
    elif msg.get("undo"):
        result = session.undo()
    elif msg.get("redo"):
        result = session.redo()
    else:
        return {"ok": False, "error": "say do, answer, undo, redo or actions"}
    reply: dict[str, Any] = {"ok": True, "tx": result.tx}
    if msg.get("state"):
        reply["state"] = session.to_json()
    if session.request is not None:
        reply["waiting"] = session.request.to_json()
    return reply


def cmd_shell(args: argparse.Namespace) -> int:
    with Library().open(args.session) as session:
        for line in sys.stdin:
            if not line.strip():
                continue
            try:
                reply = _handle(session, json.loads(line))
            except ValueError as exc:
                reply = {"ok": False, "error": f"not JSON: {exc}"}
            except Exception as exc:  # noqa: BLE001 - a refused command must not end the shell
                message = friendly(exc)
                if message is None:
                    raise
                reply = {"ok": False, "error": message}
            sys.stdout.write(json.dumps(reply) + "\n")
            sys.stdout.flush()
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("shell", help="drive a session with JSON lines on stdin")
    p.add_argument("session", nargs="?")
    p.set_defaults(func=cmd_shell)
