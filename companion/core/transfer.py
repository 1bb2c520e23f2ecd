"""Moving sessions between devices, recovering damaged ones, and turning play into tests.

An export is one JSON file: the session's records, every event, and a SHA-256 over them,
so a file cut short in a chat app or damaged on the way is refused instead of
half-imported.  The SHA-256 is an integrity check, not a signature: anyone can edit an
export and recompute it, so an import trusts nothing in it beyond what any session file
may hold (it names only installed content packs, its YAML is bounded, its events must
fold under the rules).  Exporting to a `.session` name instead copies the live file
through SQLite's backup API, write-ahead log included.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import yaml

from companion.content.pack import available_packs
from companion.content.yamlines import load_text
from companion.core import entries
from companion.core.entries import CardChecked, CommandIssued, Corrected, RequestAnswered
from companion.core.library import SUFFIX, Library
from companion.core.recovery import Recovered, file_version
from companion.core.session import Session
from companion.core.store import (
    SCHEMA_VERSION,
    Row,
    SessionDamaged,
    SessionFileError,
    SessionReadOnly,
    SessionStorageError,
    SessionTooNew,
    Store,
    recover,
    too_new,
)

FORMAT = "table-companion-session"


def _digest(meta: Mapping[str, object], events: Sequence[object]) -> str:
    body = json.dumps({"meta": meta, "events": events}, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(body.encode()).hexdigest()


MAX_IMPORT_BYTES = 64 * 1024 * 1024  # far above any real game; refuses a runaway file early


class TargetExists(SessionFileError):
    """The file to write already exists and replacing it was not asked for."""


def check_target(out: Path, force: bool) -> None:
    """Refuse to write over a file unless told to, and over a session file ever."""
    out = Path(out)
    if out.is_dir():
        raise SessionFileError(out, "is a folder; give a file name to write to")
    if not out.parent.is_dir():
        raise SessionFileError(out, f"cannot be written: there is no folder {out.parent}")
    if not out.exists():
        return
    if out.name.endswith((SUFFIX, f"{SUFFIX}-wal", f"{SUFFIX}-shm")) or _is_session(out):
        raise SessionFileError(out, "is a session file; it is never written over")
    if not force:
        raise TargetExists(out, "already exists, so nothing was written")


def _is_session(path: Path) -> bool:
    try:
        with open(path, "rb") as fh:
            head = fh.read(72)
    except OSError:
        return False
    return head.startswith(b"SQLite format 3\x00") and head[68:72] == b"TCMP"


def export_session(path: Path, output: Path | None = None, *, force: bool = False) -> Path:
    """Write the whole session to one file; `.session` copies the database itself."""
    out = Path(output) if output else Path(path).with_suffix(".tcsave")
    if out.suffix == SUFFIX and out.exists():
        raise SessionFileError(out, "is a session file; it is never written over")
    check_target(out, force)
    store = Store.open(path)
    try:
        if out.suffix == SUFFIX:
            store.backup_to(out)
            return out
        meta = store.meta()
        events = [[r.seq, r.tx, r.type, r.data, r.at] for r in store.rows()]
    finally:
        store.close()
    doc = {
        "format": FORMAT,
        "version": SCHEMA_VERSION,
        "meta": meta,
        "events": events,
        "sha256": _digest(meta, events),
    }
    tmp = out.with_name(out.name + ".tmp")
    try:
        tmp.write_text(json.dumps(doc), encoding="utf-8")
        os.replace(tmp, out)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise SessionStorageError(out, f"cannot be written ({exc.strerror})") from None
    return out


def _read_export(file: Path) -> dict[str, Any]:
    try:
        if file.is_dir():
            raise SessionFileError(file, "is a folder, not an export")
        if file.stat().st_size > MAX_IMPORT_BYTES:
            raise SessionDamaged(file, "is too large to be a Table Companion export")
        doc = json.loads(file.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise SessionFileError(file, "no such file") from None
    except OSError as exc:
        raise SessionStorageError(file, f"cannot be read ({exc.strerror})") from None
    except (ValueError, UnicodeDecodeError, RecursionError):
        raise SessionDamaged(
            file, "is not a Table Companion export (or it was cut short)"
        ) from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise SessionDamaged(file, "is not a Table Companion export")
    version = doc.get("version")
    if not isinstance(version, int) or version > SCHEMA_VERSION:
        raise SessionTooNew(
            file,
            f"was exported by a newer Table Companion (log version {version}; this app "
            f"reads up to {SCHEMA_VERSION}). Update the app to import it",
        )
    meta, events = doc.get("meta"), doc.get("events")
    if not isinstance(meta, dict) or not isinstance(events, list):
        raise SessionDamaged(file, "is missing its records or events")
    if doc.get("sha256") != _digest(meta, events):
        raise SessionDamaged(file, "is damaged: its contents do not match its checksum")
    _check_packs(file, meta)
    return doc


_PACK_NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,63}")


def _check_packs(file: Path, meta: Mapping[str, object]) -> None:
    """A save from elsewhere may name content packs, never folders on this device."""
    game, packs = meta.get("game"), meta.get("packs", ["demo"])
    if not isinstance(game, str) or not isinstance(packs, list):
        raise SessionDamaged(file, "has an unreadable game or content record")
    installed = available_packs(game) if re.fullmatch(r"[a-z0-9_-]+", game) else []
    for pack in packs:
        if not isinstance(pack, str) or not _PACK_NAME.fullmatch(pack):
            raise SessionDamaged(file, "names content that is not a pack name")
        if pack not in installed:
            raise SessionFileError(
                file,
                f"needs the content pack '{pack}', which is not installed "
                f"(installed: {', '.join(installed) or 'none'})",
            )


def _write_new(
    lib: Library, meta: Mapping[str, object], rows: list[Row], name: str | None, source: Path
) -> str:
    """Write rows into a new session file, check that it folds, then move it into place.

    Problems are said about `source` (what the player chose), never the scratch file."""
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
            store.insert(rows)
        store.close()
        try:
            Session.open(tmp).close()  # refuses a log that does not fold under these rules
        except SessionFileError as exc:
            raise type(exc)(source, exc.problem) from None
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
    return _write_new(lib, doc["meta"], rows, name, file)


def recover_session(path: Path, lib: Library) -> tuple[str, Recovered[Row]]:
    """Copy the complete transactions at the start of a damaged session into a new one
    (a command whole or not at all); never touch the old file."""
    if path.is_dir():
        raise SessionFileError(path, "is a folder, not a session file")
    version = file_version(path)
    if version > SCHEMA_VERSION:
        raise too_new(path, version)
    try:
        found = recover(path)
    except PermissionError:
        raise SessionReadOnly(
            path, "may not be read by this app: the file's permissions keep it out"
        ) from None
    except OSError as exc:
        raise SessionStorageError(path, f"cannot be read ({exc.strerror})") from None
    if "game" not in found.meta or not found.rows:
        why = (
            "the start of the game is lost"
            if "game" in found.meta
            else "the record of which game it is is lost"
        )
        raise SessionDamaged(path, f"has nothing that can be recovered: {why}")
    name, n = f"{path.stem}-recovered", 1
    while lib.path_for(name).exists():  # recovered before: keep that one, write beside it
        n += 1
        name = f"{path.stem}-recovered-{n}"
    meta = {k: v for k, v in found.meta.items() if k != "summary"}  # the lost game's
    sid = _write_new(lib, meta, found.rows, name, path)
    with Session.open(lib.path_for(sid)) as rescued:  # the list says where it now stands
        summary = rescued.game.summary(rescued.state)
        if summary is not None:
            with rescued.store.transaction():
                rescued.store.set_meta("summary", summary)
    return sid, found


def export_scenario(session: Session) -> str:
    """The session's history as a scenario: the same commands, dice and cards, then expect."""
    steps: list[dict[str, Any]] = []
    current: dict[str, Any] | None = None
    for rows in session.history():
        head = entries.read(rows[0].type, rows[0].data)
        if isinstance(head, CommandIssued):
            current = {"do": head.name}
            if head.args:
                current["with"] = head.args
            steps.append(current)
        elif isinstance(head, RequestAnswered) and current is not None:
            if head.request.get("kind", "dice") == "dice":
                current.setdefault("dice", []).extend(head.values)
            else:
                current.setdefault("cards", []).append(head.values)
        elif isinstance(head, CardChecked):
            numbers = None if head.matches else head.after
            steps.append({"do": "check_card", "with": {"card": head.id, "numbers": numbers}})
            current = None
        elif isinstance(head, Corrected):
            steps.append({"do": "correct", "with": {"path": head.path, "value": head.value}})
            current = None
    note = ""
    if session.pending is not None and current is not None and current in steps:
        steps.remove(current)
        note = (
            f"# left out: '{current['do']}' was still waiting for "
            f"{session.pending.request.describe()}\n"
        )
    state = session.to_json()
    state.pop("requests", None)
    steps.append({"expect": state})
    doc: dict[str, Any] = {"game": session.game.id, "content": session.meta.get("packs", ["demo"])}
    if session.meta.get("define"):
        doc["define"] = load_text(session.meta["define"], "define").data
    doc["setup"] = session.meta.get("options", {})
    doc["steps"] = steps
    header = f"# exported from session {session.id}\n"
    return (
        header
        + note
        + yaml.safe_dump(doc, sort_keys=False, default_flow_style=None, allow_unicode=True)
    )
