"""What changed between two versions of a card, value by value.

Why a module of its own: the CLI's `content set` and the log's line for a card checked at
the table both say what changed in the group's copy, in the same way.
"""

from __future__ import annotations

FieldPath = tuple[str | int, ...]


def changes(
    before: object, after: object, path: FieldPath = ()
) -> list[tuple[FieldPath, object, object]]:
    """Each value that differs, by its path in the card (an entry added to a list is
    one change from None, an entry taken away one change to None)."""
    if isinstance(before, dict) and isinstance(after, dict):
        keys = list(dict.fromkeys([*before, *after]))
        return [c for k in keys for c in changes(before.get(k), after.get(k), (*path, k))]
    if isinstance(before, list) and isinstance(after, list):
        longest = max(len(before), len(after))
        pairs = [
            (before[i] if i < len(before) else None, after[i] if i < len(after) else None)
            for i in range(longest)
        ]
        return [c for i, (b, a) in enumerate(pairs) for c in changes(b, a, (*path, i))]
    return [] if before == after else [(path, before, after)]
