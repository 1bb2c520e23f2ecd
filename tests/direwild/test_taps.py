"""A tap on the board is the rules' command: the listed one when the rules list it, and
otherwise the same command in their shape, which they refuse in words (taps.py)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from companion.core.rules import Command, RuleError
from companion.games.direwild.board import STAGING
from companion.games.direwild.taps import board_tap, enemy_at, turn_order_action
from tests.direwild.play import CONTENT, GAME, decide, play

ON_A_SQUARE = ("move_hero", "resolve_battle", "target_enemy")


def states() -> list[Any]:
    """States reached by self-play from a few seeds, some with enemies on the board."""
    return [play(seed, steps)[0] for seed in range(6) for steps in (20, 60, 120)]


def test_every_listed_tap_on_a_square_is_found_from_the_square() -> None:
    found = 0
    for state in states():
        actions = GAME.legal_actions(state, CONTENT)
        for action in actions:
            args = action["with"]
            if action["do"] not in ON_A_SQUARE or args.get("to") == STAGING:
                continue
            if action["do"] == "move_hero":
                square = args["to"]
            else:
                enemy = args["enemy"]
                square = state.karn.position if enemy == "karn" else state.enemies[enemy].position
            aiming = action["do"] == "target_enemy"
            tap = board_tap(state, actions, args["hero"], square, aiming)
            assert tap.listed is not None
            assert (tap.listed["do"], tap.listed["with"]) == (action["do"], args)
            found += 1
    assert found > 20


def test_a_tap_the_rules_do_not_list_is_refused_in_their_words() -> None:
    rng = random.Random(5)
    refused = 0
    for state in states():
        actions = GAME.legal_actions(state, CONTENT)
        for hero in state.heroes:
            for square in ("A1", "F6", "C3"):
                tap = board_tap(state, actions, hero, square, aiming=False)
                if tap.listed is not None:
                    continue
                assert tap.unlisted["with"]["hero"] == hero
                with pytest.raises(RuleError) as refusal:
                    decide(state, Command(tap.unlisted["do"], tap.unlisted["with"]), rng)
                assert "direwild/" not in refusal.value.message
                refused += 1
    assert refused > 20


def test_a_tap_on_an_enemy_is_a_battle_or_an_aim_at_it() -> None:
    for state in states():
        for slot, e in state.enemies.items():
            if e.defeated or e.position in (None, STAGING):
                continue
            assert enemy_at(state, e.position) == slot
            battle = board_tap(state, [], "stormbringer", e.position, aiming=False).unlisted
            aim = board_tap(state, [], "stormbringer", e.position, aiming=True).unlisted
            assert battle["do"] == "resolve_battle" and battle["with"]["enemy"] == slot
            assert set(battle["inputs"]) == {"creature.attack", "creature.flight"}
            assert aim == {"do": "target_enemy", "with": {"hero": "stormbringer", "enemy": slot}}
            return
    pytest.fail("no state reached had an enemy on the board")


def test_the_turn_order_is_the_listed_choice_or_the_same_command_unlisted() -> None:
    state = GAME.initial_state({"players": ["stormbringer", "featherheart"]}, CONTENT)
    actions = GAME.legal_actions(state, CONTENT)
    listed = [a for a in actions if a["do"] == "set_turn_order"]
    for action in listed:
        assert turn_order_action(actions, list(action["with"]["order"])) is action
    unlisted = turn_order_action(actions, ["featherheart"])
    assert unlisted == {"do": "set_turn_order", "with": {"order": ["featherheart"]}}
