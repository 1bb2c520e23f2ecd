"""Each Kradia command's details, typed: the core converts a command's details to its Struct
once, before the rule runs, and refuses a detail of the wrong kind in words, so the rules
read fields and check only what a detail means (a hero at the table, a roll's choices).

Details the player may leave out default to None where the rule itself says what is
missing ("say which hero acts"), so those refusals keep their words.  A card's `target` is
any value: the rule says which hero a card that aims at an ally needs, and a card that aims
at no one leaves it to the core's unused_details ("does not use target here")."""

from __future__ import annotations

from companion.core.tables import CommandArgs


class StartRoundArgs(CommandArgs):
    card: str | None = None  # the Battlefield card turned face up (chance's, when left out)


class EndRoundArgs(CommandArgs):
    pass


class HeroArgs(CommandArgs):
    """A command a hero gives on their turn."""

    hero: str | None = None


class ActionArgs(HeroArgs):
    """A hero's action, which ends the turn unless the player keeps it open for items."""

    end_turn: bool = True


class BasicAttackArgs(ActionArgs):
    pass


class ChargeAttackArgs(ActionArgs):
    effect: int | None = None  # the Charge Attack number; None: roll first, choose after


class SkillArgs(ActionArgs):
    skill: str | None = None
    target: object = None


class UseItemArgs(HeroArgs):
    item: str | None = None
    target: object = None


class PassArgs(HeroArgs):
    pass


class EndTurnArgs(HeroArgs):
    pass


class BossAttackArgs(CommandArgs):
    pass


class SummonRetainerArgs(CommandArgs):
    retainer: str | None = None
    votes: int | None = None  # how many players agree; the rule says the range when missing
    target: object = None


class UseExtraArgs(CommandArgs):
    extra: str | None = None
    target: object = None


class ResupplyArgs(CommandArgs):
    boss: str | None = None
    level3: dict[str, str] | None = None  # hero -> the side of their Level 3 Skill card
