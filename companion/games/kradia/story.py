"""Story mode between bosses: the five Resupply steps, then the next boss of the sequence."""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.core.rules import Chance, RuleError
from companion.core.tables import Decision
from companion.games.kradia import battlefield
from companion.games.kradia import content as cards
from companion.games.kradia.args import ResupplyArgs
from companion.games.kradia.effects import hero_card
from companion.games.kradia.events import (
    BattlefieldShuffled,
    BossSet,
    Cleansed,
    HeroReturned,
    ItemDrawn,
    LeveledUp,
    ManaConverted,
)
from companion.games.kradia.house import house_rule
from companion.games.kradia.setup import boss_state, check_boss_level, ref
from companion.games.kradia.state import KradiaState

if TYPE_CHECKING:
    from companion.content.pack import Content


def resupply(d: Decision, args: ResupplyArgs, chance: Chance, content: Content) -> None:
    s = d.state
    if s.mode != "story":
        raise RuleError("Resupply is part of Story mode only")
    if s.outcome != "boss_defeated":  # (after the last boss the core refuses it)
        raise RuleError("the heroes Resupply after defeating a boss")
    level = s.level + 1
    boss_id = _next_boss(s, args, content, level)
    sides = args.level3 or {}
    if level == 3:
        for hero in s.order:
            card = hero_card(content, s, hero)
            if sides.get(hero) not in card.level3:
                choices = " or ".join(card.level3)
                raise RuleError(
                    f"reaching Level 3: choose the side of {card.title}'s Level 3 "
                    f"Skill card (level3: {{{hero}: {choices}}})"
                )
    # 1. All Mana is spent: 1 HP per point.  A Fading hero does not recover.
    for hero in s.order:
        h = s.heroes[hero]
        spent = h.red + h.blue
        if h.fading or h.retired:
            continue
        d.emit(ManaConverted(hero=hero, amount=spent, hp=min(h.max_hp, h.hp + spent)))
    # 2. Remove all Ailments, Attack Buffs and Evasion.  A stun is none of these (it is one
    # of the "Other Negative States"), so it stays unless the group's house rule removes it.
    battlefield.end_held(d)
    stun = house_rule(s.house, "resupply_stun") == "removed"
    for hero in s.order:
        d.emit(Cleansed(hero=hero, stun=stun))
        if s.heroes[hero].retired:
            d.emit(HeroReturned(hero=hero))
    # 3. Each hero gains 1 Level (Level 3 card side; the Level 4 Charge Attack card).
    for hero in s.order:
        d.emit(
            LeveledUp(
                hero=hero,
                level=level,
                side=sides.get(hero) if level == 3 else s.heroes[hero].level3_side,
            )
        )
    # 4. Each hero draws 1 Item card.
    for hero in s.order:
        if not s.item_deck:
            break
        drawn = chance.draw(
            "items",
            for_=hero,
            why="Resupply: draw 1 Item card",
            options=list(s.item_deck),
            role="item",
        )
        d.emit(ItemDrawn(hero=hero, item=drawn))
    # 5. Reshuffle the 3 Battlefield cards face down.
    board = cards.board(content, s.battlefield.board)
    d.emit(BattlefieldShuffled(face_down=list(board.cards)))
    boss = cards.boss(content, boss_id)
    d.emit(BossSet(level=level, boss=boss_state(boss)))


def _next_boss(s: KradiaState, args: ResupplyArgs, content: Content, level: int) -> str:
    if args.boss is not None:
        boss_id = ref(content, "bosses", args.boss, "boss")
    elif s.sequence is not None:
        boss_id = cards.sequence(content, s.sequence).bosses[level - 1]
    else:
        raise RuleError(f"name the Level {level} boss to fight next (boss)")
    check_boss_level(cards.boss(content, boss_id), "story", level)
    return boss_id
