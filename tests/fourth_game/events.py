"""Dash's events: each payload type with its fold handler and its words beside it.

The class and field names are what saved sessions hold, so they never change; a field that
must change bumps the event's version and gets an upcaster here.
"""

from __future__ import annotations

from companion.core.tables import EventData, Events
from tests.fourth_game.state import DashState

EVENTS: Events[DashState] = Events()


class RunnerMoved(EventData):
    runner: str
    roll: int
    to: int


@EVENTS.on(RunnerMoved, text=lambda e: f"{e.runner} rolls {e.roll}: square {e.to}")
def _runner_moved(s: DashState, e: RunnerMoved) -> None:
    s.square[e.runner] = e.to
    s.turn = (s.runners.index(e.runner) + 1) % len(s.runners)


class RaceWon(EventData):
    runner: str


@EVENTS.on(RaceWon, text=lambda e: f"{e.runner} crosses the finish line")
def _race_won(s: DashState, e: RaceWon) -> None:
    s.outcome, s.winner = "won", e.runner
