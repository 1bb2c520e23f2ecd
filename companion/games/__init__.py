"""The games: each sub-package is pure rules exposing `GAME`.

Nothing here reads files, the environment or the clock; finding and loading games lives in
`companion.core.registry`, re-exported for the callers that name it from here.

`JsonValue` and `JsonObject` are the shapes of JSON the rules build and read (set-up
options, the wizard's choices, a legal action's arguments, a stored event's payload before
it is upcast): the same aliases as `companion.jsontypes`, spelled the same way, so mypy
holds a value typed with one to the other.  Why a copy, here: the rules may import only the
core, content, the pure standard library and msgspec (tests/test_layers.py), and a game's
fold reads no module of the games package but this one (tests/core/test_fingerprint.py).
"""

from typing import TypeAlias

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

JsonValue: TypeAlias = "str | int | float | bool | None | list[JsonValue] | dict[str, JsonValue]"
JsonObject: TypeAlias = dict[str, JsonValue]

__all__ = [
    "BUILTIN",
    "JsonObject",
    "JsonValue",
    "UnknownGame",
    "available_games",
    "game_ids",
    "get_game",
    "load_game_content",
    "register_game",
    "unregister_game",
]
