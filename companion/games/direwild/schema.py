"""Direwild content kinds: land boards, minions, AI cards, Karn and his cards.

Abilities and hit effects use a small declarative vocabulary (`Effect`) so the rules can
run them; anything the vocabulary cannot say is carried as `text` and shown to the table
as a prompt instead of being guessed at.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from companion.content.schema import Item

EffectKind = Literal[
    "poison",  # target's stamina down `amount`
    "rage",  # target's stamina up `amount`
    "reset_stamina",  # target's stamina back to 0
    "knockback",  # push the target `amount` squares directly away from the source
    "wound",  # `amount` regular (non-fatal) wounds into the target's discard
    "fatal_wound",  # a Fatal Wound from the pile into the target's discard
    "eat",  # the Chuddle swallows the hero
    "teleport",  # the source appears next to the target hero
    "activate",  # the earliest idle minion of `level` becomes active (Glug)
    "prompt",  # nothing automated: show `text` to the players
]
Target = Literal["hero", "all_heroes", "damagers", "self"]


class Effect(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """One thing a unit does to another.

    `roll`/`hits`: roll that die first and only do it on one of those values ("Roll a d6,
    1-4: reset loser's stamina").  `scale: minions` multiplies `amount` by the minions
    still on the board (Karn's counterattacks).
    """

    kind: EffectKind
    amount: int = 1
    target: Target = "hero"
    roll: str | None = None
    hits: list[int] = msgspec.field(default_factory=list)
    scale: Literal["minions"] | None = None
    die: str | None = None  # "d3 poison", "d6 knockback": roll this die for the amount
    level: int | None = None
    text: str = ""


class Ability(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    when: Literal["revealed", "damaged", "defeated", "passive"]
    text: str = ""
    effects: list[Effect] = msgspec.field(default_factory=list)


class Minion(Item):
    level: int | Literal["acolyte"]
    attack: int
    hp: int
    hit_effects: list[Effect] = msgspec.field(default_factory=list)
    abilities: list[Ability] = msgspec.field(default_factory=list)
    attacks_flying: bool = False
    # Its ability reveals treasure cards, and a Treasure Monster it reveals wins at once
    # (Book 1, Minion Cards: "Gryk - ... If a Treasure Monster is revealed, you
    # automatically lose to it.").
    treasure_monster_wins: bool = False


class AiAction(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """One line of an Enemy AI card, run top to bottom."""

    do: Literal["karn", "activate", "rage", "move"]
    move: int = 0
    priority: int | None = None  # turn-order position of the hero active minions go for


class AiCard(Item):
    deck: Literal["normal", "hardcore"]
    actions: list[AiAction]


class Karn(Item):
    attack: int
    track_length: int  # squares on the Hunting Track, the altar being the last
    hit_effects: list[Effect] = msgspec.field(default_factory=list)


class KarnCard(Item):
    counterattack: list[Effect] = msgspec.field(default_factory=list)
    text: str = ""


class Board(Item):
    """A land board as a player transcribes it: squares are `C4`, A1 top left."""

    land: Literal["redmill", "blightwood", "dungeon"]
    size: str  # columns x rows, "12x12"
    entrance: list[str]
    altar: str
    combat_square: dict[str, int]  # left/up/right/down -> 1..4
    spawns: dict[str, str] = msgspec.field(default_factory=dict)
    treasures: list[str] = msgspec.field(default_factory=list)
    walls: list[str] = msgspec.field(default_factory=list)
    trails: dict[str, list[str]] = msgspec.field(default_factory=dict)


CONTENT_KINDS: dict[str, type[Item]] = {
    "boards": Board,
    "minions": Minion,
    "ai_cards": AiCard,
    "karn": Karn,
    "karn_cards": KarnCard,
}
