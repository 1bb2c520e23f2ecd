"""Where a new Kradia card starts in the pack editor: a Boss board laid out as the
rulebook's Boss Board is (Attack dice by HP, an Attack chart covering every dice sum,
Overdrive and Rage), a hero board with its six Charge Attack slots, so entering a card
is mostly stepping its numbers.  Plain data, read by
`companion.content.forms.templates_for`."""

from __future__ import annotations

from companion.jsontypes import JsonObject, JsonValue


def _hit(target: str, damage: int) -> JsonValue:
    return {"target": target, "damage": damage}


def _charge() -> list[JsonValue]:
    """Charge Attack #1 to #6, each dealing 1 damage to the boss until entered."""
    return [{"roll": n, "effects": [_hit("boss", 1)]} for n in range(1, 7)]


TEMPLATES: dict[str, JsonObject] = {
    "bosses": {
        "level": 1,
        "hp": 12,
        # 2 dice down to 7 HP, then 3: sums 2 to 18, each in one chart row
        "dice": [{"hp_at_most": 12, "dice": 2}, {"hp_at_most": 6, "dice": 3}],
        "chart": [
            {"min": 2, "max": 4, "effects": [_hit("start_player", 1)]},
            {"min": 5, "max": 7, "effects": [_hit("start_player", 2)]},
            {"min": 8, "max": 10, "effects": [_hit("second", 2)]},
            {"min": 11, "max": 14, "effects": [_hit("all", 1)]},
            {"min": 15, "max": 18, "effects": [_hit("all", 2)]},
        ],
        "overdrive": {"hp_at_most": 4, "effects": [_hit("start_player", 1)]},
        "rage": {"length": 4, "effects": [_hit("all", 1)]},
    },
    "heroes": {
        "hp": 10,
        "red_max": 3,
        "blue_max": 3,
        "skills": [],
        "level3": {},
        "charge": _charge(),
        "charge_level4": _charge(),
    },
    "items": {"effects": [{"target": "self", "heal": 2}]},
    "retainers": {"effects": [{"target": "self", "heal": 1}]},
    "battlefield_cards": {"symbol": "sun"},
}
