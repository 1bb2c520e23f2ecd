"""House rules: where careful players read a passage two ways, the group picks one at set-up.

Each is a named set-up option whose default is the app's reading (docs/rulings/hexplore.md
quotes the passage).  A saved game from before a house rule existed holds no choice for
it, so `house()` answers the default and the old game plays on as it always did.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from companion.core.rules import RuleError
from companion.games.hexplore.state import HexploreState
from companion.jsontypes import JsonObject


@dataclass(frozen=True)
class HouseRule:
    label: str
    choices: dict[str, str]  # choice -> its words in the wizard; the first is the default

    @property
    def default(self) -> str:
        return next(iter(self.choices))


HOUSE_RULES: dict[str, HouseRule] = {
    # Fleeing from combat: "Once the entire group has fled, or combat ends, the group Wanders"
    "flee_wander": HouseRule(
        "House rule: after some heroes Flee",
        {
            "any_fled": "The group Wanders when the combat ends",
            "all_fled": "The group Wanders only if every hero fled",
        },
    ),
    # Mindwiped Heroes: "During the Magi phase of each Game Turn, roll the Fate die. If you
    # roll a hex, mindwiped heroes disappear" - does a hero mindwiped in this Magi phase roll?
    "vanish_roll": HouseRule(
        "House rule: a hero mindwiped in the Magi phase first rolls to vanish",
        {
            "next_magi_phase": "In the next Magi phase",
            "same_magi_phase": "In the same Magi phase",
        },
    ),
    # Defend: the basic Ability "reduces each attack damaging them equal to the rank"; the
    # keyword "Reduces each incoming damaging effect by the Defend amount"
    "defend_each": HouseRule(
        "House rule: Defend reduces",
        {
            "damaging_effect": "Each damaging effect (Health and Energy apart)",
            "attack": "Each attack once",
        },
    ),
    # Rewards, Optional Rule: "you may choose whether to reward these by chance, or by choice"
    "single_rewards": HouseRule(
        "Single Rewards go",
        {"chance": "By target dice", "choice": "To the heroes the group picks"},
    ),
}


def house(s: HexploreState, name: str) -> str:
    """The group's choice for a house rule, or its default when the set-up named none."""
    return s.house_rules.get(name, HOUSE_RULES[name].default)


def house_options() -> list[JsonObject]:
    """The wizard's entries for the house rules (plain data, no UI code)."""
    return [
        {
            "name": name,
            "label": rule.label,
            "choices": list(rule.choices),
            "default": rule.default,
            "choice_labels": dict(rule.choices),
        }
        for name, rule in HOUSE_RULES.items()
    ]


def chosen_house_rules(options: Mapping[str, object]) -> dict[str, str]:
    """The house rules a set-up names, refused in words when a choice is unknown."""
    out: dict[str, str] = {}
    for name, rule in HOUSE_RULES.items():
        if name not in options:
            continue
        v = options[name]
        if v not in rule.choices:
            raise RuleError(f"{name} must be one of {', '.join(rule.choices)}, not {v!r}")
        out[name] = str(v)
    return out
