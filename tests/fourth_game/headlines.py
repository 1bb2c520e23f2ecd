"""Which of Dash's events are news on the result card: the finish, nothing else."""

from __future__ import annotations

from companion.core.headline import Headline
from tests.fourth_game.events import EVENTS, RaceWon

EVENTS.tell(RaceWon, lambda e: Headline("win", e.runner, "wins the race!"))
