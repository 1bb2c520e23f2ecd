"""Moving sessions between devices, recovering damaged ones, and turning play into tests.

An export is one JSON file: the session's records, every event, and a SHA-256 over them,
so a file cut short in a chat app or edited by hand is refused instead of half-imported.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any

import yaml

from companion.core.library import Library
from companion.core.session import Session
from companion.core.store import (
    SCHEMA_VERSION,
    Row,
    SessionDamaged,
    SessionFileError,
    SessionTooNew,
    Store,
    recover_rows,
)

FORMAT = "table-companion-session"


def _digest(meta: dict[str, Any], events: list[list[Any]]) -> str:
    body = json.dumps({"meta": meta, "events": events}, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(body.encode()).hexdigest()


def export_session(path: Path, output: Path | None = None) -> Path:
    store = Store.open(path)
    try:
        meta = store.meta()
        events = [[r.seq, r.tx, r.type, r.data, r.at] for r in store.rows()]
    finally:
        store.close()
    out = output or path.with_suffix(".tcsave")
    doc = {"format": FORMAT, "version": SCHEMA_VERSION, "meta": meta, "events": events,
           "sha256": _digest(meta, events)}
    tmp = out.with_name(out.name + ".tmp")
    tmp.write_text(json.dumps(doc), encoding="utf-8")
    os.replace(tmp, out)
    return out


def _read_export(file: Path) -> dict[str, Any]:
    try:
        doc = json.loads(file.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise SessionFileError(file, "no such file") from None
    except (ValueError, UnicodeDecodeError):
        raise SessionDamaged(file, "is not a Table Companion export (or it was cut short)") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise SessionDamaged(file, "is not a Table Companion export")
    version = doc.get("version")
    if not isinstance(version, int) or version > SCHEMA_VERSION:
        raise SessionTooNew(
            file, f"was exported by a newer Table Companion (log version {version}; this app "
            f"reads up to {SCHEMA_VERSION}). Update the app to import it")
    meta, events = doc.get("meta"), doc.get("events")
    if not isinstance(meta, dict) or not isinstance(events, list):
        raise SessionDamaged(file, "is missing its records or events")
    if doc.get("sha256") != _digest(meta, events):
        raise SessionDamaged(file, "is damaged: its contents do not match its checksum")
    return doc


def _write_new(lib: Library, meta: dict[str, Any], rows: list[Row], name: str | None) -> str:
    """Write rows into a new session file, check that it folds, then move it into place."""
    sid = name or lib.next_id(str(meta.get("game", "session")))
    target = lib.path_for(sid)
    if target.exists():
        raise SessionFileError(target, "already exists; import it under another --name")
    fd, tmpname = tempfile.mkstemp(dir=lib.root, suffix=".importing")
    os.close(fd)
    os.unlink(tmpname)
    tmp = Path(tmpname)
    store = Store.create(tmp, meta)
    try:
        with store.transaction():
            store.db.executemany(
                "INSERT INTO log (seq, tx, type, data, at) VALUES (?, ?, ?, ?, ?)",
                [(r.seq, r.tx, r.type, json.dumps(r.data), r.at) for r in rows],
            )
        store.close()
        Session.open(tmp).close()  # refuses a log that does not fold under these rules
        os.replace(tmp, target)
        for side in ("-wal", "-shm"):
            leftover = Path(str(tmp) + side)
            if leftover.exists():
                leftover.unlink()
    except BaseException:
        store.close()
        for p in (tmp, Path(str(tmp) + "-wal"), Path(str(tmp) + "-shm")):
            if p.exists():
                p.unlink()
        raise
    return sid


def import_session(file: Path, lib: Library, name: str | None = None) -> str:
    doc = _read_export(file)
    rows = []
    for item in doc["events"]:
        try:
            seq, tx, etype, data, at = item
            rows.append(Row(int(seq), int(tx), str(etype), dict(data), float(at)))
        except (TypeError, ValueError):
            raise SessionDamaged(file, f"has an unreadable event: {str(item)[:60]}") from None
    return _write_new(lib, doc["meta"], rows, name)


def recover_session(path: Path, lib: Library) -> tuple[str, int]:
    """Copy the readable start of a damaged session into a new one; never touch the old."""
    meta, rows = recover_rows(path)
    if "game" not in meta or not rows:
        raise SessionDamaged(path, "has nothing that can be recovered", 0)
    # drop a trailing partial transaction: a command is kept whole or not at all
    while rows and rows[-1].type not in ("CommandDone", "RequestOpened", "Corrected",
                                         "Undone", "Redone", "SessionStarted"):
        rows.pop()
    sid = _write_new(lib, meta, rows, f"{path.stem}-recovered")
    return sid, len(rows)


def export_scenario(session: Session) -> str:
    """The session's history as a scenario: the same commands, dice and cards, then expect."""
    steps: list[dict[str, Any]] = []
    current: dict[str, Any] | None = None
    for rows in session.history():
        head = rows[0]
        if head.type == "CommandIssued":
            current = {"do": head.data["name"]}
            if head.data.get("args"):
                current["with"] = head.data["args"]
            steps.append(current)
        elif head.type == "RequestAnswered" and current is not None:
            kind = head.data.get("request", {}).get("kind", "dice")
            values = head.data["values"]
            if kind == "dice":
                current.setdefault("dice", []).extend(values)
            else:
                current.setdefault("cards", []).append(values)
        elif head.type == "Corrected":
            steps.append({"do": "correct",
                          "with": {"path": head.data["path"], "value": head.data["value"]}})
            current = None
    note = ""
    if session.pending is not None and current is not None and current in steps:
        steps.remove(current)
        note = (f"# left out: '{current['do']}' was still waiting for "
                f"{session.pending.request.describe()}\n")
    state = session.to_json()
    state.pop("requests", None)
    steps.append({"expect": state})
    doc: dict[str, Any] = {"game": session.game.id, "content": session.meta.get("packs", ["demo"])}
    if session.meta.get("define"):
        doc["define"] = yaml.safe_load(session.meta["define"])
    doc["setup"] = session.meta.get("options", {})
    doc["steps"] = steps
    header = f"# exported from session {session.id}\n"
    return header + note + yaml.safe_dump(doc, sort_keys=False, default_flow_style=None,
                                          allow_unicode=True)
