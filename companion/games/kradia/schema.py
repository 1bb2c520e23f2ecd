"""Kradia content: bosses, heroes, items, retainers, the battlefield board and its cards.

Every card effect is written in one small declarative vocabulary (`Effect`) so a boss's
attack chart, a hero's skill, an item and a battlefield space are all applied by the same
code, and a new pack never needs new rules.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from companion.content.schema import Item, card_of

PHYSICAL = ("poison", "blind", "paralyze")
MENTAL = ("sleep", "confusion", "fear")
AILMENTS = PHYSICAL + MENTAL
CURE_GROUPS = ("all", "physical", "mental")
SYMBOLS = ("sun", "moon", "star")
ACTIONS = ("basic_attack", "charge_attack", "skill", "item")
# States a line can take away (`remove`) or test for (`only_if`, `unless`), beside the ailments.
STATES = ("attack_buff", "evasion", "stun")
CONDITIONS = AILMENTS + STATES + ("fading",)
LASTS = ("once", "round")

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


def _words(*choices: str, labels: tuple[str, ...] = (), title: str = "") -> object:
    """A word from a fixed list: the card editor offers the list to pick from (the
    content check still says which words are known), by the words the rulebook prints."""
    return msgspec.Meta(title=title or None, extra={"choices": choices, "labels": labels})


def _says(title: str, more: bool = False) -> msgspec.Meta:
    """The card editor's name for a field (the rulebook's), and `more`: printed on a few
    cards only (folded under "More" until it holds something)."""
    return msgspec.Meta(title=title, extra={"more": True} if more else None)


TARGET_WORDS = ("Self", "Ally", "Boss", "All heroes", "Start Player", "2nd", "Etc")
Target = Annotated[str, _words(*TARGETS, labels=TARGET_WORDS)]
Ailment = Annotated[str, _words(*AILMENTS, title="Ailment")]
Cure = Annotated[str, _words(*AILMENTS, *CURE_GROUPS, title="Cure")]
State = Annotated[str, _words(*STATES, title="State")]
Condition = Annotated[str, _words(*CONDITIONS, title="State")]
Lasts = Annotated[str, _words(*LASTS, labels=("Once", "The round"))]
Symbol = Annotated[str, _words(*SYMBOLS, title="Symbol")]
HeroAction = Annotated[str, _words(*ACTIONS, title="Action")]


class Effect(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """One line of a card: what happens to `target`.  Fields apply in the order listed.

    Real cards also take Mana away (`lose_red`, `lose_blue`), strip buffs and states
    (`remove`), land only on a hero in (or free of) a state (`only_if`, `unless`), let the
    players choose one of several outcomes (`either`: asked of the table, never guessed),
    and, on a battlefield space, hold for the round (`lasts: round`; see battlefield.py).
    """

    target: Annotated[Target, _says("Target")] = "self"
    damage: Annotated[int, _says("Damage")] = 0
    heal: Annotated[int, _says("Heal HP")] = 0
    ailments: Annotated[list[Ailment], _says("Ailments")] = []
    red: Annotated[int, _says("Red Mana", more=True)] = 0
    blue: Annotated[int, _says("Blue Mana", more=True)] = 0
    enhance: Annotated[int, _says("Enhance", more=True)] = 0
    attack_buff: Annotated[int, _says("Attack Buff", more=True)] = 0
    evasion: Annotated[bool, _says("Evasion", more=True)] = False
    stun: Annotated[bool, _says("Stun", more=True)] = False
    cure: Annotated[list[Cure], _says("Cure", more=True)] = []
    # a Fading target comes back with this many HP (Elixir and the like)
    restore: Annotated[int, _says("Restore a Fading hero to HP", more=True)] = 0
    lose_red: Annotated[int, _says("Lose Red Mana", more=True)] = 0
    lose_blue: Annotated[int, _says("Lose Blue Mana", more=True)] = 0
    # of STATES: an Attack Buff, Evasion, a stun
    remove: Annotated[list[State], _says("Remove", more=True)] = []
    # of CONDITIONS: the line lands only on a hero in all of them ... and in none of `unless`
    only_if: Annotated[list[Condition], _says("Only if the hero has", more=True)] = []
    unless: Annotated[list[Condition], _says("Unless the hero has", more=True)] = []
    # the players choose one; its lines resolve in this line's place
    either: Annotated[list[Choice], _says("Either (the players choose)", more=True)] = []
    # once | round (battlefield spaces: held until the round is over)
    lasts: Annotated[Lasts, _says("Lasts", more=True)] = "once"
    text: Annotated[str, _says("Card text", more=True)] = ""


class Choice(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """One outcome of an either/or line, named as the card words it."""

    label: Annotated[str, _says("Choice")]
    effects: Annotated[list[Effect], _says("Effects")]


class DiceBand(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """Boss HP spaces at or below `hp_at_most` (down to the next band) show `dice` diamonds."""

    hp_at_most: Annotated[int, _says("From HP")]
    dice: Annotated[int, _says("Attack dice")]


class ChartRow(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """An attack chart row: a dice sum from `min` to `max` activates `effects`."""

    min: Annotated[int, _says("Sum from")]
    max: Annotated[int, _says("Sum to")]
    effects: Annotated[list[Effect], _says("Effects")]


class Overdrive(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    hp_at_most: Annotated[int, _says("At HP or less")]
    effects: Annotated[list[Effect], _says("Effects")]


class Rage(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    length: Annotated[int, _says("Rage track spaces")]
    effects: Annotated[list[Effect], _says("Rage effect")]


class Boss(Item, kw_only=True):
    level: Annotated[int | Literal["challenge"], _says("Boss level")]  # 1-4, or Challenge
    hp: Annotated[int, _says("HP")]
    dice: Annotated[list[DiceBand], _says("Attack dice")]
    chart: Annotated[list[ChartRow], _says("Attack chart")]
    overdrive: Annotated[Overdrive | None, _says("Overdrive")] = None
    rage: Annotated[Rage, _says("Rage")]
    # 0: this boss has no Attack Buff track
    attack_buff_max: Annotated[int, _says("Attack Buff track", more=True)] = 0
    # names of the boss's Extra cards (placed beside the board)
    extras: Annotated[list[str], _says("Extra card names", more=True)] = []
    # the Extra cards whose effects the app resolves
    extra_cards: Annotated[list[ExtraCard], _says("Extra cards", more=True)] = []


EXTRA_WHEN = ("battle_start", "round_start", "boss_attack", "rage", "table")


class ExtraCard(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """A boss's Extra card.  `when` is the moment the card names: the start of the battle or
    of each round, after each boss attack or rage effect (resolved by the app), or `table`:
    the card says when, and the players resolve it from the list of what may be done now."""

    id: str  # short slug, unique within the boss
    name: str
    when: str = "table"
    once: bool = False  # discarded after it resolves
    effects: list[Effect] = []
    text: str = ""


class SkillLevel(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """A skill as printed for heroes of `level` and up (until a higher entry)."""

    level: Annotated[int, _says("From hero level")]
    red: Annotated[int, _says("Red Mana cost")] = 0
    blue: Annotated[int, _says("Blue Mana cost")] = 0
    effects: Annotated[list[Effect], _says("Effects")]


class Skill(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    id: str  # short slug, unique within the hero
    name: Annotated[str, _says("Skill name")] = ""
    levels: Annotated[list[SkillLevel], _says("Levels")]


class ChargeSlot(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    roll: Annotated[int, _says("Charge Attack #")]  # Charge Attack #1-#6
    effects: Annotated[list[Effect], _says("Effects")]


class Hero(Item, kw_only=True):
    hp: Annotated[int, _says("HP")]
    red_max: Annotated[int, _says("Red Mana track")]
    blue_max: Annotated[int, _says("Blue Mana track")]
    # ailments this hero is never affected by
    constitution: Annotated[list[Ailment], _says("Constitution: never affected by")] = []
    skills: Annotated[list[Skill], _says("Skills")]
    # the Level 3 Skill card: side name -> skills it shows
    level3: Annotated[dict[str, list[Skill]], _says("Level 3 Skill card")]
    charge: Annotated[list[ChargeSlot], _says("Charge Attack")]
    charge_level4: Annotated[list[ChargeSlot], _says("Level 4 Charge Attack")]


class ItemCard(Item, kw_only=True):
    effects: Annotated[list[Effect], _says("Effects")]


class Retainer(Item, kw_only=True):
    effects: Annotated[list[Effect], _says("Effects")]


class BattlefieldCard(Item, kw_only=True):
    symbol: Annotated[Symbol, _says("Symbol")]


class BattlefieldSpace(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """A space of a column, reached by the symbols revealed since the marker went to the
    top: `[moon]` is the Moon column's top, `[moon, sun]` the space below it for Sun."""

    path: Annotated[list[Symbol], _says("Symbols from the top")]
    name: Annotated[str, _says("Space name")] = ""
    # applied once, when the marker arrives
    effects: Annotated[list[Effect], _says("Effects")] = []
    # actions no hero may take this round
    forbid: Annotated[list[HeroAction], _says("Actions no hero may take")] = []


class BattlefieldBoard(Item, kw_only=True):
    cards: Annotated[list[Annotated[str, card_of("battlefield_cards")]], _says("Battlefield cards")]
    spaces: Annotated[list[BattlefieldSpace], _says("Spaces")]


class StorySequence(Item, kw_only=True):
    # Level 1 to Level 4
    bosses: Annotated[
        list[Annotated[str, card_of("bosses")]],
        msgspec.Meta(title="Bosses", description="Level 1 to Level 4, in order"),
    ]


CONTENT_KINDS: dict[str, type] = {
    "bosses": Boss,
    "heroes": Hero,
    "items": ItemCard,
    "retainers": Retainer,
    "battlefield_boards": BattlefieldBoard,
    "battlefield_cards": BattlefieldCard,
    "story_sequences": StorySequence,
}
