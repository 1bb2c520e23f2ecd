"""What the table may do now: the runner whose turn it is runs (the core lists nothing
once the race is won, and refuses every command after it)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.core.rules import Action
from tests.fourth_game.state import DashState

if TYPE_CHECKING:
    from companion.content.pack import Content


def legal_actions(s: DashState, content: Content) -> list[Action]:
    if s.outcome:
        return []
    runner = s.runners[s.turn]
    return [{"do": "run", "with": {"runner": runner}, "label": f"{runner} runs", "primary": True}]
