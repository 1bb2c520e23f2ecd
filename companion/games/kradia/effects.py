"""Applying card effects: damage, healing, mana, buffs, ailments, states.

Every rule that changes a hero or the boss goes through here, so evasion, constitution,
Fading and "sleep ends on damage" are decided in one place whoever caused the change: a
boss attack, a skill, an item, poison, confusion or a battlefield space.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.core.rules import Chance, RuleError
from companion.core.tables import Decision
from companion.games.kradia import content as cards
from companion.games.kradia.events import (
    AilmentAdded,
    AilmentResisted,
    AilmentsRemoved,
    AttackBuffSet,
    BossDamaged,
    BossDefeated,
    BossHealed,
    DamageEvaded,
    EvasionSet,
    GameLost,
    HeroDamaged,
    HeroFaded,
    HeroHealed,
    HeroRestored,
    ManaGained,
    ManaLost,
    StunSet,
)
from companion.games.kradia.schema import MENTAL, PHYSICAL, Boss, Choice, Effect, Hero
from companion.games.kradia.state import HeroState, Hit, KradiaState

if TYPE_CHECKING:
    from companion.content.pack import Content

HERO_ATTACK_BUFF_MAX = 4  # "Extra damage up to +4 HP is dealt to a boss"


def hero_card(content: Content, state: KradiaState, hero: str) -> Hero:
    return cards.hero(content, state.heroes[hero].card)


def boss_card(content: Content, state: KradiaState) -> Boss:
    return cards.boss(content, state.boss.id)


def dice_on_space(boss: Boss, hp: int) -> int:
    """The diamonds printed on HP space `hp` (space 0 reads as the lowest band)."""
    bands = sorted(boss.dice, key=lambda b: b.hp_at_most)
    for band in bands:
        if max(hp, 1) <= band.hp_at_most:
            return band.dice
    return bands[-1].dice


def in_overdrive(boss: Boss, hp: int) -> bool:
    return boss.overdrive is not None and hp <= boss.overdrive.hp_at_most


def can_be_hit(state: KradiaState, hero: str) -> bool:
    h = state.heroes[hero]
    return not (h.fading or h.retired)


def turn_order(state: KradiaState) -> list[str]:
    """The four heroes from the Start Player clockwise."""
    i = state.order.index(state.start_player)
    return state.order[i:] + state.order[:i]


def resolve_targets(
    state: KradiaState, target: str, actor: str | None, chosen: str | None
) -> list[str]:
    if target == "boss":
        return ["boss"]
    if target == "self":
        if actor is None:
            raise RuleError("this card has no hero of its own to affect: name a target")
        return [actor]
    if target == "ally":
        if chosen is None:
            raise RuleError("say which hero this is for (target)")
        return [chosen]
    if target == "all":
        return turn_order(state)
    if target == "start_player":
        return [state.start_player]
    if target == "others":
        return [h for h in turn_order(state) if h != state.start_player]
    if target == "second":
        able = [h for h in turn_order(state) if can_be_hit(state, h)]
        return able[1:2]  # with three heroes Fading or retired, [2nd] has no one
    raise RuleError(f"unknown target '{target}'")


# -- the boss ----------------------------------------------------------------------------


def set_boss_hp(d: Decision, content: Content, hp: int, change: int, why: str) -> None:
    hp = max(0, min(hp, d.state.boss.max_hp))
    kind = BossDamaged if change < 0 else BossHealed
    name = boss_card(content, d.state).title
    d.emit(kind(amount=abs(change), hp=hp, why=why, name=name))


def damage_boss(d: Decision, content: Content, amount: int, why: str) -> None:
    if amount <= 0 or d.state.outcome:
        return
    set_boss_hp(d, content, d.state.boss.hp - amount, -amount, why)
    check_end(d)


def check_end(d: Decision) -> None:
    """Victory when the boss reaches 0 HP; defeat when every hero is Fading or retired."""
    s = d.state
    if s.outcome:
        return
    if s.boss.hp <= 0:
        last = s.mode == "challenge" or s.level >= 4
        d.emit(BossDefeated(boss=s.boss.id, outcome="won" if last else "boss_defeated"))
    elif all(not can_be_hit(s, h) for h in s.order):
        d.emit(GameLost())


# -- heroes ------------------------------------------------------------------------------


def damage_hero(d: Decision, hero: str, amount: int, why: str) -> Hit:
    h = d.state.heroes[hero]
    hit = Hit(target=hero, damage=0)
    if h.retired:
        hit.blocked = "retired"
        return hit
    if h.fading:
        hit.blocked = "fading"
        return hit
    if amount <= 0:
        return hit
    if h.evasion:
        hit.blocked = "evasion"
        d.emit(DamageEvaded(hero=hero, amount=amount, why=why))
        return hit
    hp = max(0, h.hp - amount)
    d.emit(HeroDamaged(hero=hero, amount=amount, hp=hp, why=why))
    hit.damage = amount
    if hp == 0:
        d.emit(HeroFaded(hero=hero))
        check_end(d)
    elif "sleep" in h.ailments:
        d.emit(AilmentsRemoved(hero=hero, ailments=["sleep"], why="woke on taking damage"))
    return hit


def heal_hero(d: Decision, hero: str, amount: int, why: str) -> None:
    h = d.state.heroes[hero]
    if amount <= 0 or h.fading or h.retired:
        return  # "HP recovery skills and items have no effect" on a Fading hero
    hp = min(h.max_hp, h.hp + amount)
    if hp != h.hp:
        d.emit(HeroHealed(hero=hero, amount=hp - h.hp, hp=hp, why=why))


def gain_mana(d: Decision, hero: str, color: str, amount: int, why: str) -> None:
    h = d.state.heroes[hero]
    if amount <= 0 or h.fading or h.retired:
        return
    now, cap = (h.red, h.red_max) if color == "red" else (h.blue, h.blue_max)
    value = min(cap, now + amount)
    d.emit(ManaGained(hero=hero, color=color, amount=value - now, value=value, why=why))


def lose_mana(d: Decision, hero: str, color: str, amount: int, why: str) -> None:
    """Mana taken away, never below the bottom of its track."""
    h = d.state.heroes[hero]
    now = h.red if color == "red" else h.blue
    value = max(0, now - amount)
    if value != now and not (h.fading or h.retired):
        d.emit(ManaLost(hero=hero, color=color, amount=now - value, value=value, why=why))


def states_of(h: HeroState) -> set[str]:
    """What `only_if` and `unless` test: the hero's ailments and states."""
    out = set(h.ailments)
    for state, held in (
        ("attack_buff", h.attack_buff > 0),
        ("evasion", h.evasion),
        ("stun", h.stunned),
        ("fading", h.fading),
    ):
        if held:
            out.add(state)
    return out


