"""Content schemas: opponents (Encounters and Bosses with their action keys) and heroes.

An opponent's card is data: each action says who it targets, what it deals and which
keywords it carries, so one resolution routine runs every card.  Text the app cannot
run (a card's special wording) stays in `text` for the players to read.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Annotated

import msgspec

from companion.content.pack import Content
from companion.content.schema import Item, card_of
from companion.games.hexplore.tables import (
    BOSS_ROLLS,
    CONDITIONS,
    ENCOUNTER_ROLLS,
    OPPONENT_TYPES,
    SKILLS,
    TARGET_COUNTS,
)


def _words(*choices: str) -> object:
    """A word from a fixed list: the card editor offers the list to pick from (the
    content check still says which words are known)."""
    return msgspec.Meta(extra={"choices": choices})


ACTION_KEYS = ("attack", "defend", "mastery", "mastery2", "special", "special2", "passive")
Condition = Annotated[str, _words(*CONDITIONS)]
ActionKey = Annotated[str, _words(*ACTION_KEYS)]
Skill = Annotated[str, _words(*SKILLS)]


class Effect(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """A Condition an action inflicts: `swallowed` (10/3) is value 10, damage 3."""

    condition: Condition
    rounds: int = 0
    value: int = 0
    damage: int = 0


class Action(msgspec.Struct, forbid_unknown_fields=True, kw_only=True, rename={"raise_": "raise"}):
    key: ActionKey  # attack | defend | mastery | mastery2 | special | special2 | passive
    name: str = ""
    roll: list[int] = []  # action die results; empty = the usual faces for its key
    cost: int = 0
    default: str = ""  # action used at half potency when Energy is short
    target: Annotated[str, _words(*TARGET_COUNTS, "group", "none")] = "single"
    health: int = 0
    energy: int = 0
    piercing: int = 0
    skills: list[Skill] = []
    fail_skill: str = ""  # only this skill's failure brings the fail effects
    fail_health: int = 0
    fail_energy: int = 0
    fail_conditions: list[Effect] = []
    conditions: list[Effect] = []
    defend: int = 0
    block: int = 0
    heal: int = 0
    raise_: int = 0
    regen: int = 0
    negate: bool = False
    unyielding: bool = False
    reflect: bool = False
    loses_action: bool = False
    halve_health_damage: bool = False
    nonlethal: bool = False  # "cannot drop a Vital to 0, instead dropping it to a minimum of 1"
    damage_dealer_conditions: list[Effect] = []
    # Card wording the app runs: targets who dealt damage this round deal `weakens` less
    # until the end of combat (Giant Fox); targets who Defended or were Healed this round
    # suffer `delayed_health` more at the next Declaration phase (Decaying Forest); those
    # who fail `fail_caps_attack` deal at most their Attack rank in Health this round
    # (Smoking Limb).
    weakens: int = 0
    delayed_health: int = 0
    fail_caps_attack: str = ""
    text: str = ""


class Rewards(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    gold: int = 0
    food: int = 0
    power_ups: int = 0
    fragments: int = 0
    single: list[str] = []
    vanquish: list[str] = []
    influence: list[str] = []


class Opponent(Item, kw_only=True):
    kind: Annotated[str, _words("encounter", "boss")]
    type: Annotated[str, _words(*OPPONENT_TYPES)]
    level: int
    health: int = 0
    soul_shield: int = 0
    energy: int = 0
    influence: int = 0  # 0: cannot be Influenced
    influence_cost: int = 0  # Energy each Influencing hero spends per round
    dangerous: bool = False
    swallowed_damage: int = 1  # Swallowed heroes' damage is multiplied by this (Tharanos: 2)
    actions: list[Action]
    rewards: Rewards = msgspec.field(default_factory=Rewards)
    text: str = ""

    def action(self, key: str) -> Action | None:
        return next((a for a in self.actions if a.key == key), None)

    def act(self, key: str) -> Action:
        """An action the card must have (validation checks every default it names)."""
        found = self.action(key)
        if found is None:
            raise KeyError(f"{self.title} has no '{key}' action")
        return found

    def rolled(self, value: int) -> Action:
        table = ENCOUNTER_ROLLS if self.kind == "encounter" else BOSS_ROLLS
        for a in self.actions:
            if value in (a.roll or table.get(a.key, [])):
                return a
        raise KeyError(f"{self.title} has no action for a roll of {value}")


class Hero(Item, kw_only=True):
    """A Role + Race pairing with its starting ranks (Role base plus Racial Modifiers)."""

    role: str
    race: str
    health: int
    energy: int
    attack: int
    defend: int
    navigate: int
    explore: int
    survival: int
    base_attack: int = 0
    food_rating: int = 1
    favored_opponent: str = ""


class CircumstanceCard(Item, kw_only=True):
    """A Circumstance card as far as the roll needs it: can it be avoided, what it starts."""

    unavoidable: bool = False
    encounter: Annotated[str, card_of("opponents")] = ""
    grove: bool = False


ALLY_KINDS = ("escort", "summon", "ally")


class AllyCard(Item, kw_only=True):
    """An Escort (from a Destination or Circumstance), a Summon, or an Influenced ally:
    "The Escort graphic will show you the ally's Health (they have 0 Energy) and the action
    they perform each combat round."  `attack` is the Health damage it deals each round."""

    kind: str = "escort"
    health: int
    attack: int = 0
    text: str = ""


