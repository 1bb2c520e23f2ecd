"""Corrections: "the red minion is really on C4".

The table is the truth, so any field of the state can be set, but only to a value of the
shape the state declares: the new state is rebuilt through the state's own type, which
refuses a string where a number belongs or a field that does not exist.
"""

from __future__ import annotations

from typing import Any

import msgspec

from companion.core.rules import RuleError


def _split(path: str) -> list[str]:
    parts = [p for p in str(path).split(".") if p]
    if not parts:
        raise RuleError("say which value to correct, e.g. 'enemies.red.stamina'")
    return parts


def _walk(root: Any, parts: list[str], path: str) -> tuple[Any, str | int]:
    node = root
    for i, part in enumerate(parts[:-1]):
        node = _child(node, part, ".".join(parts[: i + 1]), path)
    last = parts[-1]
    if isinstance(node, list):
        try:
            return node, int(last)
        except ValueError:
            raise RuleError(f"'{last}' in {path} must be a position in a list") from None
    if not isinstance(node, dict) or last not in node:
        known = ", ".join(sorted(node)) if isinstance(node, dict) else "none"
        raise RuleError(f"there is no value '{path}' to correct (here: {known})")
    return node, last


def _child(node: Any, part: str, upto: str, path: str) -> Any:
    if isinstance(node, dict):
        if part not in node:
            known = ", ".join(sorted(node))
            raise RuleError(f"there is no '{upto}' in the game (while correcting {path}; "
                            f"here: {known})")
        return node[part]
    if isinstance(node, list):
        try:
            return node[int(part)]
        except (ValueError, IndexError):
            raise RuleError(f"'{upto}' is not an entry of the list (correcting {path})") from None
    raise RuleError(f"'{upto}' has no parts to correct")


def _rebuilt(state: Any, state_type: type, path: str, value: Any) -> tuple[Any, Any]:
    data = msgspec.to_builtins(state)
    node, key = _walk(data, _split(path), path)
    try:
        previous = node[key]
    except IndexError:
        raise RuleError(f"{path} is past the end of the list") from None
    node[key] = value
    try:
        return msgspec.convert(data, state_type, strict=True), previous
    except msgspec.ValidationError as exc:
        raise RuleError(f"{path} cannot be {value!r}: {exc}") from None


def check_correction(state: Any, state_type: type, path: str, value: Any) -> Any:
    """Validate a correction; returns the value it replaces.  Raises RuleError."""
    return _rebuilt(state, state_type, path, value)[1]


def apply_correction(state: Any, state_type: type, path: str, value: Any) -> Any:
    return _rebuilt(state, state_type, path, value)[0]
