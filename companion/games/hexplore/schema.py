"""HEXplore's content kinds and the checks a pack must pass: opponents (Encounters and
Bosses with their action keys), heroes, Circumstances, allies and Relics.

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


def _words(*choices: str, labels: tuple[str, ...] = (), title: str = "") -> object:
    """A word from a fixed list: the card editor offers the list to pick from (the
    content check still says which words are known), by the words the rulebook prints."""
    return msgspec.Meta(title=title or None, extra={"choices": choices, "labels": labels})


def _says(title: str, more: bool = False, **extra: object) -> msgspec.Meta:
    """The card editor's name for a field (the rulebook's), and `more`: printed on a few
    cards only (folded under "More" until it holds something)."""
    return msgspec.Meta(title=title, extra={**extra, "more": True} if more else extra or None)


ACTION_KEYS = ("attack", "defend", "mastery", "mastery2", "special", "special2", "passive")
ACTION_WORDS = (
    "Attack",
    "Defend",
    "Mastery",
    "Second Mastery",
    "Special",
    "Second Special",
    "Passive",
)
Condition = Annotated[str, _words(*CONDITIONS, title="Condition")]
ActionKey = Annotated[str, _words(*ACTION_KEYS, labels=ACTION_WORDS)]
Skill = Annotated[str, _words(*SKILLS, title="Skill")]


class Effect(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """A Condition an action inflicts: `swallowed` (10/3) is value 10, damage 3."""

    condition: Annotated[Condition, _says("Condition")]
    rounds: Annotated[int, _says("Rounds")] = 0
    value: Annotated[int, _says("Value")] = 0
    damage: Annotated[int, _says("Damage")] = 0


class Action(msgspec.Struct, forbid_unknown_fields=True, kw_only=True, rename={"raise_": "raise"}):
    # attack | defend | mastery | mastery2 | special | special2 | passive
    key: Annotated[ActionKey, _says("Action")]
    name: Annotated[str, _says("Name")] = ""
    # action die results; empty = the usual faces for its key
    roll: Annotated[list[int], _says("Action die (if not the usual)", more=True)] = []
    cost: Annotated[int, _says("Energy cost")] = 0
    # action used at half potency when Energy is short: one of this card's actions
    default: Annotated[str, _says("Default action", among="key")] = ""
    target: Annotated[
        str,
        _words(
            *TARGET_COUNTS,
            "group",
            "none",
            labels=("Single", "Dual", "Triple", "Group", "None"),
            title="Target",
        ),
    ] = "single"
    health: Annotated[int, _says("Health damage")] = 0
    energy: Annotated[int, _says("Energy damage")] = 0
    piercing: Annotated[int, _says("Piercing")] = 0
    defend: Annotated[int, _says("Defend")] = 0
    skills: Annotated[list[Skill], _says("Skill test", more=True)] = []
    # only this skill's failure brings the fail effects
    fail_skill: Annotated[str, _says("Only failing this skill", more=True)] = ""
    fail_health: Annotated[int, _says("Health damage if failed", more=True)] = 0
    fail_energy: Annotated[int, _says("Energy damage if failed", more=True)] = 0
    fail_conditions: Annotated[list[Effect], _says("Conditions if failed", more=True)] = []
    conditions: Annotated[list[Effect], _says("Conditions", more=True)] = []
    block: Annotated[int, _says("Block", more=True)] = 0
    heal: Annotated[int, _says("Heal", more=True)] = 0
    raise_: Annotated[int, _says("Raise", more=True)] = 0
    regen: Annotated[int, _says("Regen", more=True)] = 0
    negate: Annotated[bool, _says("Negate", more=True)] = False
    unyielding: Annotated[bool, _says("Unyielding", more=True)] = False
    reflect: Annotated[bool, _says("Reflect", more=True)] = False
    loses_action: Annotated[bool, _says("Targets lose their action", more=True)] = False
    halve_health_damage: Annotated[bool, _says("Health damage dealt is halved", more=True)] = False
    # "cannot drop a Vital to 0, instead dropping it to a minimum of 1"
    nonlethal: Annotated[bool, _says("Nonlethal", more=True)] = False
    damage_dealer_conditions: Annotated[
        list[Effect], _says("Conditions on those who deal damage", more=True)
    ] = []
    # Card wording the app runs: targets who dealt damage this round deal `weakens` less
    # until the end of combat (Giant Fox); targets who Defended or were Healed this round
    # suffer `delayed_health` more at the next Declaration phase (Decaying Forest); those
    # who fail `fail_caps_attack` deal at most their Attack rank in Health this round
    # (Smoking Limb).
    weakens: Annotated[int, _says("Damage dealers deal less by", more=True)] = 0
    delayed_health: Annotated[int, _says("Defenders and Healed suffer next round", more=True)] = 0
    fail_caps_attack: Annotated[str, _says("Failing caps damage at Attack rank", more=True)] = ""
    text: Annotated[str, _says("Card text")] = ""


class Rewards(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    gold: Annotated[int, _says("Gold")] = 0
    food: Annotated[int, _says("Food")] = 0
    power_ups: Annotated[int, _says("Power-Ups", more=True)] = 0
    fragments: Annotated[int, _says("Fragments", more=True)] = 0
    single: Annotated[list[str], _says("Single Rewards", more=True)] = []
    vanquish: Annotated[list[str], _says("Vanquish Rewards", more=True)] = []
    influence: Annotated[list[str], _says("Influence Rewards", more=True)] = []


class Opponent(Item, kw_only=True):
    kind: Annotated[
        str, _words("encounter", "boss", labels=("Encounter", "Boss"), title="Encounter or Boss")
    ]
    type: Annotated[str, _words(*OPPONENT_TYPES, title="Opponent Type")]
    level: Annotated[int, _says("Level")]
    health: Annotated[int, _says("Health")] = 0
    soul_shield: Annotated[int, _says("Soul Shield")] = 0
    energy: Annotated[int, _says("Energy")] = 0
    # 0: cannot be Influenced
    influence: Annotated[int, _says("Influence", more=True)] = 0
    # Energy each Influencing hero spends per round
    influence_cost: Annotated[int, _says("Energy to Influence, per round", more=True)] = 0
    dangerous: Annotated[bool, _says("Dangerous", more=True)] = False
    # Swallowed heroes' damage is multiplied by this (Tharanos: 2)
    swallowed_damage: Annotated[int, _says("Swallowed heroes' damage times", more=True)] = 1
    actions: Annotated[list[Action], _says("Actions")]
    rewards: Annotated[Rewards, _says("Group Reward")] = msgspec.field(default_factory=Rewards)
    text: Annotated[str, _says("Card text", more=True)] = ""

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

    role: Annotated[str, _says("Role")]
    race: Annotated[str, _says("Race")]
    health: Annotated[int, _says("Health")]
    energy: Annotated[int, _says("Energy")]
    attack: Annotated[int, _says("Attack")]
    defend: Annotated[int, _says("Defend")]
    navigate: Annotated[int, _says("Navigate")]
    explore: Annotated[int, _says("Explore")]
    survival: Annotated[int, _says("Survival")]
    base_attack: Annotated[int, _says("Basic Attack bonus", more=True)] = 0
    food_rating: Annotated[int, _says("Food Rating", more=True)] = 1
    favored_opponent: Annotated[
        str,
        _words(
            "",
            *OPPONENT_TYPES,
            labels=("None", *(t.replace("_", " ").title() for t in OPPONENT_TYPES)),
            title="Favored Opponent",
        ),
    ] = ""


class CircumstanceCard(Item, kw_only=True):
    """A Circumstance card as far as the roll needs it: can it be avoided, what it starts."""

    unavoidable: Annotated[bool, _says("Unavoidable")] = False
    encounter: Annotated[str, card_of("opponents"), _says("Encounter")] = ""
    grove: Annotated[bool, _says("Grove")] = False


ALLY_KINDS = ("escort", "summon", "ally")


class AllyCard(Item, kw_only=True):
    """An Escort (from a Destination or Circumstance), a Summon, or an Influenced ally:
    "The Escort graphic will show you the ally's Health (they have 0 Energy) and the action
    they perform each combat round."  `attack` is the Health damage it deals each round."""

    kind: Annotated[
        str, _words(*ALLY_KINDS, labels=("Escort", "Summon", "Ally"), title="Kind of ally")
    ] = "escort"
    health: Annotated[int, _says("Health")]
    attack: Annotated[int, _says("Health damage each round")] = 0
    text: Annotated[str, _says("Card text")] = ""


