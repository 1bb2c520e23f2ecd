"""Direwild content kinds: land boards, minions, AI cards, Karn and his cards.

Abilities and hit effects use a small declarative vocabulary (`Effect`) so the rules can
run them; anything the vocabulary cannot say is carried as `text` and shown to the table
as a prompt instead of being guessed at.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Literal

import msgspec

from companion.content.schema import Item
from companion.core.rules import DIE_PROFILES
from companion.games.direwild.board import check_board

if TYPE_CHECKING:
    from companion.content.pack import Content

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


def _says(title: str, *labels: str, more: bool = False) -> msgspec.Meta:
    """The card editor's words for a field (the rulebook's), its choices' words in the
    order the schema lists them, and `more`: printed on a few cards only."""
    extra: dict[str, object] = {"labels": labels} if labels else {}
    if more:
        extra["more"] = True
    return msgspec.Meta(title=title, extra=extra or None)


EFFECT_WORDS = (
    "Poison",
    "Rage",
    "Reset stamina",
    "Knockback",
    "Wound",
    "Fatal Wound",
    "Eat the hero",
    "Teleport",
    "Activate a minion",
    "Read the card",
)
TARGET_WORDS = ("The hero", "All heroes", "Heroes who damaged it", "Itself")


class Effect(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """One thing a unit does to another.

    `roll`/`hits`: roll that die first and only do it on one of those values ("Roll a d6,
    1-4: reset loser's stamina").  `scale: minions` multiplies `amount` by the minions
    still on the board (Karn's counterattacks).
    """

    kind: Annotated[EffectKind, _says("Effect", *EFFECT_WORDS)]
    amount: Annotated[int, _says("Amount")] = 1
    target: Annotated[Target, _says("Target", *TARGET_WORDS)] = "hero"
    roll: Annotated[str | None, _says("Roll a die first", more=True)] = None
    hits: Annotated[list[int], _says("Only on a roll of", more=True)] = msgspec.field(
        default_factory=list
    )
    scale: Annotated[Literal["minions"] | None, _says("Per minion on the board", more=True)] = None
    # "d3 poison", "d6 knockback": roll this die for the amount
    die: Annotated[str | None, _says("Die for the amount", more=True)] = None
    level: Annotated[int | None, _says("Minion level", more=True)] = None
    text: Annotated[str, _says("Card text", more=True)] = ""


class Ability(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    when: Annotated[
        Literal["revealed", "damaged", "defeated", "passive"],
        _says("When", "When revealed", "When damaged", "When defeated", "Passive"),
    ]
    text: Annotated[str, _says("Ability text")] = ""
    effects: Annotated[list[Effect], _says("Effects")] = msgspec.field(default_factory=list)


class Minion(Item):
    level: Annotated[int | Literal["acolyte"], _says("Level")]
    attack: Annotated[int, _says("Attack")]
    hp: Annotated[int, _says("Hit points")]
    hit_effects: Annotated[list[Effect], _says("Hit effects")] = msgspec.field(default_factory=list)
    abilities: Annotated[list[Ability], _says("Abilities")] = msgspec.field(default_factory=list)
    attacks_flying: Annotated[bool, _says("Attacks flying heroes", more=True)] = False
    # Its ability reveals treasure cards, and a Treasure Monster it reveals wins at once
    # (Book 1, Minion Cards: "Gryk - ... If a Treasure Monster is revealed, you
    # automatically lose to it.").
    treasure_monster_wins: Annotated[
        bool, _says("A Treasure Monster it reveals wins", more=True)
    ] = False


class AiAction(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """One line of an Enemy AI card, run top to bottom."""

    do: Annotated[
        Literal["karn", "activate", "rage", "move"],
        _says("Action", "Move Karn", "Activate a minion", "Enemies gain a rage", "Move"),
    ]
    move: Annotated[int, _says("Move")] = 0
    # turn-order position of the hero active minions go for
    priority: Annotated[int | None, _says("Priority to player")] = None


class AiCard(Item):
    deck: Annotated[Literal["normal", "hardcore"], _says("Deck", "Normal", "Hardcore")]
    actions: Annotated[list[AiAction], _says("Actions")]


class Karn(Item):
    attack: Annotated[int, _says("Attack")]
    # squares on the Hunting Track, the altar being the last
    track_length: Annotated[int, _says("Hunting Track squares")]
    hit_effects: Annotated[list[Effect], _says("Hit effects")] = msgspec.field(default_factory=list)


class KarnCard(Item):
    counterattack: Annotated[list[Effect], _says("Counterattack")] = msgspec.field(
        default_factory=list
    )
    text: Annotated[str, _says("Card text")] = ""


class Board(Item):
    """A land board as a player transcribes it: squares are `C4`, A1 top left."""

    land: Annotated[
        Literal["redmill", "blightwood", "dungeon"],
        _says("Land", "Redmill", "Blightwood", "Dungeon"),
    ]
    size: Annotated[str, _says("Size")]  # columns x rows, "12x12"
    entrance: Annotated[list[str], _says("Entrance squares")]
    altar: Annotated[str, _says("Karn's altar")]
    combat_square: Annotated[dict[str, int], _says("Combat square")]  # left/up/right/down: 1-4
    spawns: Annotated[dict[str, str], _says("Spawn squares")] = msgspec.field(default_factory=dict)
    treasures: Annotated[list[str], _says("Treasure squares")] = msgspec.field(default_factory=list)
    walls: Annotated[list[str], _says("Walls")] = msgspec.field(default_factory=list)
    trails: Annotated[dict[str, list[str]], _says("Foot trails")] = msgspec.field(
        default_factory=dict
    )


CONTENT_KINDS: dict[str, type[Item]] = {
    "boards": Board,
    "minions": Minion,
    "ai_cards": AiCard,
    "karn": Karn,
    "karn_cards": KarnCard,
}


def validate_content(content: Content) -> list[tuple[str, str]]:
    """Cross-checks a schema alone cannot make (a board's squares and walls, an AI card's
    priority, effects that name a die), worded for whoever edits the YAML."""
    out = []
    for board in content.all("boards"):
        out += [(board.id, f"board: {p}") for p in check_board(board)]
    for card in content.all("ai_cards"):
        for a in card.actions:
            if a.do == "move" and a.move <= 0:
                out.append((card.id, "a move action needs move: N (1 or more)"))
            if a.priority is not None and not 1 <= a.priority <= 4:
                out.append((card.id, "priority names a turn-order position, 1 to 4"))
    for m in content.all("minions"):
        if m.hp <= 0:
            out.append((m.id, "hp must be 1 or more"))
        effects = [*m.hit_effects, *(e for a in m.abilities for e in a.effects)]
        out += [(m.id, p) for p in effect_problems(effects)]
    for k in [*content.all("karn"), *content.all("karn_cards")]:
        effects = getattr(k, "hit_effects", None) or getattr(k, "counterattack", [])
        out += [(k.id, p) for p in effect_problems(effects)]
        if getattr(k, "track_length", 2) < 2:
            out.append((k.id, "the Hunting Track needs at least 2 squares"))
    return out


def effect_problems(effects: list[Effect]) -> list[str]:
    out = []
    for e in effects:
        if e.roll is not None:
            faces = DIE_PROFILES.get(e.roll)
            if faces is None:
                out.append(f"roll '{e.roll}' is not a die ({', '.join(DIE_PROFILES)})")
            elif not e.hits or any(v not in faces for v in e.hits):
                out.append(
                    f"a {e.roll} roll needs hits: the faces it happens on ({faces[0]}-{faces[-1]})"
                )
        if e.die is not None and e.die not in DIE_PROFILES:
            out.append(f"die '{e.die}' is not a die ({', '.join(DIE_PROFILES)})")
        if e.amount < 0:
            out.append(f"{e.kind} amount must be 0 or more")
    return out
