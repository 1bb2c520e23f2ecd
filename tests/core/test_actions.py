"""The one action builder keeps the wire form every reader knows, and `offers` says a sent
command is a listed action only as sent or with a table fact inside what it declares."""

from __future__ import annotations

from typing import Any

from companion.core.actions import action, names_choice, offers


def test_only_the_keys_that_say_something_are_set() -> None:
    assert action("roam") == {"do": "roam", "with": {}}
    assert action("heal", {"hero": "a"}, "Heal Ann") == {
        "do": "heal",
        "with": {"hero": "a"},
        "label": "Heal Ann",
    }
    auto = action("start_round", {}, "Start round", auto=True, group="turn", prompt="Go")
    assert auto == {
        "do": "start_round",
        "with": {},
        "label": "Start round",
        "primary": True,  # a step the app takes by itself is the one expected next
        "auto": True,
        "group": "turn",
        "prompt": "Go",
    }


GOLD = action(
    "gain",
    {"hero": "a", "gold": 0, "creature": {"attack": 0, "poison": 0}, "stat": "fight"},
    "Gold",
    {
        "gold": {"min": -2, "max": 5},
        "creature.attack": {"min": 0, "max": 30},
        "stat": {"choices": ["fight", "hide"]},
    },
)


def test_a_command_sent_as_listed_is_offered() -> None:
    assert offers(GOLD, "gain", GOLD["with"])


def test_a_table_fact_inside_what_the_action_declares_is_offered() -> None:
    args = {"hero": "a", "gold": -2, "creature": {"attack": 30, "poison": 0}, "stat": "hide"}
    assert offers(GOLD, "gain", args)


def test_a_table_fact_outside_it_or_a_changed_choice_is_not() -> None:
    base = GOLD["with"]
    assert not offers(GOLD, "gain", {**base, "gold": 6})
    assert not offers(GOLD, "gain", {**base, "gold": True})
    assert not offers(GOLD, "gain", {**base, "stat": "run"})
    assert not offers(GOLD, "gain", {**base, "hero": "b"})  # a choice, not a table fact
    assert not offers(GOLD, "gain", {**base, "creature": {"attack": 0, "poison": 1}})
    assert not offers(GOLD, "gain", {**base, "extra": 1})
    assert not offers(GOLD, "gain", {k: v for k, v in base.items() if k != "gold"})
    assert not offers(GOLD, "heal", base)
    not_named: Any = [base]  # a phone's "with" that is not a set of named values
    assert not offers(GOLD, "gain", not_named)


def test_the_log_names_a_command_by_its_choice_whatever_the_table_facts() -> None:
    """`names_choice` keeps the rules' label for a command the rules are about to judge: a
    table fact out of range or a detail more still names the listed choice; a changed
    choice does not."""
    base = GOLD["with"]
    assert names_choice(GOLD, {**base, "gold": 6, "extra": 1})
    assert names_choice(GOLD, {**base, "creature": {"attack": 99, "poison": 0}})
    assert not names_choice(GOLD, {**base, "hero": "b"})
    assert not names_choice(GOLD, {**base, "creature": {"attack": 0, "poison": 1}})
    assert not names_choice(GOLD, {k: v for k, v in base.items() if k != "hero"})
