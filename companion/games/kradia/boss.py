"""The boss attack phase and the rage phase."""

from __future__ import annotations

from typing import TYPE_CHECKING

import msgspec

from companion.core.rules import Chance, RuleError
from companion.core.tables import Decision
from companion.games.kradia import extras
from companion.games.kradia.effects import apply_effects, boss_card, dice_on_space, in_overdrive
from companion.games.kradia.events import (
    AttackBuffSet,
    BossAttacked,
    HitRecorded,
    PhaseChanged,
    RageRaised,
    RageUnleashed,
)
from companion.games.kradia.schema import Boss, Effect

if TYPE_CHECKING:
    from companion.content.pack import Content


def chart_row(boss: Boss, total: int) -> int:
    for i, row in enumerate(boss.chart):
        if row.min <= total <= row.max:
            return i
    raise RuleError(f"{boss.title}'s attack chart has no row for a sum of {total}")


def _buffed(effects: list[Effect], buff: int) -> tuple[list[Effect], bool]:
    """The attack lines with the boss's Attack Buff added to each line that deals damage."""
    if not buff:
        return effects, False
    out, used = [], False
    for e in effects:
        if e.either:  # the players' choice: each outcome's damaging lines are buffed alike
            choices = []
            for choice in e.either:
                lines, some = _buffed(choice.effects, buff)
                choices.append(msgspec.structs.replace(choice, effects=lines))
                used = used or some
            out.append(msgspec.structs.replace(e, either=choices))
        elif e.damage > 0 and e.target != "boss":
            out.append(msgspec.structs.replace(e, damage=e.damage + buff))
            used = True
        else:
            out.append(e)
    return out, used


def attack(d: Decision, chance: Chance, content: Content) -> None:
    s = d.state
    if s.phase != "boss":
        if s.phase == "heroes":
            waiting = s.turn or "a hero"
            raise RuleError(
                f"the boss attacks after every hero has had a turn (waiting for {waiting})"
            )
        raise RuleError(f"it is not the boss attack phase (now: {s.phase} phase)")
    boss = boss_card(content, s)
    # Read from the HP space itself, so a corrected HP is always rolled right.
    count = dice_on_space(boss, s.boss.hp)
    dice = chance.roll(
        "d6",
        count,
        for_="boss",
        why=f"{boss.title} attacks: {count} dice from its HP space",
        role="boss_attack",
        who=boss.title,
    )
    total = sum(dice)
    row = chart_row(boss, total)
    overdrive = in_overdrive(boss, s.boss.hp)
    band = boss.chart[row]
    d.emit(
        BossAttacked(
            dice=dice,
            sum=total,
            row=row,
            overdrive=overdrive,
            name=boss.title,
            low=band.min,
            high=band.max,
        )
    )
    buff = s.boss.attack_buff
    lines, used = _buffed(boss.chart[row].effects, buff)
    hits = apply_effects(
        d, content, lines, actor=None, why=f"{boss.title}'s attack", source="chart", chance=chance
    )
    if overdrive and boss.overdrive and not s.outcome:
        more, used_more = _buffed(boss.overdrive.effects, buff)
        used = used or used_more
        hits += apply_effects(
            d,
            content,
            more,
            actor=None,
            why=f"{boss.title}'s overdrive",
            source="overdrive",
            chance=chance,
        )
    for hit in hits:
        d.emit(HitRecorded(hit=hit))
    if used and s.boss.attack_buff:
        d.emit(AttackBuffSet(who="boss", value=0, why="the Attack Buff is spent"))
    extras.at(d, content, "boss_attack", chance)
    if s.outcome:
        return
    rage(d, content, chance)
    if not s.outcome:
        d.emit(PhaseChanged(phase="end"))


def rage(d: Decision, content: Content, chance: Chance) -> None:
    """Rage +1; at the last space the rage effect fires and the marker starts again at 0."""
    s = d.state
    boss = boss_card(content, s)
    value = s.boss.rage + 1
    d.emit(RageRaised(rage=value, most=s.boss.rage_max))
    if value >= s.boss.rage_max:
        d.emit(RageUnleashed(boss=s.boss.id, name=boss.title))
        hits = apply_effects(
            d,
            content,
            boss.rage.effects,
            actor=None,
            why=f"{boss.title}'s rage",
            source="rage",
            chance=chance,
        )
        for hit in hits:
            d.emit(HitRecorded(hit=hit))
        extras.at(d, content, "rage", chance)
        d.emit(RageRaised(rage=0, most=s.boss.rage_max))