RANKED_STATS = ("health", "energy", "attack", "defend", *SKILLS)
RANKED_WORDS = tuple(s.title() for s in RANKED_STATS)


class RelicCard(Item, kw_only=True):
    """A Relic: "A hero must meet the Wielder Requirement in order to wield the Relic";
    "Soul Shield: ... Reduce an opponent's Soul Shield by the amount specified during the
    Declaration phase of each round of combat"; "Wielder Bonus ... raise the rank of the stat
    shown by the amount specified."  Its Ability and its bonus Against the Magi are text."""

    requirement_stat: Annotated[
        str, _words(*RANKED_STATS, labels=RANKED_WORDS, title="Wielder Requirement: stat")
    ]
    requirement: Annotated[int, _says("Wielder Requirement: rank")]
    soul_shield: Annotated[int, _says("Soul Shield: all opponents lose, per round")] = 0
    bonus_stat: Annotated[
        str, _words("", *RANKED_STATS, labels=("None", *RANKED_WORDS), title="Wielder Bonus: stat")
    ] = ""
    bonus: Annotated[int, _says("Wielder Bonus: ranks")] = 0
    ability: Annotated[str, _says("Relic Ability", more=True)] = ""
    against_magi: Annotated[str, _says("Against the Magi", more=True)] = ""


CONTENT_KINDS = {
    "opponents": Opponent,
    "heroes": Hero,
    "circumstances": CircumstanceCard,
    "allies": AllyCard,
    "relics": RelicCard,
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


def validate_content(content: Content) -> Iterable[tuple[str, str]]:
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
    for r in content.all("relics"):
        if r.requirement_stat not in RANKED_STATS:
            yield r.id, f"requirement_stat must be one of {', '.join(RANKED_STATS)}"
        if r.bonus_stat and r.bonus_stat not in RANKED_STATS:
            yield r.id, f"bonus_stat must be one of {', '.join(RANKED_STATS)}"
        if r.soul_shield < 0 or r.bonus < 0 or r.requirement < 0:
            yield r.id, "a Relic's numbers are 0 or more"
    for c in content.all("circumstances"):
        if c.encounter and content.find("opponents", c.encounter) is None:
            yield c.id, f"encounter '{c.encounter}' is not in the loaded content"
