"""House rules: where careful players read a passage two ways (docs/rulings/kradia.md),
the group chooses at set-up; the default is the reading the app takes."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypedDict

from companion.core.rules import RuleError

# Passages careful players read two ways (docs/rulings/kradia.md): each is a set-up choice
# whose default is the reading the app takes.  A set-up without one (an old save) means the
# default, so old sessions replay as they were played.


class HouseRule(TypedDict):
    """A house rule as the wizard offers it: its question, the app's reading, and each
    reading's words by its value."""

    label: str
    default: str
    choice_labels: dict[str, str]


HOUSE_RULES: dict[str, HouseRule] = {
    "resupply_stun": {
        "label": "House rule: a stun left at the end of a battle",
        "default": "stays",
        "choice_labels": {
            "stays": "Stays into the next battle (Resupply step 2 lists only Ailments, "
            "Attack Buffs and Evasion)",
            "removed": "Is removed at Resupply, with the Ailments",
        },
    },
    "confused_items": {
        "label": "House rule: Item cards while confused",
        "default": "allowed",
        "choice_labels": {
            "allowed": "Allowed (an Item card is not one of the 3 actions)",
            "forbidden": 'Forbidden ("may NOT perform any action", as Fading forbids them)',
        },
    },
}


def house_rule(house: dict[str, str], rule: str) -> str:
    """The group's choice for `rule`, or its default when the set-up did not name one."""
    return house.get(rule, str(HOUSE_RULES[rule]["default"]))


def house_from(options: Mapping[str, object]) -> dict[str, str]:
    """The house rules named in a set-up, each checked against its choices."""
    out: dict[str, str] = {}
    for rule, spec in HOUSE_RULES.items():
        value = options.get(rule)
        if value is None:
            continue
        if value not in spec["choice_labels"]:
            choices = " or ".join(spec["choice_labels"])
            raise RuleError(f"{spec['label']}: choose {choices}, not {value!r}")
        out[rule] = str(value)
    return out
