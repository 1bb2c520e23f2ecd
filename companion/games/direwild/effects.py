"""Running the effect vocabulary: hit effects, abilities and Karn's counterattacks."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from companion.core.rules import Chance
from companion.core.tables import Decision
from companion.games.direwild import events as ev
from companion.games.direwild import movement
from companion.games.direwild.board import SLOTS
from companion.games.direwild.reflexes import reroll_ones
from companion.games.direwild.schema import Effect
from companion.games.direwild.state import KARN, DirewildState
from companion.games.direwild.units import (
    change_stamina,
    fatal_wound_to,
    geo_of,
    label,
    minion_of,
    occupied,
    on_board_enemies,
    position,
    set_stamina,
    wound_to,
)

if TYPE_CHECKING:
    from companion.content.pack import Content


COLLISION = 2  # stamina lost by a pushed unit that hits something (and by what it hits)


@dataclass
class Context:
    """What the effects of one battle or reveal need to know."""

    content: Content
    chance: Chance
    direction: str | None = None  # the attack's direction when it is not a straight line
    damagers: list[str] = field(default_factory=list)
    on_collide: Callable[[str, str], None] | None = None  # hero knocked into an enemy
    collided: set[str] = field(default_factory=set)


def minions_on_board(state: DirewildState) -> int:
    return sum(1 for u in on_board_enemies(state) if u != KARN)


def _targets(d: Decision, effect: Effect, source: str, hero: str | None, ctx: Context) -> list[str]:
    if effect.target == "self":
        return [source]
    if effect.target == "all_heroes":
        return list(d.state.heroes)
    if effect.target == "damagers":
        return list(ctx.damagers)
    return [hero] if hero else []


def run(
    d: Decision,
    effects: list[Effect],
    source: str,
    hero: str | None,
    ctx: Context,
    why: str,
) -> None:
    """Do `effects` of `source` in order against `hero` (or whom each effect names)."""
    for effect in effects:
        if effect.roll:
            asked = f"{why}: {effect.text or effect.kind} on {', '.join(map(str, effect.hits))}"
            role = f"effect:{effect.kind}"
            value = ctx.chance.roll(effect.roll, 1, for_=hero or "table", why=asked, role=role)[0]
            if hero and value == 1 and 1 in effect.hits:
                # Heightened Reflexes "applies to dice rolls outside of combat as well":
                # offered where the 1 lands the effect on the hero (ruling: a 1 that
                # misses is not worth a wound, so the app does not ask)
                value = reroll_ones(d, hero, ctx.chance, value, effect.roll, asked, role)
            hit = value in effect.hits
            d.emit(
                ev.EffectRolled(source=source, roll=value, hit=hit, text=effect.text or effect.kind)
            )
            if not hit:
                continue
        amount = effect.amount
        if effect.die:
            amount = ctx.chance.roll(
                effect.die,
                1,
                for_=hero or "table",
                why=f"{why}: how much {effect.kind}",
                role=f"amount:{effect.kind}",
            )[0]
            d.emit(
                ev.EffectRolled(source=source, roll=amount, hit=True, text=effect.kind, amount=True)
            )
        if effect.scale == "minions":
            amount *= minions_on_board(d.state)
        if effect.kind == "prompt":
            d.emit(ev.Prompted(source=source, text=effect.text or why))
            continue
        if effect.kind == "activate":
            activate_earliest(
                d,
                ctx,
                effect.level,
                hero,
                why=f"{label(d.state, source, ctx.content)} calls another minion",
            )
            continue
        for target in _targets(d, effect, source, hero, ctx):
            apply(d, effect.kind, amount, source, target, ctx, why)


def apply(
    d: Decision, kind: str, amount: int, source: str, target: str, ctx: Context, why: str
) -> None:
    if kind == "poison":
        change_stamina(d, target, -amount, f"{why}: {amount} poison")
        wake(d, target, ctx, f"poisoned by {label(d.state, source, ctx.content)}")
    elif kind == "rage":
        change_stamina(d, target, amount, f"{why}: {amount} rage")
    elif kind == "reset_stamina":
        set_stamina(d, target, 0, f"{why}: stamina reset")
    elif kind == "wound" and target in d.state.heroes:
        wound_to(d, target, amount, why)
    elif kind == "fatal_wound" and target in d.state.heroes:
        for _ in range(amount):
            fatal_wound_to(d, target, why)
    elif kind == "knockback":
        knockback(d, source, target, amount, ctx, why)
    elif kind == "eat" and target in d.state.heroes and position(d.state, target):
        d.emit(ev.HeroEaten(hero=target, by=source))
    elif kind == "teleport" and target in d.state.heroes:
        teleport_next_to(d, source, target, ctx)


def wake(d: Decision, unit: str, ctx: Context, why: str, revealer: str | None = None) -> None:
    """An idle minion targeted by anything becomes active."""
    e = d.state.enemies.get(unit)
    if e is not None and not e.active and not e.defeated:
        activate(d, unit, ctx, why, revealer)


def activate(d: Decision, slot: str, ctx: Context, why: str, revealer: str | None) -> None:
    """Flip an idle minion face up and resolve its when-revealed abilities."""
    d.emit(ev.MinionActivated(slot=slot, why=why))
    minion = minion_of(d.state, slot, ctx.content)
    if minion is None:
        return
    for ability in minion.abilities:
        if ability.when != "revealed":
            continue
        if not ability.effects:
            d.emit(ev.Prompted(source=slot, text=ability.text))
        run(
            d, ability.effects, slot, revealer, ctx, f"{label(d.state, slot, ctx.content)} revealed"
        )


def activate_earliest(
    d: Decision, ctx: Context, level: int | None, revealer: str | None, why: str
) -> str | None:
    for slot in SLOTS:
        e = d.state.enemies.get(slot)
        if e is None or e.active or e.defeated or e.position is None:
            continue
        if level is not None:
            m = minion_of(d.state, slot, ctx.content)
            if m is None or m.level != level:
                continue
        activate(d, slot, ctx, why, revealer)
        return slot
    return None


def knockback(d: Decision, source: str, target: str, amount: int, ctx: Context, why: str) -> None:
    """Push `target` straight away from `source`; collisions cost stamina (and battles)."""
    geo = geo_of(d.state, ctx.content)
    src, here = position(d.state, source), position(d.state, target)
    if src is None or here is None or amount <= 0:
        return
    direction = geo.direction_of(src, here) or ctx.direction
    if direction is None:
        d.emit(ev.Prompted(source=source, text=f"{why}: say which way the knockback goes"))
        return
    path, hit = movement.push(geo, here, direction, amount, occupied(d.state, but=target))
    d.emit(ev.UnitPushed(unit=target, path=path, direction=direction, hit=hit))
    if hit is None:
        return
    change_stamina(
        d,
        target,
        -COLLISION,
        f"knocked into {hit if hit in ('edge', 'wall') else label(d.state, hit, ctx.content)}",
    )
    if hit in ("edge", "wall"):
        return
    change_stamina(d, hit, -COLLISION, f"{label(d.state, target, ctx.content)} crashed into it")
    wake(d, hit, ctx, "knocked into")
    if (
        target in d.state.heroes
        and hit not in d.state.heroes
        and hit != KARN  # "knocked back into another minion": Karn is not a minion
        and ctx.on_collide
        and hit not in ctx.collided
    ):
        ctx.collided.add(hit)
        ctx.on_collide(target, hit)


def teleport_next_to(d: Decision, source: str, hero: str, ctx: Context) -> None:
    geo = geo_of(d.state, ctx.content)
    at, hero_sq = position(d.state, source), position(d.state, hero)
    if at is None or hero_sq is None or geo.adjacent(at, hero_sq):
        return
    taken = occupied(d.state, but=source)
    for _, sq in geo.steps[hero_sq]:  # lowest combat-square number first
        if sq not in taken:
            d.emit(
                ev.EnemyMoved(
                    unit=source,
                    path=[at, sq],
                    activates=False,
                    mode="teleport",
                    target=hero,
                )
            )
            return
