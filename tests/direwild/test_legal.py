"""The listed actions are exactly what the rules accept.

From states reached by playing listed actions with random answers: (a) every listed action,
with any value of each input in its range, is accepted; (b) a command that is not listed
(another hero, square or enemy, a command of another phase, a value under its range or
outside its choices, a needed flag dropped) is refused in a player's words.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.core.rules import Action, Command, RuleError
from companion.games.direwild.board import STAGING, geometry
from tests.direwild.play import CONTENT, GAME, decide, filled, play, set_path

SETUPS: list[dict[str, Any]] = [
    {},
    {"players": ["shadowleaf", "groundbreaker", "bloodmaker"], "ai_deck": "mixed"},
    {"players": ["stormbringer", "shadowleaf", "groundbreaker", "featherheart"]},
    {"players": ["featherheart", "stormbringer"], "chapter": 2},
    {"players": ["stormbringer", "featherheart"], "chapter": 3, "prelude": False},
]
PROPERTY = settings(
    derandomize=True,
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
STATES = st.tuples(st.integers(0, 10_000), st.integers(0, 160), st.sampled_from(SETUPS))


def reached(seed: int, steps: int, setup: dict[str, Any]) -> Any:
    state, _, refusals = play(seed, steps, setup)
    assert refusals == 0
    return state


def accepted(state: Any, command: Command, rng: random.Random) -> bool:
    try:
        decide(state, command, rng)
    except RuleError:
        return False
    return True


def refused_in_words(state: Any, command: Command, rng: random.Random) -> None:
    try:
        decide(state, command, rng)
    except RuleError as exc:
        words = exc.message
        assert len(words) > 10 and "direwild/" not in words and "Traceback" not in words, words
        assert "{" not in words and "None" not in words, words
        return
    raise AssertionError(f"{command} is not listed but the rules accepted it")


def shape(action: Action | Command) -> tuple[str, str]:
    """A command without its input values: what `listed` compares."""
    if isinstance(action, Command):
        return action.name, repr(sorted(action.args.items()))
    args = copy.deepcopy(action["with"])
    for path in action.get("inputs", {}):
        *heads, last = path.split(".")
        inner = args
        for head in heads:
            inner = inner[head]
        del inner[last]
    return action["do"], repr(sorted(args.items()))


def bare(command: Command, action: Action) -> Command:
    """`command` with the input paths of `action` removed, to compare shapes."""
    args = copy.deepcopy(command.args)
    for path in action.get("inputs", {}):
        *heads, last = path.split(".")
        inner = args
        for head in heads:
            inner = inner.get(head, {})
        inner.pop(last, None)
    return Command(command.name, args)


def sample(actions: list[Action], rng: random.Random, most: int = 40) -> list[Action]:
    """All but the many hero moves, and a handful of those."""
    moves = [a for a in actions if a["do"] == "move_hero"]
    rest = [a for a in actions if a["do"] != "move_hero"]
    return rest + rng.sample(moves, min(len(moves), most))


@PROPERTY
@given(STATES, st.integers(0, 2**32 - 1))
def test_every_listed_action_is_accepted_with_any_inputs(where: Any, seed: int) -> None:
    state = reached(*where)
    rng = random.Random(seed)
    actions = GAME.legal_actions(state, CONTENT)
    if state.outcome in ("won", "lost"):
        assert actions == []
        return
    assert actions, "a game still being played always has something to do"
    assert sum(1 for a in actions if a.get("primary")) == 1
    for action in sample(actions, rng):
        assert action["label"] and "direwild/" not in action["label"]
        command = filled(action, rng)
        assert accepted(state, command, rng), f"listed {action} refused as {command}"
        for path, spec in action.get("inputs", {}).items():  # each end of each range
            if "min" in spec:
                for edge in (spec["min"], spec["max"]):
                    args = copy.deepcopy(action["with"])
                    set_path(args, path, edge)
                    assert accepted(state, Command(action["do"], args), rng), (action, path)


@PROPERTY
@given(STATES, st.integers(0, 2**32 - 1))
def test_every_listed_action_converts_to_its_commands_typed_details(where: Any, seed: int) -> None:
    """The listing (the wire form) and each command's `CommandArgs` (args.py) can never
    drift: every listed action's `with`, inputs filled, converts strictly."""
    state = reached(*where)
    rng = random.Random(seed)
    for action in GAME.legal_actions(state, CONTENT):
        declared = GAME.commands.args_type(action["do"])
        assert declared is not None, f"{action['do']} takes untyped details"
        msgspec.convert(filled(action, rng).args, declared, strict=True)


OPTIONAL = ("knockback_direction", "critical_colour")


def mutations(state: Any, action: Action, rng: random.Random) -> list[Command]:
    """Commands one change away from a listed action."""
    out: list[Command] = []
    args = action["with"]
    geo = geometry(CONTENT.get("boards", state.board))
    swaps = {
        "hero": list(state.heroes),
        "enemy": [*state.enemies, "karn"],
        "to": [*geo.squares(), STAGING],
    }
    for key, pool in swaps.items():
        if key in args:
            other = copy.deepcopy(args)
            other[key] = rng.choice([v for v in pool if v != args[key]])
            for extra in OPTIONAL:  # said only where they matter (Karn takes no critical)
                other.pop(extra, None)
            out.append(Command(action["do"], other))
    if args.get("disengage"):
        other = copy.deepcopy(args)
        del other["disengage"]
        out.append(Command(action["do"], other))
    for path, spec in action.get("inputs", {}).items():
        other = copy.deepcopy(args)
        set_path(other, path, spec["min"] - 1 if "min" in spec else "nobody")
        out.append(Command(action["do"], other))
    return out


