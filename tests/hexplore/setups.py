"""Set-ups the HEXplore tests share."""

from __future__ import annotations

from typing import Any

# two plain heroes, "a" and "b", so a fight's targets and declarations are easy to follow
PLAIN_HERO: dict[str, Any] = {
    "health": 20,
    "energy": 10,
    "skills": {"navigate": 5, "explore": 5, "survival": 5},
    "abilities": {"attack": 4, "defend": 0},
}
TWO_HEROES: dict[str, Any] = {"heroes": [{"id": "a", **PLAIN_HERO}, {"id": "b", **PLAIN_HERO}]}
