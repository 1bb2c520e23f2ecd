"""Random play through the rules' own `legal_actions`, for the Kradia property tests: real
rules and content, deciding in memory (no session file) so hypothesis can walk many games.
Only the table's dice and cards, and each listed input, are chosen here, by the core's own
self-play helpers."""

from __future__ import annotations

import random
from typing import Any

from companion.core.rules import Chance, ChanceNeeded, Command, Event, Request
from companion.core.selfplay import fill_inputs
from tests.kradia.helpers import CONTENT, GAME


def answer(request: Request, rng: random.Random) -> Any:
    """Any answer the request itself says is possible (its faces or its options)."""
    if request.kind == "dice":
        return [rng.choice(request.faces) for _ in range(request.count)]
    return rng.choice(request.options)


def decide(state: Any, name: str, args: dict[str, Any], rng: random.Random) -> list[Event]:
    """Decide a command, answering every request it makes; RuleError propagates."""
    answers: list[Any] = []
    while True:
        try:
            return GAME.decide(state, Command(name, args), Chance(answers), CONTENT)
        except ChanceNeeded as need:
            answers.append(answer(need.request, rng))


def step(state: Any, rng: random.Random) -> tuple[str, dict[str, Any]] | None:
    """Play one random listed action on `state` in place; None when nothing is listed."""
    actions = GAME.legal_actions(state, CONTENT)
    if not actions:
        return None
    action = rng.choice(actions)
    args = fill_inputs(action, rng)
    for event in decide(state, action["do"], args, rng):
        GAME.evolve(state, event)
    return action["do"], args
