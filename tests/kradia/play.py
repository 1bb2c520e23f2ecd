"""Random play through the rules' own `legal_actions`, for the Kradia property tests and the
self-play test: real rules, real content; only the table's dice and cards are chosen here."""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from typing import Any

from companion.core.rules import Action, Chance, ChanceNeeded, Command, Event, Request
from tests.kradia.helpers import CONTENT, GAME

Pick = Callable[[list[Any]], Any]


def answer(request: Request, pick: Pick) -> Any:
    """Any answer the request itself says is possible (its faces or its options)."""
    if request.kind == "dice":
        return [pick(list(request.faces)) for _ in range(request.count)]
    return pick(list(request.options))


def fill(action: Action, pick: Pick) -> dict[str, Any]:
    """The action's arguments with each table fact set to any value in its range."""
    args = copy.deepcopy(action["with"])
    for path, spec in action.get("inputs", {}).items():
        values = spec["choices"] if "choices" in spec else list(range(spec["min"], spec["max"] + 1))
        *parents, last = path.split(".")
        target = args
        for key in parents:
            target = target.setdefault(key, {})
        target[last] = pick(values)
    return args


def decide(state: Any, name: str, args: dict[str, Any], pick: Pick) -> list[Event]:
    """Decide a command, answering every request it makes; RuleError propagates."""
    answers: list[Any] = []
    while True:
        try:
            return GAME.decide(state, Command(name, args), Chance(answers), CONTENT)
        except ChanceNeeded as need:
            answers.append(answer(need.request, pick))


def step(state: Any, pick: Pick) -> tuple[str, dict[str, Any]] | None:
    """Play one random listed action on `state` in place; None when nothing is listed."""
    actions = GAME.legal_actions(state, CONTENT)
    if not actions:
        return None
    action = pick(actions)
    args = fill(action, pick)
    for event in decide(state, action["do"], args, pick):
        GAME.evolve(state, event)
    return action["do"], args


def selfplay(seed: int, steps: int = 3000) -> tuple[Any, int]:
    """The default set-up played by uniformly random listed actions: (state, steps taken)."""
    rng = random.Random(seed)
    state = GAME.initial_state({}, CONTENT)
    for n in range(steps):
        if step(state, rng.choice) is None:
            return state, n
    return state, steps
