"""The new-game wizard's choices for HEXplore It, as plain data (the app turns them into
touch choices; `setup.initial_state` still checks whatever it is given).

The heroes offered are the packs' own, in file order: `setup_options_for(content)` derives
them, and a hero's id in the session is its Role in lower case, dashes for spaces.
"""

from __future__ import annotations

from companion.content.offer import own_first
from companion.games.hexplore.content import HexContent
from companion.games.hexplore.house import house_options
from companion.games.hexplore.schema import Hero
from companion.games.hexplore.tables import DIFFICULTIES, PLAY_STYLES
from companion.jsontypes import JsonObject

DEFAULT_HEROES = 2  # the group a table gets by starting straight away


def hero_choices(heroes: list[Hero]) -> list[JsonObject]:
    """One set-up entry per hero: its id is its Role (or its slug, should two share one)."""
    roles = [h.role.lower().replace(" ", "-") for h in heroes]
    return [
        {"id": role if roles.count(role) == 1 else h.slug, "hero": h.slug}
        for role, h in zip(roles, heroes, strict=True)
    ]


def _heroes_option(heroes: list[Hero]) -> JsonObject:
    choices = hero_choices(heroes)
    return {
        "name": "heroes",
        "label": "Heroes (1 to 6)",
        "pick": [*choices],
        "default": [*choices[:DEFAULT_HEROES]],
        "choice_labels": {str(c): h.title for c, h in zip(choices, heroes, strict=True)},
    }


# The choices that need no content: a wizard with no packs chosen offers these, and the
# set-up then plays the packs' first heroes.
SETUP_OPTIONS: list[JsonObject] = [
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
    *house_options(),
]


def setup_options_for(content: HexContent) -> list[JsonObject]:
    """The wizard's choices for the packs chosen: their heroes by name (the group's new
    ones first), then the rest."""
    heroes = own_first(content.content, content.heroes())
    return ([_heroes_option(heroes)] if heroes else []) + SETUP_OPTIONS
