"""Kradia content: bosses, heroes, items, retainers, the battlefield board and its cards.

Every card effect is written in one small declarative vocabulary (`Effect`) so a boss's
attack chart, a hero's skill, an item and a battlefield space are all applied by the same
code, and a new pack never needs new rules.
"""

from __future__ import annotations

import msgspec

from companion.content.schema import Item

PHYSICAL = ("poison", "blind", "paralyze")
MENTAL = ("sleep", "confusion", "fear")
AILMENTS = PHYSICAL + MENTAL
CURE_GROUPS = ("all", "physical", "mental")
SYMBOLS = ("sun", "moon", "star")
ACTIONS = ("basic_attack", "charge_attack", "skill", "item")

# Who an effect lands on.  Boss-side targets follow the attack chart's symbols.
TARGETS = (
    "self",  # the hero using the skill or item
    "ally",  # a hero the player names (`target`)
    "boss",
    "all",  # every hero
    "start_player",  # the hero holding the First Player token
    "second",  # [2nd]: the second hero in the turn order able to be hit
    "others",  # [etc]: the three heroes without the First Player token
)


class Effect(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """One line of a card: what happens to `target`.  Fields apply in the order listed."""

    target: str = "self"
    damage: int = 0
    heal: int = 0
    red: int = 0
    blue: int = 0
    enhance: int = 0
    attack_buff: int = 0
    evasion: bool = False
    stun: bool = False
    ailments: list[str] = []
    cure: list[str] = []
    restore: int = 0  # a Fading target comes back with this many HP (Elixir and the like)
    text: str = ""


class DiceBand(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """Boss HP spaces at or below `hp_at_most` (down to the next band) show `dice` diamonds."""

    hp_at_most: int
    dice: int


class ChartRow(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """An attack chart row: a dice sum from `min` to `max` activates `effects`."""

    min: int
    max: int
    effects: list[Effect]


class Overdrive(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    hp_at_most: int
    effects: list[Effect]


class Rage(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    length: int
    effects: list[Effect]


class Boss(Item, kw_only=True):
    level: int | str  # 1-4, or "challenge"
    hp: int
    dice: list[DiceBand]
    chart: list[ChartRow]
    overdrive: Overdrive | None = None
    rage: Rage
    attack_buff_max: int = 0  # 0: this boss has no Attack Buff track
    extras: list[str] = []  # names of the boss's Extra cards (placed beside the board)


class SkillLevel(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """A skill as printed for heroes of `level` and up (until a higher entry)."""

    level: int
    red: int = 0
    blue: int = 0
    effects: list[Effect]


class Skill(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    id: str  # short slug, unique within the hero
    name: str = ""
    levels: list[SkillLevel]


class ChargeSlot(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    roll: int  # Charge Attack #1-#6
    effects: list[Effect]


class Hero(Item, kw_only=True):
    hp: int
    red_max: int
    blue_max: int
    constitution: list[str] = []  # ailments this hero is never affected by
    skills: list[Skill]
    level3: dict[str, list[Skill]]  # the Level 3 Skill card: side name -> skills it shows
    charge: list[ChargeSlot]
    charge_level4: list[ChargeSlot]


class ItemCard(Item, kw_only=True):
    effects: list[Effect]


class Retainer(Item, kw_only=True):
    effects: list[Effect]


class BattlefieldCard(Item, kw_only=True):
    symbol: str


class BattlefieldSpace(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """A space of a column, reached by the symbols revealed since the marker went to the
    top: `[moon]` is the Moon column's top, `[moon, sun]` the space below it for Sun."""

    path: list[str]
    name: str = ""
    effects: list[Effect] = []  # applied once, when the marker arrives
    forbid: list[str] = []  # actions no hero may take this round


class BattlefieldBoard(Item, kw_only=True):
    cards: list[str]
    spaces: list[BattlefieldSpace]


class StorySequence(Item, kw_only=True):
    bosses: list[str]  # Level 1 to Level 4


CONTENT_KINDS: dict[str, type] = {
    "bosses": Boss,
    "heroes": Hero,
    "items": ItemCard,
    "retainers": Retainer,
    "battlefield_boards": BattlefieldBoard,
    "battlefield_cards": BattlefieldCard,
    "story_sequences": StorySequence,
}
