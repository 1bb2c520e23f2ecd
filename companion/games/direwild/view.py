"""What Direwild's screens and board editor may read of the rules: the one module of the
game, beside its `GAME` (game.py), that companion.ui imports (the "screens-reach-games"
contract in pyproject.toml).

Why: a screen that reaches into any rules module ends up working rules out again; this
names what the views render (the board's squares and slots, units' names, the command a
tap on the board stands for) so that every other module of the game is free to move.
"""

from __future__ import annotations

from collections.abc import Mapping

from companion.games.direwild.board import (
    DIRECTIONS,
    LETTERS,
    SLOTS,
    STAGING,
    BoardProblem,
    board_problems,
    parse_size,
    parse_square,
    square_name,
)
from companion.games.direwild.events import EVENTS
from companion.games.direwild.legal import game_phase
from companion.games.direwild.schema import Board
from companion.games.direwild.state import Battle, DirewildState, Karn
from companion.games.direwild.taps import Tap, board_tap, enemy_at, turn_order_action
from companion.games.direwild.text import name
from companion.games.direwild.units import label, minion_of

__all__ = [
    "DIRECTIONS",
    "LETTERS",
    "SLOTS",
    "STAGING",
    "Battle",
    "Board",
    "BoardProblem",
    "DirewildState",
    "Karn",
    "Tap",
    "board_problems",
    "board_tap",
    "enemy_at",
    "game_phase",
    "happened_words",
    "label",
    "minion_of",
    "name",
    "parse_size",
    "parse_square",
    "square_name",
    "turn_order_action",
]


def happened_words(
    event_type: str, data: Mapping[str, object], names: Mapping[str, str] | None = None
) -> str:
    """An event the state keeps for a panel (an AI card's step, a battle's effect) in the
    log's words, each id the table knows by a name said by it (`Session.names`)."""
    return EVENTS.describe(event_type, data, names) or event_type
