"""Where a new Direwild card starts in the pack editor: the usual shape of each kind
(a level 1 minion with the 3 hit points the rulebook gives a regular minion and one
hit effect), so entering a card is mostly stepping its numbers.  Plain data, read by
`companion.content.forms.templates_for`; a board is drawn in its own editor."""

from __future__ import annotations

from companion.jsontypes import JsonObject

TEMPLATES: dict[str, JsonObject] = {
    "minions": {
        "level": 1,
        "attack": 6,
        "hp": 3,
        "hit_effects": [{"kind": "poison", "amount": 1}],
    },
    "ai_cards": {
        "deck": "normal",
        "actions": [{"do": "karn"}, {"do": "move", "move": 3}],
    },
    "karn": {"attack": 14, "track_length": 7, "hit_effects": [{"kind": "poison", "amount": 1}]},
    "karn_cards": {"counterattack": [{"kind": "poison", "amount": 1}]},
}
