"""Skill checks, target dice and HEXploding rolls, swept over every face and rank."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.core.rules import Chance, ChanceNeeded
from companion.games.hexplore.dice import (
    CRITICAL_FAILURE,
    CRITICAL_SUCCESS,
    FAILURE,
    SUCCESS,
    auto_fails,
    critical_success_top,
    hexplode,
    skill_outcome,
    target_dice,
)

faces = st.integers(1, 10)
ranks = st.integers(0, 20)


@given(ranks, faces)
def test_unmodified_roll_reads_as_the_rulebook_says(rank: int, die: int) -> None:
    outcome = skill_outcome(rank, die)
    if die == 1 or die <= critical_success_top(rank):
        assert outcome == CRITICAL_SUCCESS
    elif die == 10:
        assert outcome == CRITICAL_FAILURE
    else:
        assert outcome == (SUCCESS if die <= rank else FAILURE)


@pytest.mark.parametrize(("rank", "top"), [(5, 1), (11, 1), (12, 2), (13, 3), (14, 4)])
def test_critical_range_widens_from_rank_12(rank: int, top: int) -> None:
    assert critical_success_top(rank) == top
    assert skill_outcome(rank, top) == CRITICAL_SUCCESS
    assert skill_outcome(rank, top + 1) != CRITICAL_SUCCESS


@given(ranks, faces, st.integers(0, 3))
def test_disoriented_stacks_widen_failure_by_two(rank: int, die: int, stacks: int) -> None:
    outcome = skill_outcome(rank, die, disoriented=stacks)
    if die > critical_success_top(rank) and die >= 10 - 2 * stacks:
        assert outcome == CRITICAL_FAILURE


@given(ranks, faces, st.integers(-3, 3))
def test_a_penalty_only_ever_makes_a_roll_worse(rank: int, die: int, penalty: int) -> None:
    order = [CRITICAL_SUCCESS, SUCCESS, FAILURE, CRITICAL_FAILURE]
    plain = order.index(skill_outcome(rank, die))
    moved = order.index(skill_outcome(rank, die, penalty))
    assert (moved >= plain) if penalty >= 0 else (moved <= plain)


def test_skills_at_or_under_the_cycle_fail_without_a_roll() -> None:
    assert auto_fails(3, 3) and auto_fails(2, 3) and not auto_fails(4, 3)


def test_hexplode_keeps_rolling_on_a_hex() -> None:
    assert hexplode(Chance([[6], [6], [2]]), for_="a", why="favored", role="favored") == [6, 6, 2]
    with pytest.raises(ChanceNeeded) as need:
        hexplode(Chance([[6]]), for_="a", why="favored", role="favored")
    assert "HEXploded" in need.value.request.why


def test_target_dice_rerolls_only_the_tie_across_the_cut() -> None:
    # a 9, b 6, c 6 for two targets: a is in, b and c roll off without modifiers.
    chance = Chance([[9], [6], [6], [3], [7]])
    chosen, rolls = target_dice(chance, ["a", "b", "c"], 2, "t")
    assert chosen == ["a", "c"]
    assert rolls == {"a": [9], "b": [6, 3], "c": [6, 7]}


def test_target_dice_no_roll_when_everyone_is_a_target() -> None:
    chosen, rolls = target_dice(Chance([]), ["a", "b"], 3, "t")
    assert chosen == ["a", "b"] and rolls == {}


def test_vulnerable_bonus_applies_to_the_first_roll_only() -> None:
    # a's 7 + 2 ties b's 9; the roll-off is unmodified, so a's 5 loses to b's 6.
    chance = Chance([[7], [9], [5], [6]])
    chosen, rolls = target_dice(chance, ["a", "b"], 1, "t", bonus=lambda h: 2 if h == "a" else 0)
    assert chosen == ["b"]
    assert rolls == {"a": [7, 5], "b": [9, 6]}


def test_ordered_target_dice_break_ties_among_the_chosen() -> None:
    chosen, _ = target_dice(Chance([[5], [5], [2], [8]]), ["a", "b"], 2, "r", ordered=True)
    assert chosen == ["b", "a"]
