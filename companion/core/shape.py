"""Converting state to and from JSON-able data through the state's own type.

msgspec builds a dataclass from data without setting the fields the data leaves out,
leaving their class-level defaults in place; `to_builtins` then drops those fields from
the JSON.  A correction that sets part of an object, or a snapshot, would make fields
vanish from `state --json`.  `convert_state` fills them in so every field always shows.
"""

from __future__ import annotations

import dataclasses
from typing import TypeVar

import msgspec

T = TypeVar("T")


def _complete(obj: object) -> None:
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        values = obj.__dict__
        for f in dataclasses.fields(obj):
            if f.name not in values:
                setattr(obj, f.name, getattr(obj, f.name))
            _complete(values[f.name])
    elif isinstance(obj, list):
        for item in obj:
            _complete(item)
    elif isinstance(obj, dict):
        for item in obj.values():
            _complete(item)


def convert_state(data: object, state_type: type[T]) -> T:
    """`msgspec.convert(data, state_type, strict=True)` with every field set."""
    state = msgspec.convert(data, state_type, strict=True)
    _complete(state)
    return state
