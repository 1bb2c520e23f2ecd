"""Typed command details (core/tables.py `CommandArgs`, `Commands.run`): a handler that
declares its details as a Struct gets them checked and converted once, at the edge, and a
detail of the wrong kind is refused in words before any rule runs (issue 27)."""

from __future__ import annotations

from typing import Any

import pytest

from companion.content.pack import Content
from companion.core.rules import Chance, RuleError
from companion.core.tables import CommandArgs, Commands, Decision


class Move(CommandArgs):
    hero: str
    steps: int = 1
    carry: list[str] = []


seen: list[Any] = []


def move(d: Decision, args: Move, chance: Chance, content: Content) -> None:
    seen.append(args)


def shout(d: Decision, args: dict[str, Any], chance: Chance, content: Content) -> None:
    seen.append(args)


TABLE: Commands[Any] = Commands({"turn": {"move": move, "shout": shout}})


def run(name: str, args: dict[str, Any]) -> Any:
    seen.clear()
    TABLE.run(name, "Test", Decision({}, lambda s, e: None), args, Chance(), Content("test"))
    return seen[0]


def test_declared_details_arrive_typed_with_their_defaults() -> None:
    assert TABLE.args_type("move") is Move
    assert run("move", {"hero": "ada"}) == Move(hero="ada", steps=1, carry=[])
    assert run("move", {"hero": "ada", "steps": 3, "carry": ["rope"]}).steps == 3


def test_a_raw_handler_still_gets_the_mapping() -> None:
    assert TABLE.args_type("shout") is None
    assert run("shout", {"loud": True}) == {"loud": True}


@pytest.mark.parametrize(
    ("args", "words"),
    [
        ({}, "'move' needs its hero"),
        ({"hero": "ada", "steps": "3"}, "the steps of 'move' must be a whole number"),
        ({"hero": "ada", "steps": True}, "the steps of 'move' must be a whole number"),
        ({"hero": 7}, "the hero of 'move' must be a name"),
        ({"hero": "ada", "carry": "rope"}, "the carry of 'move' must be a list"),
    ],
)
def test_a_detail_of_the_wrong_kind_is_refused_in_words(args: dict[str, Any], words: str) -> None:
    with pytest.raises(RuleError) as refused:
        run("move", args)
    assert refused.value.message == words
    assert seen == []  # refused before the rule ran


def test_details_beyond_the_declared_ones_are_left_to_unused_details() -> None:
    assert run("move", {"hero": "ada", "shoes": "red"}) == Move(hero="ada")


class Split(CommandArgs):
    shares: dict[str, int] | None = None


def split(d: Decision, args: Split, chance: Chance, content: Content) -> None:
    seen.append(args)


def test_a_map_or_nothing_is_said_in_words_too() -> None:
    table: Commands[Any] = Commands({"any": {"split": split}})
    with pytest.raises(RuleError) as refused:
        table.run(
            "split",
            "Test",
            Decision({}, lambda s, e: None),
            {"shares": [1]},
            Chance(),
            Content("t"),
        )
    assert refused.value.message == "the shares of 'split' must be named values or left out"


def test_a_wrapped_rule_is_read_through_its_wrapper() -> None:
    """A game that wraps its rules (HEXplore hands them its typed view of the packs) keeps
    their Structs: `functools.wraps` lets the table read the rule behind the wrapper."""
    import functools

    @functools.wraps(move)
    def wrapped(d: Decision, args: Any, chance: Chance, content: Content) -> None:
        move(d, args, chance, content)

    table: Commands[Any] = Commands({"turn": {"move": wrapped}})
    assert table.args_type("move") is Move
