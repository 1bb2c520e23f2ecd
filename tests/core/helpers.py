"""Shared set-up for the core's tests: sessions of the tiny test game in a temp folder."""

from __future__ import annotations

from pathlib import Path

from companion.core.session import Session
from companion.games import get_game


def tiny_session(folder: Path, name: str = "t", **options) -> Session:
    return Session.create(folder / f"{name}.session", get_game("tiny"), options)


def log_rows(session: Session) -> list[tuple]:
    return [(r.seq, r.tx, r.type, r.data) for r in session.store.rows()]