def meets(h: HeroState, e: Effect) -> bool:
    have = states_of(h)
    return all(c in have for c in e.only_if) and not any(c in have for c in e.unless)


def remove_states(d: Decision, who: str, which: list[str], why: str) -> None:
    """Take away an Attack Buff, Evasion or a stun, where there is one."""
    if who == "boss":
        if "attack_buff" in which and d.state.boss.attack_buff:
            d.emit(AttackBuffSet(who="boss", value=0, why=why))
        return
    h = d.state.heroes[who]
    if "attack_buff" in which and h.attack_buff:
        d.emit(AttackBuffSet(who=who, value=0, why=why))
    if "evasion" in which and h.evasion:
        d.emit(EvasionSet(hero=who, evasion=False, why=why))
    if "stun" in which and h.stunned:
        d.emit(StunSet(hero=who, stunned=False, why=why))


def choose(chance: Chance | None, e: Effect, actor: str | None, why: str) -> Choice:
    """The players' choice of an either/or line, asked of the table as a Request whose
    options are the outcomes as the card words them."""
    if chance is None:
        raise RuleError(f"{why}: the players choose one of this card's outcomes here")
    labels = [c.label for c in e.either]
    picked = chance.choose(
        labels,
        for_=actor or "",
        why=f"{why}: choose {' or '.join(labels)}" + (f" ({e.text})" if e.text else ""),
        role="choice",
    )
    return next(c for c in e.either if c.label == picked)


def enhance(d: Decision, hero: str, why: str = "Enhance") -> None:
    """Odd boss HP gives Red Mana, even gives Blue, read when the Enhance happens."""
    color = "red" if d.state.boss.hp % 2 else "blue"
    gain_mana(d, hero, color, 1, why)


