"""Playing HEXplore by its own legal actions, as self-play does: a random listed command,
random values inside each input's range, and every roll or draw answered with a face or
an option taken from the request itself."""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass, field
from typing import Any

from companion.core.rules import Action, Chance, ChanceNeeded, Command, Event, Request, RuleError
from companion.games import get_game, load_game_content
from companion.games.hexplore.state import HexploreState

GAME = get_game("hexplore")
CONTENT = load_game_content(GAME)


def random_answer(request: Request, rng: random.Random) -> Any:
    if request.kind == "dice":
        return [rng.choice(request.faces) for _ in range(request.count)]
    return rng.choice(request.options)


def set_path(args: dict[str, Any], path: str, value: Any) -> None:
    *parents, last = path.split(".")
    for key in parents:
        args = args[key]
    args[last] = value


def with_inputs(action: Action, pick: Any) -> dict[str, Any]:
    """The action's arguments with each input set to `pick(spec)`."""
    args = copy.deepcopy(action["with"])
    for path, spec in action.get("inputs", {}).items():
        set_path(args, path, pick(spec))
    return args


def random_value(rng: random.Random) -> Any:
    def pick(spec: dict[str, Any]) -> Any:
        if "choices" in spec:
            return rng.choice(spec["choices"])
        return rng.randint(spec["min"], spec["max"])

    return pick


def run(state: HexploreState, name: str, args: dict[str, Any], rng: random.Random) -> list[Event]:
    """Decide one command, answering each request at random; RuleError passes through."""
    answers: list[Any] = []
    while True:
        try:
            return GAME.decide(state, Command(name, args), Chance(answers), CONTENT)
        except ChanceNeeded as need:
            request = need.request
            # dice sources match a request by who, profile and role, never by its words
            assert request.role, f"no role on {request.describe()}"
            assert request.for_ in {*state.heroes, "group", "opponent"}, request.for_
            assert request.who, f"{request.describe()} names no one"
            answers.append(random_answer(request, rng))


@dataclass
class Played:
    state: HexploreState
    steps: int = 0
    refusals: list[str] = field(default_factory=list)


def play(seed: int, steps: int, state: HexploreState | None = None) -> Played:
    """Up to `steps` random legal commands from the default set-up (or `state`)."""
    rng = random.Random(seed)
    out = Played(state if state is not None else GAME.initial_state({}, CONTENT))
    while out.steps < steps and not out.state.outcome:
        actions = GAME.legal_actions(out.state, CONTENT)
        if not actions:
            break
        action = rng.choice(actions)
        args = with_inputs(action, random_value(rng))
        out.steps += 1
        try:
            events = run(out.state, action["do"], args, rng)
        except RuleError as exc:
            out.refusals.append(f"{action['do']} {args}: {exc.message}")
            continue
        for e in events:
            GAME.evolve(out.state, e)
    return out
