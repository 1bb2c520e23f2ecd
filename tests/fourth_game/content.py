"""Dash's content, typed: the rules ask for a `Track`, never an item by kind name."""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.core.rules import RuleError
from tests.fourth_game.schema import Track

if TYPE_CHECKING:
    from companion.content.pack import Content


def track(content: Content, track_id: str) -> Track:
    found = content.find("tracks", track_id)
    if not isinstance(found, Track):
        raise RuleError(f"there is no track '{track_id}' in the packs chosen")
    return found
