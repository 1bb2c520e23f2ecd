"""The tiny test game with the legal actions a phone renders as buttons."""

from __future__ import annotations

from typing import Any

from companion.core.rules import Action
from companion.core.session import Session
from companion.games import get_game
from tests.fixtures.tinygame import TinyGame


class TableTiny(TinyGame):
    """Tiny with the phone tests' own buttons: a roll is the step the rules expect next."""

    def legal_actions(self, state: Any, content: Any) -> list[Action]:
        if state.outcome:
            return []
        return [
            {"do": "add", "with": {"n": 1}, "label": "Add one"},
            {"do": "roll", "with": {"count": 1}, "label": "Roll for score", "primary": True},
            {"do": "draw", "with": {}, "label": "Take a token"},
            {"do": "next_round", "with": {}, "label": f"Start round {state.round + 1}"},
        ]


def new_session(path, game: Any = None) -> Session:
    return Session.create(path / "table.sqlite", game or TableTiny())


def tiny() -> Any:
    return get_game("tiny")


class ManyHands(TableTiny):
    """Each phone adds its own amount, so the log says whose command each Added was."""

    def legal_actions(self, state: Any, content: Any) -> list[Any]:
        return [{"do": "add", "with": {"n": n}, "label": f"Add {n}"} for n in range(1, 11)]


class Clock:
    """A clock the test moves by hand (`clock.now += 30`): token lifetimes, idle seats and
    the wrong-token throttle are read off it, so no test sleeps."""

    def __init__(self, now: float = 0.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now
