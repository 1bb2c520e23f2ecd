"""Each Direwild command's details, typed: the core converts a command's details to its
Struct once, before the rule runs, and refuses a detail of the wrong kind in words, so the
rules read fields and check only what a detail means (a hero at the table, a square on the
board, a count in range).

Details the player may leave out default to None where the rule itself says what is missing
("say where the hero moves"), so those refusals keep their words."""

from __future__ import annotations

from companion.core.tables import CommandArgs

# A summoned creature's printed stats: its attack alone, or {attack, knockback, poison,
# flight, move}; battle.creature_stats checks the keys and values in the rulebook's words.
Creature = int | dict[str, object] | None


class CharmRollArgs(CommandArgs):
    hero: str | None = None
    magic: int = 0  # active magic spent for extra Charm


class StartChapterArgs(CommandArgs):
    board: str | None = None  # the land board (the chapter's first, when left out)


class UnlockArgs(CommandArgs):
    power: str | None = None


class StartRoundArgs(CommandArgs):
    pass


class EndRoundArgs(CommandArgs):
    pass


class RevealAiCardArgs(CommandArgs):
    card: str | None = None  # the Enemy AI card turned up (chance's, when left out)


class SetTurnOrderArgs(CommandArgs):
    order: list[str] | None = None


class MoveHeroArgs(CommandArgs):
    hero: str | None = None
    to: str | None = None
    move: int = 0  # the creature's extra move
    disengage: bool = False


class ResolveBattleArgs(CommandArgs):
    hero: str | None = None
    enemy: str | None = None
    creature: Creature = None
    knockback_direction: str | None = None
    critical_colour: str | None = None  # a hero's colour; the battling hero's when left out


class TreasureMonsterArgs(CommandArgs):
    hero: str | None = None
    gryk: bool = False  # revealed by the Gryk's ability, which wins at once
    creature: Creature = None


class PlaceHeroArgs(CommandArgs):
    hero: str | None = None
    how: str | None = None
    to: str | None = None


class TargetEnemyArgs(CommandArgs):
    hero: str | None = None
    enemy: str | None = None
    poison: int = 0


class TakeWoundArgs(CommandArgs):
    hero: str | None = None
    count: int = 1


class EndTurnArgs(CommandArgs):
    hero: str | None = None
    channel: bool = False