CONTENT_KINDS = {
    "opponents": Opponent,
    "heroes": Hero,
    "circumstances": CircumstanceCard,
    "allies": AllyCard,
}


def _action_problems(o: Opponent) -> Iterable[str]:
    keys = [a.key for a in o.actions]
    table = ENCOUNTER_ROLLS if o.kind == "encounter" else BOSS_ROLLS
    faces: dict[int, str] = {}
    for a in o.actions:
        if a.key == "passive":
            if o.kind != "boss":
                yield "only Bosses have a passive"
            continue
        if a.key not in table:
            yield f"action key '{a.key}' is not one of {', '.join(table)}"
            continue
        for face in a.roll or table[a.key]:
            if face in faces:
                yield f"action die {face} is both {faces[face]} and {a.key}"
            faces[face] = a.key
        if a.target not in (*TARGET_COUNTS, "group", "none"):
            yield f"{a.key}: target '{a.target}' is not single, dual, triple, group or none"
        if a.cost and not a.default:
            yield f"{a.key} costs {a.cost} Energy but names no default action"
        if a.default and a.default not in keys:
            yield f"{a.key} defaults to '{a.default}', which this opponent lacks"
        if a.fail_caps_attack and a.fail_caps_attack not in a.skills:
            yield f"{a.key}: fail_caps_attack names '{a.fail_caps_attack}', which it does not roll"
        for s in a.skills:
            if s not in SKILLS:
                yield f"{a.key}: '{s}' is not a skill ({', '.join(SKILLS)})"
        for e in (*a.conditions, *a.fail_conditions, *a.damage_dealer_conditions):
            if e.condition not in CONDITIONS:
                yield f"{a.key}: unknown condition '{e.condition}'"
    missing = [f for f in range(1, 7) if f not in faces]
    if missing:
        yield f"no action for action die {', '.join(map(str, missing))}"


def validate(content: Content) -> Iterable[tuple[str, str]]:
    """Cross-checks a schema alone cannot make, worded for whoever edits the YAML."""
    for o in content.all("opponents"):
        if o.kind not in ("encounter", "boss"):
            yield o.id, f"kind must be encounter or boss, not '{o.kind}'"
            continue
        top = 6 if o.kind == "encounter" else 10
        if not 1 <= o.level <= top:
            yield o.id, f"{o.kind} level must be 1 to {top}, not {o.level}"
        if o.type not in OPPONENT_TYPES:
            yield o.id, f"type '{o.type}' is not one of {', '.join(OPPONENT_TYPES)}"
        if (o.health > 0) == (o.soul_shield > 0):
            yield o.id, "give either health or soul_shield (a Soul Shielded opponent's Health"
            " equals its shield)"
        for problem in _action_problems(o):
            yield o.id, problem
    for h in content.all("heroes"):
        if h.favored_opponent and h.favored_opponent not in OPPONENT_TYPES:
            yield h.id, f"favored_opponent '{h.favored_opponent}' is not an opponent type"
    for a in content.all("allies"):
        if a.kind not in ALLY_KINDS:
            yield a.id, f"kind must be one of {', '.join(ALLY_KINDS)}, not '{a.kind}'"
        if a.health < 1:
            yield a.id, "an ally needs 1 Health or more"
    for c in content.all("circumstances"):
        if c.encounter and content.find("opponents", c.encounter) is None:
            yield c.id, f"encounter '{c.encounter}' is not in the loaded content"
