"""Finding the games the companion knows, each a pure rules module exposing `GAME`.

Games import lazily so the CLI starts fast and a broken game cannot stop the others.
Tests and plug-ins add games with `register_game` or `COMPANION_EXTRA_GAMES`
(`module:attribute`, comma-separated) so a child `companion` process sees them too.
"""

from __future__ import annotations

import importlib
import os

from companion.content.pack import Content, load_content
from companion.content.yamlines import LinedDoc
from companion.core.game import Game

BUILTIN: dict[str, str] = {
    "direwild": "companion.games.direwild",
    "kradia": "companion.games.kradia",
    "hexplore": "companion.games.hexplore",
}

_registered: dict[str, Game] = {}


class UnknownGame(LookupError):
    pass


def register_game(game: Game) -> None:
    _registered[game.id] = game


def unregister_game(game_id: str) -> None:
    """Forget a game registered at run time (tests keep their games to themselves)."""
    _registered.pop(game_id, None)


def _load_extra() -> None:
    for spec in filter(None, os.environ.get("COMPANION_EXTRA_GAMES", "").split(",")):
        module, _, attr = spec.strip().partition(":")
        game = getattr(importlib.import_module(module), attr or "GAME")
        _registered.setdefault(game.id, game)


def game_ids() -> list[str]:
    _load_extra()
    return sorted(set(BUILTIN) | set(_registered))


def available_games() -> list[str]:
    """Games whose rules module is installed (a game in progress may not be yet)."""
    out = []
    for gid in game_ids():
        try:
            get_game(gid)
        except UnknownGame:
            continue
        out.append(gid)
    return out


def get_game(game_id: str) -> Game:
    _load_extra()
    if game_id in _registered:
        return _registered[game_id]
    module = BUILTIN.get(game_id)
    if module is None:
        raise UnknownGame(f"unknown game '{game_id}' (known: {', '.join(game_ids())})")
    try:
        game: Game = importlib.import_module(module).GAME
    except (ImportError, AttributeError) as exc:
        raise UnknownGame(f"the rules for '{game_id}' are not installed ({exc})") from exc
    _registered[game_id] = game
    return game


def load_game_content(
    game: Game, packs: list[str] | tuple[str, ...] = ("demo",), define: LinedDoc | None = None
) -> Content:
    return load_content(game.id, game.content_kinds, packs, define, game.validate_content)
