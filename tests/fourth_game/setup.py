"""Set-up options -> the first state, refusing bad options in words the table understands."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.core.rules import RuleError
from tests.fourth_game.content import track
from tests.fourth_game.state import DashState

if TYPE_CHECKING:
    from companion.content.pack import Content

DEFAULT_LENGTH = 12
SETUP_OPTIONS = [{"name": "runners", "label": "Runners", "min": 2, "max": 4, "default": 2}]


def initial_state(options: dict[str, Any], content: Content) -> DashState:
    count = options.get("runners", 2)
    if isinstance(count, bool) or not isinstance(count, int) or not 2 <= count <= 4:
        raise RuleError("runners must be 2, 3 or 4")
    length = track(content, options["track"]).length if "track" in options else DEFAULT_LENGTH
    runners = [f"runner{n}" for n in range(1, count + 1)]
    return DashState(length=length, runners=runners, square=dict.fromkeys(runners, 0))
