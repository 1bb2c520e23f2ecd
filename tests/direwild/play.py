"""Playing Direwild from its legal actions, the way the core's self-play does: a seeded
random choice of listed action, random in-range inputs, random answers from each request's
own faces or options.  Shared by the legal-action property tests and the self-play test."""

from __future__ import annotations

import copy
import random
from typing import Any

from companion.core.rules import Action, Chance, ChanceNeeded, Command, Event, RuleError
from companion.games import get_game, load_game_content

GAME = get_game("direwild")
CONTENT = load_game_content(GAME)


def set_path(args: dict[str, Any], path: str, value: Any) -> None:
    *heads, last = path.split(".")
    for head in heads:
        args = args[head]
    args[last] = value


def filled(action: Action, rng: random.Random) -> Command:
    """The action as a command, each input given a random value from its range."""
    args = copy.deepcopy(action["with"])
    for path, spec in action.get("inputs", {}).items():
        if "choices" in spec:
            value = rng.choice(spec["choices"])
        else:
            value = rng.randint(spec["min"], spec["max"])
        set_path(args, path, value)
    return Command(action["do"], args)


def decide(state: Any, command: Command, rng: random.Random) -> list[Event]:
    """Decide `command`, answering each request with random faces or options of its own."""
    answers: list[Any] = []
    while True:
        try:
            return GAME.decide(state, command, Chance(answers), CONTENT)
        except ChanceNeeded as need:
            req = need.request
            # dice sources match a request on (for, profile, role), never on its words
            assert req.role and " " not in req.role, f"{req} has no role"
            assert req.for_ in (*state.heroes, "karn", "table"), f"{req} is not for an id"
            if req.kind == "dice":
                answers.append([rng.choice(req.faces) for _ in range(req.count)])
            else:
                answers.append(rng.choice(req.options))


def apply(state: Any, events: list[Event]) -> None:
    for event in events:
        GAME.evolve(state, event)


def play(seed: int, steps: int, options: dict[str, Any] | None = None) -> tuple[Any, int, int]:
    """Self-play from a set-up: (final state, steps taken, refusals)."""
    rng = random.Random(seed)
    state = GAME.initial_state(options or {}, CONTENT)
    refusals = 0
    for step in range(steps):
        actions = GAME.legal_actions(state, CONTENT)
        if not actions:
            return state, step, refusals
        command = filled(rng.choice(actions), rng)
        try:
            apply(state, decide(state, command, rng))
        except RuleError:
            refusals += 1
    return state, steps, refusals
