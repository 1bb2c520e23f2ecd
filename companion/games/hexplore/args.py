"""The details of every HEXplore command, one typed Struct per command (issue 27).

The core checks and converts a command's details into its Struct once, before the rule
runs (`Commands.run`), so a detail of the wrong kind is refused in words at the edge and
the rules read fields.  What a kind cannot say stays in the rules: a hero who exists, a
number in range, a word of a known list.  A field the rule defaults from the state (a
hero's ranks) is `None` until the rule fills it.  They live here, not in commands.py,
because the rule modules import them and commands.py imports the rule modules."""

from __future__ import annotations

import msgspec

from companion.core.tables import CommandArgs
from companion.games.hexplore.tables import ELASHOR_RANKS


class HeroArgs(CommandArgs):
    """A command about one hero; the rule refuses a hero who is not at the table."""

    hero: str | None = None


# -- set-up (setting_out.py) -------------------------------------------------------


class SearchStartingGear(HeroArgs):
    pass


class QuickPlayPowerUps(CommandArgs):
    pass


class PlaceAcropolis(CommandArgs):
    pass


class RollStartingLocation(CommandArgs):
    pass


class TakeStartingBonus(HeroArgs):
    stat: str | None = None
    health: int = ELASHOR_RANKS  # of Elashor's Vital ranks to Health, the rest to Energy
    take: str | None = None


# -- movement and the Skill phase (skills.py) -----------------------------------------


class Wander(CommandArgs):
    blocked: list[int] | None = None  # None, as before typing: none blocked
    why: str = "Wander"


class Roam(CommandArgs):
    pass


class RollSkills(HeroArgs):
    skills: str | list[str] | None = None  # None: all three
    penalty: int = 0


class EndSkillPhase(CommandArgs):
    bonuses: dict[str, str] | None = None
    cautious: bool = False
    blocked: list[int] | None = None


class Gain(HeroArgs):
    gold: int = 0
    food: int = 0
    why: str = "gained"


# -- the Circumstance (circumstance.py) ------------------------------------------------


class RollCircumstance(CommandArgs):
    location: str = ""
    cautious: bool = False
    slots: list[str] | None = None
    fey_realm: bool = False
    choose: int = 6


class SettleCircumstance(CommandArgs):
    discard: bool = False


# -- combat (combat.py, declare.py, opponent.py, resolve.py, rewards.py) ---------------


class StartCombat(CommandArgs):
    opponent: str | None = None
    dangerous: bool | int = 0  # true, or how many times the Difficulty rises
    sentinel: str = ""


class AddOpponent(CommandArgs):
    opponent: str | None = None
    dangerous: bool | int = 0


class Declare(HeroArgs):
    action: str | None = None
    foe: str | None = None
    energy: int = 1
    amount: int | None = None  # None: the hero's rank for the action
    vital: str = "health"
    favored_vital: str = "health"
    heal_vital: str = "health"
    piercing: int = 0
    target: str = ""
    defend: int = 0
    block: int = 0
    wake: str = ""
    defend_too: bool = False
    heal: int = 0
    raise_: bool = msgspec.field(default=False, name="raise")
    nonlethal: bool = False
    heal_target: str = ""
    inflicts: dict[str, int] | None = None


class OpponentAction(CommandArgs):
    pass


class ResolveRound(CommandArgs):
    pass


class GiveSingleReward(HeroArgs):
    reward: str | None = None


class Sustain(HeroArgs):
    effect: str | None = None


# -- the Magi phase (fate.py) --------------------------------------------------------


class EndGameTurn(CommandArgs):
    pass


class FateTrackerSymbol(CommandArgs):
    card: str = ""


class DefeatSentinel(CommandArgs):
    at: str | None = None


# -- any time ------------------------------------------------------------------------


class ConditionArgs(CommandArgs):
    """A Condition on a hero or an opponent standing in the combat (opponent, opponent2 ...)."""

    who: str | None = None
    condition: str | None = None


class Inflict(ConditionArgs):
    rounds: int = 0
    value: int = 0
    damage: int = 0
    to: str = ""


class Cure(ConditionArgs):
    pass


class RaiseDifficulty(CommandArgs):
    to: str | None = None  # None: one step up


class Heal(HeroArgs):
    raise_: bool = msgspec.field(default=False, name="raise")
    vital: str = "health"
    amount: int = 1


class Revive(HeroArgs):
    health: int | None = None  # None: the hero's full Health
    energy: int | None = None  # None: the hero's full Energy
    ritual: bool = False
    why: str | None = None


class Teleport(CommandArgs):
    hexes: int = 0


class RankArgs(HeroArgs):
    stat: str | None = None


class GearUpgrade(RankArgs):
    cost: int = 0


class BuyGearUpgrade(RankArgs):
    pass


class GainWorkshopSupplies(CommandArgs):
    source: str | None = None


class RankUp(RankArgs):
    by: int = 1


class JoinAlly(CommandArgs):
    ally: str | None = None
    name: str | None = None
    kind: str = "escort"
    health: int = 0
    attack: int = 0
    summoner: str = ""


class GainRelic(CommandArgs):
    relic: str | None = None


class WieldRelic(HeroArgs):
    relic: str | None = None


class AllyLeaves(CommandArgs):
    ally: str | None = None
    why: str | None = None
