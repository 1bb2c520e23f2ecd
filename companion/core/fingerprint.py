"""Which rules wrote a snapshot: a fingerprint of the game's code and its content.

Why: a snapshot is only a cache of the fold.  Trusting one because a hand-bumped version
string matches lets a changed handler give one state from the snapshot and another from
the log, so one save file would have two answers.  The fingerprint changes whenever any
source file the fold runs through changes (the game's package and the session core) or
the loaded content does, so a snapshot is used only by the rules that wrote it.
"""

from __future__ import annotations

import hashlib
import sys
from functools import lru_cache
from pathlib import Path

import msgspec

from companion.content.pack import Content
from companion.core.game import Game

CORE_DIR = Path(__file__).resolve().parent


def _game_files(game: Game) -> list[Path]:
    """The source files of the game's rules: its package, or its one module."""
    module = sys.modules[type(game).__module__]
    source = Path(module.__file__ or "")
    if source.parent.name == game.id:
        return sorted(source.parent.rglob("*.py"))
    return [source]


@lru_cache(maxsize=64)
def _hash_files(paths: tuple[Path, ...]) -> str:
    digest = hashlib.sha256()
    for path in paths:
        digest.update(str(path.name).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def code_fingerprint(game: Game) -> str:
    core = sorted(CORE_DIR.glob("*.py"))
    return _hash_files(tuple(_game_files(game)) + tuple(core))


def content_fingerprint(content: Content) -> str:
    return hashlib.sha256(msgspec.json.encode(content.items)).hexdigest()


def rules_fingerprint(game: Game, content: Content) -> str:
    """`<game>:<hash>`, stored beside each snapshot and compared on every open."""
    digest = hashlib.sha256(
        f"{type(game).__qualname__}|{code_fingerprint(game)}|{content_fingerprint(content)}".encode()
    )
    return f"{game.id}:{digest.hexdigest()[:32]}"
