"""Setting up a battle: heroes, boss, battlefield, items and retainers (rulebook "Setup")."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from companion.core.rules import RuleError
from companion.games.kradia import content as cards
from companion.games.kradia.house import house_from
from companion.games.kradia.schema import Boss, Hero
from companion.games.kradia.state import Battlefield, BossState, HeroState, KradiaState

if TYPE_CHECKING:
    from companion.content.pack import Content

PREFIX = {
    "heroes": "hero",
    "bosses": "boss",
    "items": "item",
    "retainers": "retainer",
    "battlefield_boards": "battlefield-board",
    "battlefield_cards": "battlefield-card",
    "story_sequences": "story",
}


def ref(content: Content, kind: str, value: object, what: str) -> str:
    """A content id from a full id or its short name (the part after the last slash)."""
    ids = content.ids(kind)
    known = ", ".join(i.rsplit("/", 1)[-1] for i in ids) or "none loaded"
    if value is None or value == "":
        raise RuleError(f"say which {what} (one of: {known})")
    text = str(value)
    for candidate in (text, f"kradia/{PREFIX[kind]}/{text}"):
        if candidate in ids:
            return candidate
    raise RuleError(f"there is no {what} '{text}' (known: {known})")


def slug(item_id: str) -> str:
    return item_id.rsplit("/", 1)[-1]


def boss_state(boss: Boss) -> BossState:
    return BossState(
        id=boss.id,
        hp=boss.hp,
        max_hp=boss.hp,
        rage_max=boss.rage.length,
        attack_buff_max=boss.attack_buff_max,
    )


def check_boss_level(boss: Boss, mode: str, level: int) -> None:
    if mode == "challenge":
        if boss.level != "challenge":
            raise RuleError(f"{boss.title} is a Level {boss.level} boss, not a Challenge boss")
    elif boss.level != level:
        raise RuleError(
            f"{boss.title} is a Level {boss.level} boss; the heroes are Level {level} "
            "(the boss's level must match the heroes')"
        )


def challenge_bosses(content: Content) -> list[str]:
    return [b.id for b in cards.bosses(content) if b.level == "challenge"]


def sequence_of(content: Content, options: Mapping[str, object]) -> str | None:
    seq = options.get("sequence")
    if seq is None:
        return None
    text = str(seq)
    return ref(
        content, "story_sequences", f"sequence-{text}" if text.isdigit() else text, "story sequence"
    )


def initial_state(options: Mapping[str, object], content: Content) -> KradiaState:
    mode = options.get("mode", "story")
    if mode not in ("story", "challenge"):
        raise RuleError("mode must be 'story' or 'challenge'")
    heroes_opt = options.get("heroes")
    if heroes_opt is None:  # the default set-up: the first four heroes in the packs
        heroes_opt = content.ids("heroes")[:4]
    if not isinstance(heroes_opt, list) or len(heroes_opt) != 4:
        raise RuleError("name the 4 heroes in clockwise order (4 heroes play every game)")
    card_ids = [ref(content, "heroes", h, "hero") for h in heroes_opt]
    order = [slug(c) for c in card_ids]
    if len(set(order)) != 4:
        raise RuleError("each of the 4 heroes may play only once")
    default_level = 4 if mode == "challenge" else 1
    level = options.get("level", default_level)
    if not isinstance(level, int) or not 1 <= level <= 4:
        raise RuleError("level must be 1, 2, 3 or 4")
    if mode == "challenge" and level != 4:
        raise RuleError("in Challenge mode the heroes begin fully levelled up (Level 4)")
    sequence = sequence_of(content, options) if mode == "story" else None
    if mode == "story" and sequence is None and options.get("boss") is None:
        sequence = next(iter(content.ids("story_sequences")), None)
    if options.get("boss") is not None:
        boss_id = ref(content, "bosses", options["boss"], "boss")
    elif mode == "challenge" and challenge_bosses(content):
        boss_id = challenge_bosses(content)[0]
    elif sequence is not None:
        boss_id = cards.sequence(content, sequence).bosses[level - 1]
    else:
        raise RuleError("choose a boss (or a story sequence, 1 or 2)")
    boss = cards.boss(content, boss_id)
    check_boss_level(boss, mode, level)
    if mode == "story" and sequence is None:
        sequence = next(
            (
                q.id
                for q in cards.sequences(content)
                if len(q.bosses) >= level and q.bosses[level - 1] == boss_id
            ),
            None,
        )
    sides = options.get("level3")
    if sides is None:  # none chosen: each Level 3 card shows its first side as printed
        sides = {
            k: next(iter(cards.hero(content, c).level3), None)
            for c, k in zip(card_ids, order, strict=True)
        }
    if not isinstance(sides, Mapping):
        raise RuleError("level3 maps heroes to their Level 3 card side, e.g. {ayla: <a side>}")
    heroes: dict[str, HeroState] = {}
    for card_id, key in zip(card_ids, order, strict=True):
        card: Hero = cards.hero(content, card_id)
        side = sides.get(key)
        if side is None and len(card.level3) == 1:
            side = next(iter(card.level3))  # a card printed with one side leaves no choice
        if level >= 3 and side not in card.level3:
            choices = " or ".join(card.level3)
            raise RuleError(
                f"choose the side of {card.title}'s Level 3 Skill card "
                f"(level3: {{{key}: {choices}}})"
            )
        heroes[key] = HeroState(
            hp=card.hp,
            max_hp=card.hp,
            red_max=card.red_max,
            blue_max=card.blue_max,
            card=card_id,
            level=level,
            level3_side=side if level >= 3 else None,
        )
    dealt = options.get("items") or {}
    if not isinstance(dealt, Mapping):
        raise RuleError("items maps heroes to their item cards, e.g. {ayla: [<an item>]}")
    for key, items in dealt.items():
        if key not in heroes:
            raise RuleError(f"items for '{key}', who is not playing")
        heroes[key].items = [ref(content, "items", i, "item card") for i in items]
    held = [i for h in heroes.values() for i in h.items]
    deck = [i for i in content.ids("items") if i not in held]
    start = options.get("start_player", order[0])
    if start not in heroes:
        raise RuleError(f"the start player must be one of the heroes ({', '.join(order)})")
    players = options.get("players", 4)
    if not isinstance(players, int) or not 1 <= players <= 4:
        raise RuleError("players must be 1 to 4 (the 4 heroes are shared among them)")
    hired = options.get("retainers", content.ids("retainers"))
    if not isinstance(hired, Iterable):
        raise RuleError("retainers lists the retainer cards, e.g. [<a retainer>]")
    retainers = [ref(content, "retainers", r, "retainer card") for r in hired]
    boards = content.ids("battlefield_boards")
    if not boards:
        raise RuleError("the content has no Battlefield board")
    board_id = ref(
        content, "battlefield_boards", options.get("battlefield", boards[0]), "battlefield board"
    )
    board = cards.board(content, board_id)
    return KradiaState(
        mode=mode,
        level=level,
        order=order,
        heroes=heroes,
        boss=boss_state(boss),
        battlefield=Battlefield(board=board_id, face_down=list(board.cards)),
        start_player=start,
        sequence=sequence,
        item_deck=deck,
        retainers=retainers,
        players=players,
        house=house_from(options),
    )
