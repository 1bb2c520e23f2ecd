"""What HEXplore's screens may read of the rules: the one module of the game, beside its
`GAME` (game.py), that companion.ui imports (the "screens-reach-games" contract in
pyproject.toml).

Why: a screen that reaches into any rules module ends up working rules out again; this
names what the views render (the fate cycle, the skills, who stands where) so that every
other module of the game is free to move.
"""

from __future__ import annotations

from companion.games.hexplore.fate import failing_skills, next_cycle_threats
from companion.games.hexplore.legal import COMBAT as COMBAT_GROUP
from companion.games.hexplore.legal import SKILLS as SKILLS_GROUP
from companion.games.hexplore.legal import TURN as TURN_GROUP
from companion.games.hexplore.state import (
    OPPONENT,
    Combat,
    HexploreState,
    LastAction,
    OpponentState,
    action_of,
    cycle_length,
    foes,
    movement,
    standing,
)
from companion.games.hexplore.tables import ADRIMON_CYCLE, BATTLE_SITES, SKILLS

__all__ = [
    "ADRIMON_CYCLE",
    "BATTLE_SITES",
    "COMBAT_GROUP",
    "OPPONENT",
    "SKILLS",
    "SKILLS_GROUP",
    "TURN_GROUP",
    "Combat",
    "HexploreState",
    "LastAction",
    "OpponentState",
    "action_of",
    "cycle_length",
    "failing_skills",
    "foes",
    "movement",
    "next_cycle_threats",
    "standing",
]
