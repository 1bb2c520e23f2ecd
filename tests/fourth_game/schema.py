"""Dash's content kinds and the checks a pack must pass: race tracks."""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.content.schema import Item

if TYPE_CHECKING:
    from companion.content.pack import Content


class Track(Item, kw_only=True):
    """A printed race track: how many squares from the start line to the finish."""

    length: int


CONTENT_KINDS: dict[str, type[Item]] = {"tracks": Track}


def validate_content(content: Content) -> list[tuple[str, str]]:
    """What the schema alone cannot say: a race needs somewhere to run."""
    return [
        (t.id, "a track needs 2 squares or more") for t in content.all("tracks") if t.length < 2
    ]
