"""Every Dash command, declared in one table grouped by phase; each lives in its rule area."""

from __future__ import annotations

from companion.core.tables import Commands
from tests.fourth_game import race
from tests.fourth_game.state import DashState

COMMANDS: Commands[DashState] = Commands({"race": {"run": race.run}})
