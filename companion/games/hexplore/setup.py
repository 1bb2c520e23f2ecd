"""Set-up options -> the first state, refusing bad options in words the table understands."""

from __future__ import annotations

import re
from collections.abc import Mapping

from companion.core.rules import RuleError
from companion.games.hexplore.content import HexContent
from companion.games.hexplore.house import chosen_house_rules
from companion.games.hexplore.options import DEFAULT_HEROES, hero_choices
from companion.games.hexplore.state import HeroState, HexploreState
from companion.games.hexplore.tables import DIFFICULTIES, PLAY_STYLES, SKILLS
from companion.jsontypes import JsonObject

HERO_ID = re.compile(r"^[a-z0-9][a-z0-9_-]*$")


def _whole(value: object, what: str, minimum: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise RuleError(f"{what} must be a whole number of at least {minimum}, not {value!r}")
    return value


def _hero(entry: object, content: HexContent) -> tuple[str, HeroState]:
    if not isinstance(entry, Mapping) or not isinstance(entry.get("id"), str):
        raise RuleError(
            "each hero needs an id, e.g. {id: scout, hero: <a hero of the packs>} or stats"
        )
    hid = entry["id"]
    if not HERO_ID.match(hid):
        raise RuleError(f"hero id '{hid}' must be lower case letters, digits, - or _")
    template = None
    if "hero" in entry:
        template = content.hero(entry["hero"])
        if template is None:
            known = ", ".join(h.slug for h in content.heroes()) or "none"
            raise RuleError(f"{hid}: no hero '{entry['hero']}' in the content (known: {known})")
    skills_in = dict(entry.get("skills") or {})
    abilities_in = dict(entry.get("abilities") or {})

    def stat(name: str, given: object) -> int:
        if given is None and template is not None:
            given = getattr(template, name)
        if given is None:
            raise RuleError(f"{hid}: say the hero's {name} rank (or name a hero from the content)")
        return _whole(given, f"{hid}'s {name}")

    for k in skills_in:
        if k not in SKILLS:
            raise RuleError(f"{hid}: '{k}' is not a skill (navigate, explore, survival)")
    for k in abilities_in:
        if k not in ("attack", "defend"):
            raise RuleError(f"{hid}: '{k}' is not an ability rank the app keeps (attack, defend)")
    health = stat("health", entry.get("health"))
    energy = stat("energy", entry.get("energy"))
    attack = stat("attack", abilities_in.get("attack"))
    base = entry.get("base_attack", template.base_attack if template else 0) or attack
    rating = entry.get("food_rating", template.food_rating if template else 1)
    hero = HeroState(
        name=str(entry.get("name") or (template.title if template else hid)),
        health=health,
        energy=energy,
        max_health=health,
        max_energy=energy,
        skills={s: stat(s, skills_in.get(s)) for s in SKILLS},
        abilities={"attack": attack, "defend": stat("defend", abilities_in.get("defend"))},
        base_attack=_whole(base, f"{hid}'s base_attack"),
        food_rating=_whole(rating, f"{hid}'s food_rating"),
        food=_whole(entry.get("food", 0), f"{hid}'s food"),
        gold=_whole(entry.get("gold", 0), f"{hid}'s gold"),
        favored_opponent=str(
            entry.get("favored_opponent", template.favored_opponent if template else "")
        ),
    )
    return hid, hero


def default_heroes(content: HexContent) -> list[JsonObject]:
    """With no heroes named, the first heroes of the packs in file order play."""
    return hero_choices(content.heroes())[:DEFAULT_HEROES]


def initial_state(options: Mapping[str, object], content: HexContent) -> HexploreState:
    difficulty = options.get("difficulty", "starter")
    if difficulty not in DIFFICULTIES:
        raise RuleError(f"difficulty must be one of {', '.join(DIFFICULTIES)}, not {difficulty!r}")
    style = options.get("play_style", "standard")
    if style not in PLAY_STYLES:
        raise RuleError(f"play_style must be one of {', '.join(PLAY_STYLES)}, not {style!r}")
    entries = options.get("heroes", default_heroes(content))
    if not isinstance(entries, list) or not 1 <= len(entries) <= 6:
        none = "" if content.heroes() else " (the content packs hold no heroes to start with)"
        raise RuleError(f"name 1 to 6 heroes under 'heroes'{none}")
    heroes: dict[str, HeroState] = {}
    for entry in entries:
        hid, hero = _hero(entry, content)
        if hid in heroes:
            raise RuleError(f"two heroes are called '{hid}'")
        heroes[hid] = hero
    if len(heroes) == 1:
        # One Player / One Hero: "The hero begins the game affected by a Spirit Tether Ritual"
        next(iter(heroes.values())).spirit_tether = True
    return HexploreState(
        heroes=heroes,
        difficulty=difficulty,
        play_style=style,
        house_rules=chosen_house_rules(options),
    )