OTHER_PHASES: dict[str, dict[str, Any]] = {
    "start_round": {},
    "reveal_ai_card": {},
    "end_round": {},
    "start_chapter": {},
    "set_turn_order": {},
    "charm_roll": {"magic": 0},
    "end_turn": {},
    "move_hero": {"to": STAGING},
    "resolve_battle": {"enemy": "karn", "creature": {"attack": 5}},
    "target_enemy": {"enemy": "karn"},
    "unlock": {"power": "veteran"},
    "treasure_monster": {"creature": {"attack": 5}},
    "place_hero": {"to": "A1", "how": "teleport"},
    "take_wound": {"count": 1},
}


@PROPERTY
@given(STATES, st.integers(0, 2**32 - 1))
def test_what_is_not_listed_is_refused_in_words(where: Any, seed: int) -> None:
    state = reached(*where)
    rng = random.Random(seed)
    actions = GAME.legal_actions(state, CONTENT)
    listed = {shape(a) for a in actions}
    for action in sample(actions, rng, most=8):
        for command in mutations(state, action, rng):
            if not is_listed(command, actions):
                refused_in_words(state, command, rng)
    names = {a["do"] for a in actions}
    for name, args in OTHER_PHASES.items():
        if name in names:
            continue
        full = dict(args)
        if name in (
            "charm_roll",
            "end_turn",
            "move_hero",
            "resolve_battle",
            "target_enemy",
            "treasure_monster",
            "place_hero",
            "take_wound",
        ):
            full["hero"] = rng.choice(list(state.heroes))
        if name == "set_turn_order":
            full["order"] = list(state.players)
        command = Command(name, full)
        assert shape(command) not in listed
        refused_in_words(state, command, rng)


def get_path(args: dict[str, Any], path: str) -> Any:
    for head in path.split("."):
        if not isinstance(args, dict) or head not in args:
            return None
        args = args[head]
    return args


def in_range(value: Any, spec: dict[str, Any]) -> bool:
    if "choices" in spec:
        return value in spec["choices"]
    return isinstance(value, int) and spec["min"] <= value <= spec["max"]


def is_listed(command: Command, actions: list[Action]) -> bool:
    """Some listed action is this command, its input values in their ranges."""
    return any(
        a["do"] == command.name
        and shape(bare(command, a)) == shape(a)
        and all(
            in_range(get_path(command.args, p), spec)
            for p, spec in a.get("inputs", {}).items()
            if p in command.args or p not in OPTIONAL
        )
        for a in actions
    )


def test_the_default_set_up_lists_one_first_step() -> None:
    state = GAME.initial_state({}, CONTENT)
    actions = GAME.legal_actions(state, CONTENT)
    assert [a["do"] for a in actions] == ["start_round"]
    assert actions[0]["primary"] is True


def test_the_game_phase_lasts_from_the_enemy_ai_card_to_the_turn_order() -> None:
    """`game_phase`: the rules' answer to whether the Enemy AI card's steps are the
    table's moment (the walk-through puts them away once the heroes' turns begin)."""
    from companion.games.direwild.legal import game_phase
    from tests.direwild.play import apply

    rng = random.Random(1)
    state = GAME.initial_state({}, CONTENT)
    seen = []
    while state.phase != "adventure":
        seen.append((state.phase, game_phase(state)))
        action = next(a for a in GAME.legal_actions(state, CONTENT) if a.get("primary"))
        apply(state, decide(state, filled(action, rng), rng))
    seen.append((state.phase, game_phase(state)))
    assert dict(seen) == {
        "setup": False,
        "game": True,
        "turn_order": True,
        "adventure": False,
    }


def adventure_state(options: dict[str, Any]) -> Any:
    state = GAME.initial_state({"players": ["stormbringer", "featherheart"], **options}, CONTENT)
    state.phase = "adventure"
    return state


def test_a_face_up_gryk_offers_the_treasure_monster_it_reveals_to_each_waiting_hero() -> None:
    state = adventure_state({"minions": {"red": "gryk"}})

    def gryk() -> list[Action]:
        return [a for a in GAME.legal_actions(state, CONTENT) if a["with"].get("gryk")]

    assert gryk() == []  # face down: its ability has not been revealed
    state.enemies["red"].active = True
    assert [(a["do"], a["with"]["hero"]) for a in gryk()] == [
        ("treasure_monster", "stormbringer"),
        ("treasure_monster", "featherheart"),
    ]
    assert all("Gryk" in a["label"] and "inputs" not in a for a in gryk())
    state.heroes["stormbringer"].done = True
    assert [a["with"]["hero"] for a in gryk()] == ["featherheart"]
    state.enemies["red"].defeated = True
    assert gryk() == []


def test_a_cards_wound_is_offered_while_the_wound_pile_has_a_card() -> None:
    state = adventure_state({})

    def wounds() -> list[Action]:
        return [a for a in GAME.legal_actions(state, CONTENT) if a["do"] == "take_wound"]

    assert [a["with"]["hero"] for a in wounds()] == ["stormbringer", "featherheart"]
    state.wound_pile = 0
    assert wounds() == []
    rng = random.Random(0)
    refused_in_words(state, Command("take_wound", {"hero": "stormbringer"}), rng)
