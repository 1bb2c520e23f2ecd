"""What `legal_actions` lists is exactly what the rules accept.

Hypothesis reaches states by playing random listed actions (random dice and cards from each
request's own faces and options) from several set-ups, then checks (a) every listed action,
with any in-range value for each table fact, is accepted, and (b) commands that are not
listed (another hero, another target, a command of another phase, a value out of range)
are refused in a player's words.
"""

from __future__ import annotations

import copy
import random
import re
from collections.abc import Iterator
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.core.rules import RuleError
from companion.core.selfplay import fill_inputs, selfplay
from tests.kradia.helpers import CONTENT, GAME, options
from tests.kradia.play import decide, step

COMMANDS = (
    "start_round",
    "basic_attack",
    "charge_attack",
    "skill",
    "use_item",
    "pass",
    "end_turn",
    "boss_attack",
    "end_round",
    "resupply",
    "summon_retainer",
)

SETUPS = [
    {},
    options(sequence=2, start_player="archer", players=3),
    options(items={"oakla": ["elixir", "potion"], "mystic": ["bomb", "antidote"]}, players=1),
    options(mode="challenge", sequence=None),
    options(level=3, sequence=None, boss="stone-wyrm", items={"warden": ["smelling-salts"]}),
]

FAST = settings(
    max_examples=20,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def walk(data: st.DataObject) -> Iterator[Any]:
    """Each state met along random listed play from one of the set-ups."""
    state = GAME.initial_state(data.draw(st.sampled_from(SETUPS)), CONTENT)
    rng = random.Random(data.draw(st.integers(0, 2**32)))  # seeded play covers more ground
    for _ in range(data.draw(st.integers(0, 300))):
        yield state
        if step(state, rng) is None:
            break
    yield state


def assert_player_words(message: str) -> None:
    assert message and message[0].isalnum(), message
    assert "kradia/" not in message, f"an id in a message a player reads: {message}"
    assert not re.search(r"Error|Traceback|\{'|None\b", message), message


def refused(state: Any, name: str, args: dict[str, Any]) -> str:
    with pytest.raises(RuleError) as err:
        decide(state, name, args, random.Random(0))
    assert_player_words(err.value.message)
    return err.value.message


@FAST
@given(data=st.data())
def test_every_listed_action_is_accepted(data):
    rng = random.Random(data.draw(st.integers(0, 2**32)))
    for state in walk(data):
        actions = GAME.legal_actions(state, CONTENT)
        assert sum(bool(a.get("primary")) for a in actions) <= 1
        for action in actions:
            assert action["label"] and "kradia/" not in action["label"], action
            before = copy.deepcopy(state)
            decide(state, action["do"], fill_inputs(action, rng), rng)
            assert state == before, "deciding must not change the state it was given"


@FAST
@given(data=st.data())
def test_every_listed_action_converts_to_its_commands_typed_details(data):
    """The listing (the wire form) and each command's `CommandArgs` (args.py) can never
    drift: every listed action's `with`, inputs filled, converts strictly."""
    rng = random.Random(data.draw(st.integers(0, 2**32)))
    for state in walk(data):
        for action in GAME.legal_actions(state, CONTENT):
            declared = GAME.commands.args_type(action["do"])
            assert declared is not None, f"{action['do']} takes untyped details"
            msgspec.convert(fill_inputs(action, rng), declared, strict=True)


def unlisted(state: Any, actions: list[dict[str, Any]]) -> list[tuple[str, dict[str, Any]]]:
    """Commands close to the listed ones that the list leaves out."""
    listed = [(a["do"], a["with"]) for a in actions]
    out: list[tuple[str, dict[str, Any]]] = []
    names = {a["do"] for a in actions}
    for name in COMMANDS:
        if name not in names:
            hero = state.turn or state.order[0]
            out += [(name, {}), (name, {"hero": hero})]
            if name == "skill":
                out += [(name, {"hero": hero, "skill": sk.id}) for sk in _skills(state, hero)]
            if name == "use_item":
                out += [(name, {"hero": hero, "item": i}) for i in state.heroes[hero].items]
            if name == "summon_retainer":
                out += [(name, {"retainer": r, "votes": state.players}) for r in state.retainers]
    for name, args in listed:
        if name == "use_item":
            held = state.heroes[args["hero"]].items
            out += [(name, {**args, "item": i}) for i in CONTENT.ids("items") if i not in held]
        if name == "summon_retainer":
            gone = [r for r in CONTENT.ids("retainers") if r not in state.retainers]
            out += [(name, {**args, "retainer": r}) for r in gone]
        if "hero" in args:
            out += [(name, {**args, "hero": h}) for h in state.order if h != args["hero"]]
        if "target" in args:
            out += [
                (name, {**args, "target": h})
                for h in state.order
                if (name, {**args, "target": h}) not in listed
            ]
        if "effect" in args:
            out += [(name, {**args, "effect": e}) for e in range(0, 8) if e not in _choices(state)]
        if "votes" in args:
            out += [(name, {**args, "votes": v}) for v in (state.players // 2, state.players + 1)]
        if "level3" in args:
            out.append((name, {**args, "level3": {h: "nowhere" for h in args["level3"]}}))
    return [(n, a) for n, a in out if (n, a) not in listed]


def _skills(state: Any, hero: str) -> list[Any]:
    card = CONTENT.get("heroes", state.heroes[hero].card)
    return [sk for side in card.level3.values() for sk in side] + list(card.skills)


def _choices(state: Any) -> list[int]:
    return state.charge.choices if state.charge is not None else []


@FAST
@given(data=st.data())
def test_what_is_not_listed_is_refused_in_words(data):
    for n, state in enumerate(walk(data)):
        if n % 3:
            continue  # every third state met: each walk still passes through every phase
        for name, args in unlisted(state, GAME.legal_actions(state, CONTENT)):
            refused(state, name, args)


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_selfplay_from_the_default_set_up_reaches_an_ending(seed, tmp_path):
    """The core's self-play (the real session, the demo pack, uniformly random listed
    actions and answers) ends the default set-up in a win or a loss, never refused."""
    report = selfplay(GAME, seed, folder=tmp_path)
    assert report.refusals == 0, report.refused
    assert report.ended and not report.stuck, report.to_json()
    assert report.steps < 3000


PHASE_PROMPTS = {
    "battlefield": "The Start Player reveals a Battlefield card",
    "boss": "The Start Player rolls the boss's dice",
    "end": "Pass the First Player token",
}


def expected_prompt(state: Any) -> str:
    """The words above the action picker's choices, as the screen worded them before the
    rules gave them (`prompt`): whose turn, what a Charge Attack roll asks, the phase."""
    if state.outcome:
        return "Resupply, then the next boss"
    if state.phase == "heroes" and state.turn:
        who = CONTENT.get("heroes", state.heroes[state.turn].card).title
        if state.charge is not None:
            return f"{who} rolled {state.charge.roll}: choose the Charge Attack"
        return f"{who}'s turn"
    return PHASE_PROMPTS[state.phase]


@FAST
@given(data=st.data())
def test_every_listed_action_carries_the_prompt_for_the_phase_and_charge(data):
    seen: set[str] = set()
    for state in walk(data):
        actions = GAME.legal_actions(state, CONTENT)
        for action in actions:
            assert action.get("prompt") == expected_prompt(state), (state.phase, action)
        if actions:
            seen.add("charge" if state.charge is not None else state.phase)
    assert seen  # every walk lists something on its way


def test_a_charge_attack_roll_is_the_prompt_until_its_effect_is_chosen():
    state = GAME.initial_state(options(), CONTENT)
    assert {a["prompt"] for a in GAME.legal_actions(state, CONTENT)} == {
        "The Start Player reveals a Battlefield card"
    }
    rng = random.Random(3)
    while not (state.phase == "heroes" and state.turn and not state.turn_done):
        for event in decide(state, GAME.legal_actions(state, CONTENT)[0]["do"], {}, rng):
            GAME.evolve(state, event)
    hero = state.turn
    who = CONTENT.get("heroes", state.heroes[hero].card).title
    assert GAME.legal_actions(state, CONTENT)[0]["prompt"] == f"{who}'s turn"
    for event in decide(state, "charge_attack", {"hero": hero}, rng):
        GAME.evolve(state, event)
    assert state.charge is not None
    prompts = {a["prompt"] for a in GAME.legal_actions(state, CONTENT)}
    assert prompts == {f"{who} rolled {state.charge.roll}: choose the Charge Attack"}
