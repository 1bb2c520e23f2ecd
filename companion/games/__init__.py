"""The games: each sub-package is pure rules exposing `GAME`.

Nothing here reads files, the environment or the clock; finding and loading games lives in
`companion.core.registry`, re-exported for the callers that name it from here.
"""

from companion.core.registry import (
    BUILTIN,
    UnknownGame,
    available_games,
    game_ids,
    get_game,
    load_game_content,
    register_game,
    unregister_game,
)

__all__ = [
    "BUILTIN",
    "UnknownGame",
    "available_games",
    "game_ids",
    "get_game",
    "load_game_content",
    "register_game",
    "unregister_game",
]
