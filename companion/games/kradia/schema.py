"""Kradia content: bosses, heroes, items, retainers, the battlefield board and its cards.

Every card effect is written in one small declarative vocabulary (`Effect`) so a boss's
attack chart, a hero's skill, an item and a battlefield space are all applied by the same
code, and a new pack never needs new rules.  Below the kinds, the cross-checks a schema
cannot express, which a pack must pass to load.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import permutations
from typing import TYPE_CHECKING, Annotated, Literal

import msgspec

from companion.content.schema import Item, card_of

if TYPE_CHECKING:
    from companion.content.pack import Content

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


# -- cross-checks a schema cannot express: charts that cover every sum, charge tables 1-6,
# a battlefield board with a space for every way the cards can come up, known ailments.

Problems = Iterator[tuple[str, str]]


def _effects(item_id: str, where: str, effects: list[Effect], allowed: tuple[str, ...]) -> Problems:
    for e in effects:
        if e.target not in TARGETS:
            yield item_id, f"{where}: unknown target '{e.target}' (known: {', '.join(TARGETS)})"
        elif e.target not in allowed:
            yield (
                item_id,
                f"{where}: target '{e.target}' cannot be used here "
                f"(use one of: {', '.join(allowed)})",
            )
        for a in e.ailments:
            if a not in AILMENTS:
                yield item_id, f"{where}: unknown ailment '{a}' (known: {', '.join(AILMENTS)})"
        for c in e.cure:
            if c not in AILMENTS + CURE_GROUPS:
                yield item_id, f"{where}: cannot cure '{c}'"
        amounts = ("damage", "heal", "red", "blue", "enhance", "attack_buff", "restore")
        for field in (*amounts, "lose_red", "lose_blue"):
            if getattr(e, field) < 0:
                yield item_id, f"{where}: {field} must not be negative"
        for r in e.remove:
            if r not in STATES:
                yield item_id, f"{where}: cannot remove '{r}' (known: {', '.join(STATES)})"
        for c in (*e.only_if, *e.unless):
            if c not in CONDITIONS:
                yield item_id, f"{where}: unknown state '{c}' (known: {', '.join(CONDITIONS)})"
        if e.lasts not in LASTS:
            yield item_id, f"{where}: lasts is once or round, not '{e.lasts}'"
        if e.either:
            labels = [c.label for c in e.either]
            if len(e.either) < 2 or len(set(labels)) != len(labels):
                yield item_id, f"{where}: either needs 2 or more choices with different labels"
            if e.lasts == "round":
                yield item_id, f"{where}: an either/or line cannot last the round"
            for choice in e.either:
                yield from _effects(
                    item_id, f"{where} choice '{choice.label}'", choice.effects, allowed
                )


BOSS_SIDE = ("boss", "all", "start_player", "second", "others")
HERO_SIDE = ("self", "ally", "boss", "all", "others", "start_player", "second")
TABLE_SIDE = ("ally", "boss", "all", "start_player", "second", "others")


def _boss(b: Boss) -> Problems:
    if b.level not in (1, 2, 3, 4, "challenge"):
        yield b.id, "level must be 1, 2, 3, 4 or challenge"
    if b.hp < 1:
        yield b.id, "hp must be at least 1"
    if not b.dice or max(x.hp_at_most for x in b.dice) < b.hp:
        yield b.id, f"dice: every HP space up to {b.hp} needs a dice count"
    if any(x.dice < 1 for x in b.dice):
        yield b.id, "dice: each HP space shows at least 1 die"
    counts = [x.dice for x in b.dice] or [1]
    covered: dict[int, int] = {}
    for i, row in enumerate(b.chart):
        yield from _effects(b.id, f"chart row {i + 1}", row.effects, BOSS_SIDE)
        for n in range(row.min, row.max + 1):
            if n in covered:
                yield b.id, f"chart rows {covered[n] + 1} and {i + 1} both cover a sum of {n}"
            covered[n] = i
    for n in range(min(counts), 6 * max(counts) + 1):
        if n not in covered:
            yield b.id, f"chart: no row for a dice sum of {n}"
            break
    if b.overdrive is not None:
        yield from _effects(b.id, "overdrive", b.overdrive.effects, BOSS_SIDE)
    if b.rage.length < 1:
        yield b.id, "rage length must be at least 1"
    yield from _effects(b.id, "rage", b.rage.effects, BOSS_SIDE)
    seen: set[str] = set()
    for x in b.extra_cards:
        if x.id in seen:
            yield b.id, f"Extra card '{x.id}' twice"
        seen.add(x.id)
        if x.when not in EXTRA_WHEN:
            yield b.id, f"Extra card {x.name}: when must be one of {', '.join(EXTRA_WHEN)}"
        allowed = TABLE_SIDE if x.when == "table" else BOSS_SIDE
        yield from _effects(b.id, f"Extra card {x.name}", x.effects, allowed)


def _hero(h: Hero) -> Problems:
    for a in h.constitution:
        if a not in AILMENTS:
            yield h.id, f"constitution: unknown ailment '{a}'"
    if len(h.level3) != 2:
        yield h.id, "level3: the Level 3 Skill card has two sides (name both)"
    groups = [("skills", h.skills)] + [(f"level3 side {k}", v) for k, v in h.level3.items()]
    for where, skills in groups:
        seen = set()
        for sk in skills:
            if sk.id in seen:
                yield h.id, f"{where}: skill '{sk.id}' twice"
            seen.add(sk.id)
            for entry in sk.levels:
                if not 1 <= entry.level <= 4:
                    yield h.id, f"{where} {sk.id}: level must be 1 to 4"
                yield from _effects(h.id, f"{where} {sk.id}", entry.effects, HERO_SIDE)
    for where, slots in (("charge", h.charge), ("charge_level4", h.charge_level4)):
        rolls = sorted(s.roll for s in slots)
        if rolls != [1, 2, 3, 4, 5, 6]:
            yield h.id, f"{where}: needs exactly one entry for each roll 1 to 6"
        for s in slots:
            yield from _effects(h.id, f"{where} #{s.roll}", s.effects, HERO_SIDE)


def _board(b: BattlefieldBoard, content: Content) -> Problems:
    symbols = []
    for card in b.cards:
        c = content.find("battlefield_cards", card)
        if c is None:
            yield b.id, f"no battlefield card '{card}'"
            return
        symbols.append(c.symbol)
    if len(b.cards) != 3 or len(set(symbols)) != 3:
        yield b.id, "a Battlefield board has 3 cards with 3 different symbols"
        return
    paths = {tuple(s.path) for s in b.spaces}
    missing: list[tuple[str, ...]] = []  # each once: "sun" starts two orders
    for order in permutations(symbols):
        for n in (1, 2, 3):
            if order[:n] not in paths and order[:n] not in missing:
                missing.append(order[:n])
    if missing:  # one problem, each order once: 14 lines saying the same would bury it
        orders = "; ".join(" > ".join(path) for path in sorted(missing, key=len))
        yield b.id, f"no space for the cards coming up {orders}"
    for s in b.spaces:
        yield from _effects(b.id, f"space {'>'.join(s.path)}", s.effects, TABLE_SIDE)
        for e in s.effects:
            held = e.lasts == "round" and e.target == "boss"
            if held and any(getattr(e, a) for a in ("damage", "heal")):
                yield (
                    b.id,
                    (
                        f"space {'>'.join(s.path)}: a line aimed at the boss for the round "
                        "can only hold its Attack Buff"
                    ),
                )
        for f in s.forbid:
            if f not in ACTIONS:
                yield b.id, f"space {'>'.join(s.path)}: cannot forbid '{f}'"


def validate_content(content: Content) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for b in content.all("bosses"):
        out += _boss(b)
    for h in content.all("heroes"):
        out += _hero(h)
    for c in content.all("battlefield_cards"):
        if c.symbol not in SYMBOLS:
            out.append((c.id, f"symbol must be one of {', '.join(SYMBOLS)}"))
    for b in content.all("battlefield_boards"):
        out += _board(b, content)
    for kind in ("items", "retainers"):
        for it in content.all(kind):
            allowed = HERO_SIDE if kind == "items" else TABLE_SIDE
            out += _effects(it.id, kind[:-1], it.effects, allowed)
    for q in content.all("story_sequences"):
        if len(q.bosses) != 4:
            out.append((q.id, "a story sequence has 4 bosses, Level 1 to 4"))
        for level, boss_id in enumerate(q.bosses, 1):
            boss = content.find("bosses", boss_id)
            if boss is None:
                out.append((q.id, f"no boss '{boss_id}'"))
            elif boss.level != level:
                out.append((q.id, f"{boss_id} is Level {boss.level}, listed as Level {level}"))
    return out
