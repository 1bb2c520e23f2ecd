"""HEXplore's typed command details (args.py, issue 27): every command declares its
Struct, what the legal actions list converts to it, and a detail of the wrong kind is
refused in words before any rule runs."""

from __future__ import annotations

import random

import msgspec
import pytest

from companion.core.rules import RuleError
from tests.hexplore.play import CONTENT, GAME, random_value, run, with_inputs

SEEDS = range(6)
STEPS = 250


def test_every_command_declares_its_details() -> None:
    assert GAME.commands is not None
    undeclared = [n for n in GAME.commands.names() if GAME.commands.args_type(n) is None]
    assert undeclared == []


@pytest.mark.parametrize("seed", SEEDS)
def test_every_listed_action_converts_to_its_commands_details(seed: int) -> None:
    """Random legal play: each listed action's `with`, as listed and with its inputs
    filled in, converts strictly to the command's Struct, so the listing (the wire form)
    and the Struct cannot drift apart."""
    assert GAME.commands is not None
    rng = random.Random(seed)
    state = GAME.initial_state({}, CONTENT)
    seen: set[str] = set()
    for _ in range(STEPS):
        actions = GAME.legal_actions(state, CONTENT)
        if state.outcome or not actions:
            break
        for action in actions:
            declared = GAME.commands.args_type(action["do"])
            assert declared is not None, action["do"]
            for args in (action["with"], with_inputs(action, random_value(rng))):
                msgspec.convert(dict(args), declared, strict=True)
            seen.add(action["do"])
        action = rng.choice(actions)
        try:
            events = run(state, action["do"], with_inputs(action, random_value(rng)), rng)
        except RuleError:
            continue
        for e in events:
            GAME.evolve(state, e)
    assert len(seen) > 20  # the walk reached combat and the Game Turn, not just the set-up


@pytest.mark.parametrize(
    ("name", "args", "words"),
    [
        ("declare", {"hero": "a", "action": "attack", "amount": "five"}, "the amount of"),
        ("heal", {"hero": 7}, "the hero of 'heal' must be a name"),
        ("wander", {"blocked": 3}, "the blocked of 'wander' must be a list"),
        ("start_combat", {"opponent": "giant-fox", "dangerous": "yes"}, "the dangerous of"),
        ("declare", {"hero": "a", "action": "attack", "raise": 1}, "the raise of 'declare'"),
    ],
)
def test_a_detail_of_the_wrong_kind_is_refused_in_words(
    name: str, args: dict[str, object], words: str
) -> None:
    state = GAME.initial_state({}, CONTENT)
    with pytest.raises(RuleError) as refused:
        run(state, name, args, random.Random(0))
    assert words in refused.value.message
