"""Where a new HEXplore card starts in the pack editor: an Encounter with its three
actions as the rulebook's Encounter card shows them (Attack on 1-3, a Mastery on 4-5 that
costs Energy and defaults to the Attack, a Special on the hex), a hero with rank 1
everywhere, so entering a card is mostly stepping its numbers.  Plain data, read by
`companion.content.forms.templates_for`."""

from __future__ import annotations

from companion.jsontypes import JsonObject

TEMPLATES: dict[str, JsonObject] = {
    "opponents": {
        "kind": "encounter",
        "type": "creature",
        "level": 1,
        "health": 4,
        "energy": 4,
        "actions": [
            {"key": "attack", "name": "Basic Attack", "target": "single", "health": 3},
            {
                "key": "mastery",
                "name": "Mastery",
                "cost": 2,
                "default": "attack",
                "target": "single",
                "health": 3,
            },
            {"key": "special", "name": "Special", "target": "group", "health": 2},
        ],
        "rewards": {"gold": 1, "food": 1},
    },
    "heroes": {
        "health": 8,
        "energy": 8,
        "attack": 1,
        "defend": 1,
        "navigate": 1,
        "explore": 1,
        "survival": 1,
    },
    "allies": {"kind": "escort", "health": 4, "attack": 2},
    # a Relic: its Wielder Requirement, the Soul Shield it lowers, its Wielder Bonus
    "relics": {
        "requirement_stat": "attack",
        "requirement": 1,
        "soul_shield": 0,
        "bonus_stat": "attack",
        "bonus": 1,
    },
}
