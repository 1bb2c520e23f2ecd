"""The new-game wizard's choices for HEXplore It, as plain data (the app turns them into
touch choices; `setup.initial_state` still checks whatever it is given).  The heroes are
the demo pack's; a hero's id in the session is the first words of its name."""

from __future__ import annotations

from typing import Any

from companion.games.hexplore.tables import DIFFICULTIES, PLAY_STYLES

DEMO_HEROES = {
    "stormcaller": ("stormcaller-sprite", "Stormcaller (Sprite)"),
    "verdant-keeper": ("verdant-keeper-wood-elf", "Verdant Keeper (Wood Elf)"),
    "soul-reaver": ("soul-reaver-den-troll", "Soul Reaver (Den Troll)"),
    "floromancer": ("floromancer-korrigan", "Floromancer (Korrigan)"),
}
HERO_CHOICES = [{"id": hid, "hero": slug} for hid, (slug, _name) in DEMO_HEROES.items()]

SETUP_OPTIONS: list[dict[str, Any]] = [
    {
        "name": "heroes",
        "label": "Heroes (1 to 6)",
        "pick": HERO_CHOICES,
        "default": HERO_CHOICES[:2],
        "choice_labels": {
            str(choice): name
            for choice, (_slug, name) in zip(HERO_CHOICES, DEMO_HEROES.values(), strict=True)
        },
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
