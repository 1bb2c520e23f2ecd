"""The sessions on this device: named files in the user's data folder."""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from companion.content.pack import default_packs
from companion.content.yamlines import load_text
from companion.core.game import Game
from companion.core.registry import load_game_content
from companion.core.session import Session
from companion.core.store import SessionFileError, SessionNotFound, storage_error
from companion.jsontypes import JsonValue
from companion.paths import sessions_dir

SUFFIX = ".session"


@dataclass(frozen=True)
class SessionInfo:
    """What the home screen lists: enough to choose, without folding any log."""

    id: str
    path: Path
    game: str
    summary: str
    updated: float
    problem: str = ""


class Library:
    def __init__(self, root: Path | None = None) -> None:
        self.root = Path(root) if root else sessions_dir()
        self.root.mkdir(parents=True, exist_ok=True)

    def path_for(self, session_id: str) -> Path:
        if not re.fullmatch(r"[A-Za-z0-9_.-]+", session_id):
            raise SessionNotFound(Path(session_id), "is not a session name")
        return self.root / f"{session_id}{SUFFIX}"

    def next_id(self, game_id: str) -> str:
        taken = {p.stem for p in self.root.glob(f"*{SUFFIX}")}
        n = 1
        while f"{game_id}-{n}" in taken:
            n += 1
        return f"{game_id}-{n}"

    def new(
        self,
        game: Game,
        options: Mapping[str, JsonValue] | None = None,
        packs: list[str] | None = None,
        define: str | None = None,
        session_id: str | None = None,
    ) -> Session:
        """A new session; the game's `complete_setup(options, content)` fills in what the
        packs imply (the group's own boss or board), recorded in the file so the session
        reads the same when the packs change later."""
        sid = session_id or self.next_id(game.id)
        packs = packs or default_packs(game.id)
        content = load_game_content(game, packs, load_text(define, "define") if define else None)
        options = game.complete_setup(dict(options or {}), content)
        return Session.create(self.path_for(sid), game, options, packs, define, content)

    def resolve(self, ref: str | None) -> Path:
        """A session by id, by path, or (None) the one played most recently."""
        if ref is None:
            infos = [i for i in self.list() if not i.problem]
            if not infos:
                raise SessionNotFound(
                    self.root, "has no sessions yet; start one with 'companion new'"
                )
            return infos[0].path
        direct = Path(ref)
        if direct.suffix == SUFFIX and direct.exists():
            return direct
        path = self.path_for(ref)
        if not path.exists():
            raise SessionNotFound(path, f"no session called '{ref}'")
        return path

    def open(self, ref: str | None = None) -> Session:
        return Session.open(self.resolve(ref))

    def list(self) -> list[SessionInfo]:
        infos = []
        for path in self.root.glob(f"*{SUFFIX}"):
            infos.append(self._info(path))
        infos.sort(key=lambda i: i.updated, reverse=True)
        return infos

    def _info(self, path: Path) -> SessionInfo:
        try:
            db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=0.5)
            try:
                meta = {k: json.loads(v) for k, v in db.execute("SELECT key, value FROM meta")}
                updated = db.execute("SELECT coalesce(max(at), 0) FROM log").fetchone()[0]
            finally:
                db.close()
            return SessionInfo(
                path.stem, path, meta.get("game", "?"), meta.get("summary", ""), updated
            )
        except SessionFileError as exc:
            problem = exc.problem
        except (sqlite3.Error, UnicodeDecodeError) as exc:
            problem = (
                "is a folder, not a session file"
                if path.is_dir()
                else storage_error(path, exc, count=False).problem
            )
        except (ValueError, TypeError):
            problem = "its records are unreadable (changed after it was saved)"
        return SessionInfo(path.stem, path, "?", "", path.stat().st_mtime, problem=problem)