def add_ailment(d: Decision, content: Content, hero: str, ailment: str, why: str) -> str | None:
    """Returns why it did not land (constitution), or None when it did."""
    h = d.state.heroes[hero]
    if ailment in hero_card(content, d.state, hero).constitution:
        d.emit(AilmentResisted(hero=hero, ailment=ailment))
        return "constitution"
    if ailment in h.ailments:
        return None
    replaced = [a for a in h.ailments if a in MENTAL] if ailment in MENTAL else []
    d.emit(AilmentAdded(hero=hero, ailment=ailment, replaced=replaced, why=why))
    return None


def cure(d: Decision, hero: str, which: list[str], why: str) -> None:
    h = d.state.heroes[hero]
    gone: list[str] = []
    for name in which:
        group = {"all": PHYSICAL + MENTAL, "physical": PHYSICAL, "mental": MENTAL}.get(
            name, (name,)
        )
        gone += [a for a in h.ailments if a in group and a not in gone]
    if gone:
        d.emit(AilmentsRemoved(hero=hero, ailments=gone, why=why))


# -- effects -----------------------------------------------------------------------------


def apply_effects(
    d: Decision,
    content: Content,
    effects: list[Effect],
    *,
    actor: str | None,
    chosen: str | None = None,
    why: str,
    source: str = "",
    extra_damage: int = 0,
    chance: Chance | None = None,
) -> list[Hit]:
    """Apply card lines in order; returns what landed on each hero (for the attack log).
    An either/or line asks the table (`chance`) which outcome, then resolves its lines."""
    hits: list[Hit] = []
    for effect in effects:
        if effect.either:
            picked = choose(chance, effect, actor, why)
            hits += apply_effects(
                d,
                content,
                picked.effects,
                actor=actor,
                chosen=chosen,
                why=why,
                source=source,
                extra_damage=extra_damage,
                chance=chance,
            )
            continue
        for target in resolve_targets(d.state, effect.target, actor, chosen):
            if target == "boss":
                _apply_to_boss(d, content, effect, why)
            elif not meets(d.state.heroes[target], effect):
                continue
            else:
                hit = _apply_to_hero(d, content, effect, target, why, extra_damage)
                hit.source = source
                hits.append(hit)
    return hits


def _apply_to_boss(d: Decision, content: Content, e: Effect, why: str) -> None:
    b = d.state.boss
    if e.damage:
        damage_boss(d, content, e.damage, why)
    if e.heal and not d.state.outcome:
        set_boss_hp(d, content, b.hp + e.heal, e.heal, why)
    if e.attack_buff and b.attack_buff_max:
        value = min(b.attack_buff_max, b.attack_buff + e.attack_buff)
        d.emit(AttackBuffSet(who="boss", value=value, why=why))
    remove_states(d, "boss", e.remove, why)


def _apply_to_hero(
    d: Decision, content: Content, e: Effect, hero: str, why: str, extra_damage: int
) -> Hit:
    h = d.state.heroes[hero]
    if h.retired:
        return Hit(target=hero, blocked="retired")
    if h.fading:
        if e.restore:
            d.emit(HeroRestored(hero=hero, hp=min(e.restore, h.max_hp), why=why))
            return Hit(target=hero)
        return Hit(target=hero, blocked="fading")
    hit = Hit(target=hero)
    if e.damage:
        hit = damage_hero(d, hero, e.damage + extra_damage, why)
        if h.fading:
            return hit
    heal_hero(d, hero, e.heal, why)
    gain_mana(d, hero, "red", e.red, why)
    gain_mana(d, hero, "blue", e.blue, why)
    lose_mana(d, hero, "red", e.lose_red, why)
    lose_mana(d, hero, "blue", e.lose_blue, why)
    for _ in range(e.enhance):
        enhance(d, hero, why)
    if e.attack_buff:
        value = min(HERO_ATTACK_BUFF_MAX, h.attack_buff + e.attack_buff)
        if value != h.attack_buff:
            d.emit(AttackBuffSet(who=hero, value=value, why=why))
    if e.evasion and not h.evasion:
        d.emit(EvasionSet(hero=hero, evasion=True, why=why))
    if e.stun:
        if not h.stunned:
            d.emit(StunSet(hero=hero, stunned=True, why=why))
        hit.stunned = True
    for ailment in e.ailments:
        if add_ailment(d, content, hero, ailment, why) is None:
            hit.ailments.append(ailment)
        elif hit.blocked is None:
            hit.blocked = "constitution"
    if e.cure:
        cure(d, hero, e.cure, why)
    remove_states(d, hero, e.remove, why)
    return hit
