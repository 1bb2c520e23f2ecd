"""The new-game wizard's choices for HEXplore It, as plain data (the app turns them into
touch choices; `setup.initial_state` still checks whatever it is given).

The heroes offered are the packs' own, in file order: `setup_options_for(content)` derives
them, and a hero's id in the session is its Role in lower case ("verdant-keeper").
`SETUP_OPTIONS` is the same list for the demo pack, for a wizard that does not yet hand
the game its loaded content.
"""

from __future__ import annotations

from typing import Any

from companion.games.hexplore.content import Hero
from companion.games.hexplore.hexcontent import HexContent
from companion.games.hexplore.tables import DIFFICULTIES, PLAY_STYLES

DEFAULT_HEROES = 2  # the group a table gets by starting straight away


def hero_choices(heroes: list[Hero]) -> list[dict[str, str]]:
    """One set-up entry per hero: its id is its Role (or its slug, should two share one)."""
    roles = [h.role.lower().replace(" ", "-") for h in heroes]
    return [
        {"id": role if roles.count(role) == 1 else h.slug, "hero": h.slug}
        for role, h in zip(roles, heroes, strict=True)
    ]


def _options(choices: list[dict[str, str]], names: list[str]) -> list[dict[str, Any]]:
    return [
        {
            "name": "heroes",
            "label": "Heroes (1 to 6)",
            "pick": choices,
            "default": choices[:DEFAULT_HEROES],
            "choice_labels": {str(c): n for c, n in zip(choices, names, strict=True)},
        },
        {
            "name": "difficulty",
            "label": "Difficulty",
            "choices": list(DIFFICULTIES),
            "default": "starter",
            "choice_labels": {d: d.capitalize() for d in DIFFICULTIES},
        },
        {
            "name": "play_style",
            "label": "Play style",
            "choices": list(PLAY_STYLES),
            "default": "standard",
            "choice_labels": {p: p.replace("_", " ").capitalize() for p in PLAY_STYLES},
        },
    ]


def setup_options_for(content: HexContent) -> list[dict[str, Any]]:
    """The wizard's choices for the packs loaded: their heroes, by name."""
    heroes = content.heroes()
    return _options(hero_choices(heroes), [h.title for h in heroes])


# The demo pack's heroes, for the wizard until it passes the loaded content (see above);
# tests/hexplore/test_options.py checks this list is what the demo pack derives.
_DEMO = [
    ("stormcaller", "stormcaller-sprite", "Stormcaller (Sprite)"),
    ("verdant-keeper", "verdant-keeper-wood-elf", "Verdant Keeper (Wood Elf)"),
    ("soul-reaver", "soul-reaver-den-troll", "Soul Reaver (Den Troll)"),
    ("floromancer", "floromancer-korrigan", "Floromancer (Korrigan)"),
]
SETUP_OPTIONS = _options([{"id": i, "hero": s} for i, s, _ in _DEMO], [n for *_, n in _DEMO])
