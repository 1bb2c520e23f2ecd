"""The legal actions are the rules' own answer: every listed command is accepted with any
input in range, and a command that is not listed is refused in words."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.core.rules import Action, RuleError
from companion.games.hexplore.state import HexploreState
from tests.hexplore.play import CONTENT, GAME, play, random_value, run, with_inputs

SETTINGS = settings(derandomize=True, max_examples=40, deadline=None)
reached = st.tuples(st.integers(0, 10_000), st.integers(0, 300))


def _state(seed_steps: tuple[int, int]) -> HexploreState:
    return play(*seed_steps).state


def _key(name: str, args: dict[str, Any], inputs: dict[str, Any]) -> str:
    """A command as the list names it: its arguments less those the table fills in."""
    fixed = {k: v for k, v in args.items() if k not in inputs}
    return json.dumps([name, fixed], sort_keys=True)


def _keys(actions: list[Action]) -> dict[str, dict[str, Any]]:
    return {_key(a["do"], a["with"], a.get("inputs", {})): a.get("inputs", {}) for a in actions}


def _refused(state: HexploreState, name: str, args: dict[str, Any]) -> str:
    with pytest.raises(RuleError) as caught:
        run(state, name, args, random.Random(0))
    message = caught.value.message
    assert message and message[0].isalpha() and "Error" not in message, message
    return message


def _edges(spec: dict[str, Any]) -> list[Any]:
    return list(spec["choices"]) if "choices" in spec else [spec["min"], spec["max"]]


@SETTINGS
@given(reached, st.integers(0, 1000))
def test_every_listed_command_is_accepted(at: tuple[int, int], seed: int) -> None:
    state = _state(at)
    rng = random.Random(seed)
    for action in GAME.legal_actions(state, CONTENT):
        variants = [with_inputs(action, random_value(rng)), action["with"]]
        for path, spec in action.get("inputs", {}).items():
            variants += [{**action["with"], path: edge} for edge in _edges(spec)]
        for args in variants:
            try:
                run(state, action["do"], args, rng)
            except RuleError as exc:
                pytest.fail(f"listed {action['label']!r} {args} was refused: {exc.message}")


TEMPLATES: dict[str, list[dict[str, Any]]] = {
    "roll_skills": [{"hero": "{hero}"}],
    "end_skill_phase": [{}],
    "roll_circumstance": [{"location": "", "slots": []}],
    "settle_circumstance": [{}],
    "start_combat": [{"opponent": "{opponent}"}],
    "add_opponent": [{"opponent": "{opponent}"}],
    "end_game_turn": [{}],
    "declare": [{"hero": "{hero}", "action": a} for a in ("attack", "defend", "flee")],
    "opponent_action": [{}],
    "resolve_round": [{}],
    "wander": [{}],
    "roam": [{}],
    "raise_difficulty": [{}],
    "gain": [{"hero": "{hero}", "gold": 1}],
    "inflict": [{"who": "{hero}", "condition": "bleeding"}],
    "cure": [{"who": "{hero}", "condition": "bleeding"}],
    "fate_tracker_symbol": [{}],
    "defeat_sentinel": [{"at": "battle_site_1"}],
    "give_single_reward": [{"reward": "+2 Attack", "hero": "{hero}"}],
    "join_ally": [{"ally": "lost-keeper"}],
    "revive": [{"hero": "{hero}"}],
    "heal": [{"hero": "{hero}", "vital": "health", "amount": 1}],
    "teleport": [{}],
    "search_starting_gear": [{"hero": "{hero}"}],
    "quick_play_power_ups": [{}],
    "place_acropolis": [{}],
    "roll_starting_location": [{}],
    "take_starting_bonus": [{"hero": "{hero}", "stat": "navigate", "take": "gold"}],
    "gear_upgrade": [{"hero": "{hero}", "stat": "attack"}],
    "buy_gear_upgrade": [{"hero": "{hero}", "stat": "attack"}],
    "gain_workshop_supplies": [{"source": "Waypost 1"}],
    "gain_relic": [{"relic": "kejels-great-sword"}],
    "wield_relic": [{"relic": "kejels-great-sword", "hero": "{hero}"}],
    "rank_up": [{"hero": "{hero}", "stat": "attack"}],
    "sustain": [{"hero": "{hero}"}],
    "ally_leaves": [{"ally": "ally-lost-keeper"}],
}


def _fill(template: dict[str, Any], hero: str) -> dict[str, Any]:
    opponent = CONTENT.all("opponents")[0].slug
    return {
        k: (hero if v == "{hero}" else opponent if v == "{opponent}" else v)
        for k, v in template.items()
    }


def test_every_command_has_a_template() -> None:
    assert set(TEMPLATES) == set(GAME.command_names())


@SETTINGS
@given(reached)
def test_a_command_of_another_phase_is_refused(at: tuple[int, int]) -> None:
    state = _state(at)
    listed = {a["do"] for a in GAME.legal_actions(state, CONTENT)}
    for name in set(TEMPLATES) - listed:
        for template in TEMPLATES[name]:
            for hero in state.heroes:
                _refused(state, name, _fill(template, hero))
    assert _refused(state, "dance", {}).startswith("the game is over" if state.outcome else "HEX")


@SETTINGS
@given(reached)
def test_another_hero_or_target_is_refused_unless_listed(at: tuple[int, int]) -> None:
    state = _state(at)
    actions = GAME.legal_actions(state, CONTENT)
    keys = _keys(actions)
    for action in actions:
        for field in ("hero", "who", "wake", "target", "at", "opponent", "to"):
            if field not in action["with"]:
                continue
            for other in [*state.heroes, "opponent", "nobody"]:
                args = {**action["with"], field: other}
                if _key(action["do"], args, action.get("inputs", {})) not in keys:
                    _refused(state, action["do"], args)


@SETTINGS
@given(reached)
def test_a_value_out_of_range_is_refused(at: tuple[int, int]) -> None:
    state = _state(at)
    for action in GAME.legal_actions(state, CONTENT):
        for path, spec in action.get("inputs", {}).items():
            wrong = ["sleepy"] if "choices" in spec else [spec["min"] - 1, spec["max"] + 1]
            for value in wrong:
                args = {**action["with"], path: value}
                _refused(state, action["do"], args)


def test_a_finished_game_lists_nothing_and_refuses_everything() -> None:
    ended = next(p for p in (play(seed, 3000) for seed in range(1, 6)) if p.state.outcome)
    assert GAME.legal_actions(ended.state, CONTENT) == []
    assert "the game is over" in _refused(ended.state, "end_game_turn", {})


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_self_play_from_the_default_set_up(seed: int) -> None:
    """Self-play reaches a win or a loss with no refusal (checked together below)."""
    played = play(seed, 3000)
    assert played.refusals == []


def test_self_play_ends_in_most_seeds() -> None:
    ends = [play(seed, 3000).state.outcome for seed in range(1, 6)]
    assert sum(1 for e in ends if e in ("won", "lost")) >= 4, ends


def _primary(state: HexploreState) -> Action:
    (primary,) = [a for a in GAME.legal_actions(state, CONTENT) if a.get("primary")]
    return primary


def _do(state: HexploreState, name: str, args: dict[str, Any], dice: list[Any]) -> None:
    from companion.core.rules import Chance, Command

    for e in GAME.decide(state, Command(name, args), Chance(dice), CONTENT):
        GAME.evolve(state, e)


def test_next_follows_the_game_turn_and_brings_adrimon_from_cycle_10() -> None:
    state = GAME.initial_state({}, CONTENT)
    assert _primary(state)["label"] == "Roll skills for Stormcaller (Sprite)"
    _do(state, "roll_skills", {"hero": "stormcaller"}, [[2], [2], [2]])
    _do(state, "roll_skills", {"hero": "verdant-keeper"}, [[2], [2], [2]])
    assert _primary(state)["do"] == "end_skill_phase"
    _do(state, "end_skill_phase", {}, [])
    assert _primary(state)["do"] == "roll_circumstance"
    _do(state, "roll_circumstance", {"slots": []}, [[3]])
    assert _primary(state) == {
        "do": "settle_circumstance",
        "with": {"discard": False},
        "label": "Play the Circumstance",
        "primary": True,
        "group": "turn",
    }
    _do(state, "settle_circumstance", {}, [])
    assert _primary(state)["do"] == "end_game_turn"
    state.adrimon_attacks = True
    assert _primary(state)["label"] == "Fight Adrimon, the Magi"
    _do(state, "start_combat", {"opponent": "adrimon"}, [])
    declaring = GAME.legal_actions(state, CONTENT)
    assert not [a for a in declaring if a.get("primary")]  # each hero chooses: no Next
    assert {a["do"] for a in declaring} >= {"declare"}
    state.combat.phase = "over"  # as if the heroes fled: she comes again next turn
    assert _primary(state)["do"] == "end_game_turn"


def _groups(state: HexploreState) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for action in GAME.legal_actions(state, CONTENT):
        out.setdefault(action["do"], set()).add(action["group"])
    return out


def test_each_action_is_grouped_by_where_the_table_finds_it_in_the_game_turn() -> None:
    """The skills board takes the Skill phase, the combat mat a fight, the Game Turn's own
    steps sit under the wheel, and what a card does is the rest (`group`)."""
    state = GAME.initial_state({}, CONTENT)
    groups = _groups(state)
    assert groups["roll_skills"] == {"skills"}
    assert groups["start_combat"] == {"combat"}
    assert groups["roll_circumstance"] == groups["end_game_turn"] == {"turn"}
    assert groups["wander"] == groups["roam"] == groups["raise_difficulty"] == {"turn"}
    assert groups["fate_tracker_symbol"] == {"turn"}
    assert groups["gain"] == groups["inflict"] == groups["rank_up"] == {"card"}
    _do(state, "roll_skills", {"hero": "stormcaller"}, [[2], [2], [2]])
    _do(state, "roll_skills", {"hero": "verdant-keeper"}, [[2], [2], [2]])
    assert _groups(state)["end_skill_phase"] == {"skills"}
    _do(state, "end_skill_phase", {}, [])
    _do(state, "roll_circumstance", {"slots": []}, [[3]])
    assert _groups(state)["settle_circumstance"] == {"turn"}
    _do(state, "start_combat", {"opponent": "adrimon"}, [])
    fight = _groups(state)
    assert fight["declare"] == fight["add_opponent"] == {"combat"}
    assert fight["sustain"] == {"card"}  # a card's doing, behind "More" as before


@SETTINGS
@given(reached)
def test_every_listed_action_has_one_of_the_rules_groups(at: tuple[int, int]) -> None:
    for action in GAME.legal_actions(_state(at), CONTENT):
        assert action["group"] in {"skills", "combat", "turn", "card"}, action


def test_facing_two_each_attack_and_mastery_is_listed_against_each_by_name() -> None:
    """Issue 14: the rules list a hero's choices against each opponent (the mat renders
    them as they are); with one opponent the labels stay as they were."""
    state = GAME.initial_state({}, CONTENT)
    _do(state, "start_combat", {"opponent": "giant-fox"}, [])
    alone = [a for a in GAME.legal_actions(state, CONTENT) if a["do"] == "declare"]
    assert "Stormcaller (Sprite): Attack (health)" in [a["label"] for a in alone]
    assert not any("foe" in a["with"] for a in alone)
    joins = [a for a in GAME.legal_actions(state, CONTENT) if a["do"] == "add_opponent"]
    assert "Add Grove Lynx to this combat" in [a["label"] for a in joins]
    assert "Add Giant Fox! to this combat" not in [a["label"] for a in joins]
    _do(state, "add_opponent", {"opponent": "grove-lynx"}, [])
    listed = GAME.legal_actions(state, CONTENT)
    attacks = {
        a["label"]: a["with"].get("foe")
        for a in listed
        if a["do"] == "declare" and a["with"]["hero"] == "stormcaller"
    }
    assert attacks["Stormcaller (Sprite): Attack Giant Fox! (health)"] == "opponent"
    assert attacks["Stormcaller (Sprite): Attack Grove Lynx (energy)"] == "opponent2"
    assert attacks["Stormcaller (Sprite): Mastery Grove Lynx (health)"] == "opponent2"
    assert attacks["Stormcaller (Sprite): Defend"] is None
    for hid in ("stormcaller", "verdant-keeper"):
        _do(state, "declare", {"hero": hid, "action": "defend"}, [])
    after = GAME.legal_actions(state, CONTENT)
    assert not [a for a in after if a["do"] == "add_opponent"]  # only before any declaration
    acts = next(a for a in after if a["do"] == "opponent_action")
    assert acts["label"] == "Giant Fox! and Grove Lynx act" and acts["primary"]
