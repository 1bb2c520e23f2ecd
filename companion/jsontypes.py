"""The shapes of data read from JSON or YAML before a schema gives it a type.

Why a name of its own: a save file's row, a phone's message or a content file's card is
only known to be JSON until the schema reads it.  Typing such data as `Any` would let any
use of it pass unchecked; typing it as JSON makes each reader narrow (`isinstance`) or
convert (msgspec) before it trusts a field, which is where a damaged file must be caught.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TypeAlias

JsonValue: TypeAlias = "str | int | float | bool | None | list[JsonValue] | dict[str, JsonValue]"
JsonObject: TypeAlias = dict[str, JsonValue]
# What a reader accepts: any mapping or sequence of JSON (a dict[str, int] is one too).
JsonLike: TypeAlias = (
    "str | int | float | bool | None | Sequence[JsonLike] | Mapping[str, JsonLike]"
)
