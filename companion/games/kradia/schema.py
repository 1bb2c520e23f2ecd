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


def _words(*choices: str) -> object:
    """A word from a fixed list: the card editor offers the list to pick from (the
    content check still says which words are known)."""
    return msgspec.Meta(extra={"choices": choices})


Target = Annotated[str, _words(*TARGETS)]
Ailment = Annotated[str, _words(*AILMENTS)]
Cure = Annotated[str, _words(*AILMENTS, *CURE_GROUPS)]
State = Annotated[str, _words(*STATES)]
Condition = Annotated[str, _words(*CONDITIONS)]
Lasts = Annotated[str, _words(*LASTS)]
Symbol = Annotated[str, _words(*SYMBOLS)]
HeroAction = Annotated[str, _words(*ACTIONS)]


class Effect(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """One line of a card: what happens to `target`.  Fields apply in the order listed.

    Real cards also take Mana away (`lose_red`, `lose_blue`), strip buffs and states
    (`remove`), land only on a hero in (or free of) a state (`only_if`, `unless`), let the
    players choose one of several outcomes (`either`: asked of the table, never guessed),
    and, on a battlefield space, hold for the round (`lasts: round`; see battlefield.py).
    """

    target: Target = "self"
    damage: int = 0
    heal: int = 0
    red: int = 0
    blue: int = 0
    enhance: int = 0
    attack_buff: int = 0
    evasion: bool = False
    stun: bool = False
    ailments: list[Ailment] = []
    cure: list[Cure] = []
    restore: int = 0  # a Fading target comes back with this many HP (Elixir and the like)
    lose_red: int = 0
    lose_blue: int = 0
    remove: list[State] = []  # of STATES: an Attack Buff, Evasion, a stun
    only_if: list[Condition] = []  # of CONDITIONS: the line lands only on a hero in all of them
    unless: list[Condition] = []  # of CONDITIONS: ... and in none of these
    either: list[Choice] = []  # the players choose one; its lines resolve in this line's place
    lasts: Lasts = "once"  # once | round (battlefield spaces: held until the round is over)
    text: str = ""


class Choice(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """One outcome of an either/or line, named as the card words it."""

    label: str
    effects: list[Effect]


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
    level: int | Literal["challenge"]  # 1-4, or the Challenge boss
    hp: int
    dice: list[DiceBand]
    chart: list[ChartRow]
    overdrive: Overdrive | None = None
    rage: Rage
    attack_buff_max: int = 0  # 0: this boss has no Attack Buff track
    extras: list[str] = []  # names of the boss's Extra cards (placed beside the board)
    extra_cards: list[ExtraCard] = []  # the Extra cards whose effects the app resolves


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
    constitution: list[Ailment] = []  # ailments this hero is never affected by
    skills: list[Skill]
    level3: dict[str, list[Skill]]  # the Level 3 Skill card: side name -> skills it shows
    charge: list[ChargeSlot]
    charge_level4: list[ChargeSlot]


class ItemCard(Item, kw_only=True):
    effects: list[Effect]


class Retainer(Item, kw_only=True):
    effects: list[Effect]


class BattlefieldCard(Item, kw_only=True):
    symbol: Symbol


class BattlefieldSpace(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """A space of a column, reached by the symbols revealed since the marker went to the
    top: `[moon]` is the Moon column's top, `[moon, sun]` the space below it for Sun."""

    path: list[Symbol]
    name: str = ""
    effects: list[Effect] = []  # applied once, when the marker arrives
    forbid: list[HeroAction] = []  # actions no hero may take this round


class BattlefieldBoard(Item, kw_only=True):
    cards: list[Annotated[str, card_of("battlefield_cards")]]
    spaces: list[BattlefieldSpace]


class StorySequence(Item, kw_only=True):
    bosses: list[Annotated[str, card_of("bosses")]]  # Level 1 to Level 4


CONTENT_KINDS: dict[str, type] = {
    "bosses": Boss,
    "heroes": Hero,
    "items": ItemCard,
    "retainers": Retainer,
    "battlefield_boards": BattlefieldBoard,
    "battlefield_cards": BattlefieldCard,
    "story_sequences": StorySequence,
}
