"""Battles: picking a fight, the two totals, and every effect of a win or a loss, in order."""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.core.rules import Chance, RuleError
from companion.core.tables import Decision
from companion.games.direwild import content as typed
from companion.games.direwild import effects as fx
from companion.games.direwild import events as ev
from companion.games.direwild.args import ResolveBattleArgs, TreasureMonsterArgs
from companion.games.direwild.board import DIRECTIONS
from companion.games.direwild.effects import Context
from companion.games.direwild.reflexes import reroll_ones
from companion.games.direwild.schema import Effect
from companion.games.direwild.state import (
    DISTRACTION_FLOOR,
    GEMS,
    KARN,
    DirewildState,
    fought_this_turn,
    house_rule,
)
from companion.games.direwild.units import (
    change_stamina,
    check_acting,
    check_adventure,
    check_enemy,
    check_hero,
    check_turn,
    fatal_wound_to,
    geo_of,
    label,
    minion_at,
    minion_of,
    on_board_enemies,
    position,
)

if TYPE_CHECKING:
    from companion.content.pack import Content


CRITICAL_MARGIN = 5
CREATURE_KEYS = {"attack", "knockback", "poison", "flight", "move"}
FLIGHT_PASSIVE = {"featherheart": 1}


def creature_stats(raw: object) -> dict[str, int]:
    if isinstance(raw, int) and not isinstance(raw, bool):
        raw = {"attack": raw}
    if not isinstance(raw, dict) or "attack" not in raw:
        raise RuleError(
            "say the summoned creature's stats, at least its attack, e.g. "
            "creature: {attack: 5, knockback: 2}"
        )
    unknown = set(raw) - CREATURE_KEYS
    if unknown:
        raise RuleError(
            f"the creature has no '{', '.join(sorted(unknown))}' (it can have: "
            f"{', '.join(sorted(CREATURE_KEYS))})"
        )
    out = {}
    for key in CREATURE_KEYS:
        v = raw.get(key, 0)
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise RuleError(f"creature {key} must be a whole number, 0 or more (got {v!r})")
        out[key] = v
    return out


def enemy_attack(state: DirewildState, enemy: str, content: Content) -> int:
    if enemy == KARN:
        return typed.karn(content).attack
    return minion_at(state, enemy, content).attack


def hit_effects(state: DirewildState, enemy: str, content: Content) -> list[Effect]:
    if enemy == KARN:
        return typed.karn(content).hit_effects
    return minion_at(state, enemy, content).hit_effects


def resolve(d: Decision, args: ResolveBattleArgs, chance: Chance, content: Content) -> None:
    s = d.state
    check_adventure(s, "battles happen")
    hero = check_hero(s, args.hero)
    enemy = check_enemy(s, args.enemy)
    creature = creature_stats(args.creature)
    check_acting(s, hero)
    h = s.heroes[hero]
    if h.battled:
        raise RuleError(f"{hero.title()} has already battled this round (one battle a turn)")
    geo = geo_of(s, content)
    here, there = position(s, hero), position(s, enemy) or ""  # checked on the board
    if h.eaten_by:
        if enemy != h.eaten_by:
            raise RuleError(
                f"{hero.title()} is inside the {label(s, h.eaten_by, content)} and must battle it"
            )
        flying = False
    elif here is None:
        raise RuleError(f"{hero.title()} is in the staging area: move onto the land board first")
    elif geo.adjacent(here, there):
        flying = False
    else:
        reach = creature["flight"] + FLIGHT_PASSIVE.get(hero, 0)
        gap = geo.distance(here, there)
        if reach == 0:
            raise RuleError(
                f"the {label(s, enemy, content)} is not adjacent to {hero.title()} "
                "(walls break adjacency) and the creature has no flight"
            )
        if gap > reach + 1:
            raise RuleError(
                f"the {label(s, enemy, content)} is {gap} squares away: out of "
                f"{hero.title()}'s flight range ({reach})"
            )
        flying = True
    direction = args.knockback_direction
    if direction is not None and direction not in DIRECTIONS:
        raise RuleError(f"knockback_direction must be one of {', '.join(DIRECTIONS)}")
    colour = hero if args.critical_colour is None else args.critical_colour
    if colour not in s.heroes:
        raise RuleError(f"critical_colour must be a hero's colour ({', '.join(s.heroes)})")

    ctx = Context(content, chance, direction=direction)
    if enemy != KARN and not s.enemies[enemy].active:
        fx.activate(d, enemy, ctx, f"{hero.title()} attacks it", hero)
        if flying and geo.adjacent(position(d.state, hero), position(d.state, enemy)):
            flying = False  # its when-revealed ability brought it next to the hero
    if enemy != KARN:
        minion = minion_at(s, enemy, content)
        for ability in minion.abilities:
            if ability.when == "passive" and ability.text:
                d.emit(ev.Prompted(source=enemy, text=ability.text))
    roll = battle_roll(d, hero, chance, f"against the {label(s, enemy, content)}")
    hero_total = creature["attack"] + h.stamina + roll[0]
    enemy_total = enemy_attack(s, enemy, content) + (
        s.karn.stamina if enemy == KARN else s.enemies[enemy].stamina
    )
    won = hero_total > enemy_total
    critical = won and enemy != KARN and hero_total - enemy_total >= CRITICAL_MARGIN
    d.emit(
        ev.BattleResolved(
            hero=hero,
            enemy=enemy,
            roll=roll,
            creature=creature,
            hero_total=hero_total,
            enemy_total=enemy_total,
            winner="hero" if won else "enemy",
            critical=critical,
            flying=flying,
        )
    )
    ctx.collided.add(enemy)
    change_stamina(d, enemy, -1, "distracted by the fight", floor=DISTRACTION_FLOOR)
    if won:
        hero_wins(d, hero, enemy, creature, hero_total - enemy_total, critical, colour, ctx)
    else:
        answers = enemy != KARN and minion_at(s, enemy, content).attacks_flying
        if flying and not answers:
            d.emit(
                ev.Noted(
                    actor=enemy,
                    text=f"{hero.title()} attacked flying: the "
                    f"{label(d.state, enemy, content)} cannot answer",
                )
            )
        else:
            enemy_wins(d, hero, enemy, ctx)
    d.emit(ev.BattleEnded(hero=hero))


def battle_roll(d: Decision, hero: str, chance: Chance, against: str) -> list[int]:
    """The hero's die (a d3, a d6 once Veteran is open); with Heightened Reflexes open the
    player may take a wound to reroll a 1, as often as a 1 comes up (Book 2, Unlocked Hero
    Powers) - the app asks, since it is the player's choice."""
    profile = "d6" if d.state.veteran else "d3"
    why = f"{hero.title()}'s battle roll {against}"
    roll = chance.roll(profile, 1, for_=hero, why=why, role="battle")
    return [reroll_ones(d, hero, chance, roll[0], profile, why, "battle")]


def treasure_monster(
    d: Decision, args: TreasureMonsterArgs, chance: Chance, content: Content
) -> None:
    """A Treasure Monster drawn from the treasure deck: 2d6 attack, battled at once with the
    hero's creature, using up the hero's one battle; a win gives treasure, never magic.
    With `gryk: true` it was revealed by the Gryk's ability instead, and wins at once."""
    s = d.state
    check_adventure(s, "Treasure Monsters are battled")
    hero = check_hero(s, args.hero)
    if args.gryk:
        revealed_by_gryk(d, hero, content)
        return
    check_acting(s, hero)
    creature = creature_stats(args.creature)
    h = s.heroes[hero]
    if h.battled:
        raise RuleError(
            f"{hero.title()} has already battled this turn: a Treasure Monster is battled "
            "instead of another enemy, never as well"
        )
    if h.treasures < 1:
        raise RuleError(
            f"{hero.title()} has drawn no treasure card: a Treasure Monster comes out of the "
            "treasure deck (loot a treasure token first)"
        )
    monster = chance.roll(
        "d6", 2, for_=hero, why="roll 2 d6 for the Treasure Monster's attack", role="monster"
    )
    roll = battle_roll(d, hero, chance, "against the Treasure Monster")
    hero_total = creature["attack"] + h.stamina + roll[0]
    monster_total = sum(monster)
    won = hero_total > monster_total  # a tie goes to the enemy
    d.emit(
        ev.TreasureMonsterBattled(
            hero=hero,
            monster=monster,
            roll=roll,
            attack=creature["attack"],
            hero_total=hero_total,
            monster_total=monster_total,
            winner="hero" if won else "monster",
        )
    )
    if not won and house_rule(s, "treasure_monster_loss") == "fatal_wound":
        fatal_wound_to(d, hero, "lost to the Treasure Monster")
    d.emit(ev.BattleEnded(hero=hero))


def monster_revealers(s: DirewildState, content: Content, hero: str = "") -> list[str]:
    """The face-up minions whose ability reveals treasure cards, a Treasure Monster among
    them winning at once (Book 1: "Gryk - ... If a Treasure Monster is revealed, you
    automatically lose to it."); for `hero`, also such a minion that hero's battle this
    round defeated: the battle that revealed it may have ended it, its ability already
    played out."""
    out = [
        slot
        for slot in on_board_enemies(s)
        if slot != KARN
        and s.enemies[slot].active
        and (m := minion_of(s, slot, content)) is not None
        and m.treasure_monster_wins
    ]
    battle = s.last_battle
    if hero and not out and battle is not None and battle.hero == hero:
        slot = battle.enemy
        gone = slot in s.enemies and s.enemies[slot].defeated
        if gone and (m := minion_of(s, slot, content)) is not None and m.treasure_monster_wins:
            out.append(slot)
    return out


def revealed_by_gryk(d: Decision, hero: str, content: Content) -> None:
    """The hero loses to the Treasure Monster the Gryk's ability revealed: no dice, no
    creature; the loss costs what a lost Treasure Monster battle costs (the house rule).
    It is no battle the hero chose, so it does not use up the turn's one battle."""
    s = d.state
    check_turn(s, hero)
    by = monster_revealers(s, content, hero)
    if not by:
        raise RuleError(
            "no face-up minion on the land board reveals treasure cards (the Gryk does): "
            "a Treasure Monster drawn from the treasure deck is battled as usual"
        )
    d.emit(ev.TreasureMonsterLost(hero=hero, by=by[0], minion=minion_at(s, by[0], content).title))
    if house_rule(s, "treasure_monster_loss") == "fatal_wound":
        fatal_wound_to(d, hero, "lost to the Treasure Monster")


def hero_wins(
    d: Decision,
    hero: str,
    enemy: str,
    creature: dict[str, int],
    margin: int,
    critical: bool,
    colour: str,
    ctx: Context,
) -> None:
    if creature["poison"]:
        fx.apply(d, "poison", creature["poison"], hero, enemy, ctx, f"{hero.title()}'s hit")
    if creature["knockback"]:
        fx.knockback(d, hero, enemy, creature["knockback"], ctx, f"{hero.title()}'s hit")
    if enemy == KARN:
        damage_karn(d, hero, margin, ctx)
        return
    placed = [hero]
    if critical:
        placed.append(colour)
    minion = minion_at(d.state, enemy, ctx.content)
    done: list[str] = []
    for who, crit in zip(placed, (False, True), strict=False):
        e = d.state.enemies[enemy]
        if e.damage >= minion.hp:
            d.emit(
                ev.Noted(
                    actor=enemy,
                    text=f"the {label(d.state, enemy, ctx.content)} cannot "
                    "take more damage than its hit points",
                )
            )
            continue
        gem = (
            "inactive"
            if d.state.heroes[who].inactive > 0
            else ("active" if d.state.heroes[who].magic > 0 else "none")
        )
        d.emit(ev.DamageDealt(enemy=enemy, colour=who, critical=crit, gem=gem))
        if who not in done:
            done.append(who)
    counterattack(d, enemy, done, ctx)
    e = d.state.enemies[enemy]
    if e.damage >= minion.hp and not e.defeated:
        returned = {c: n for c, n in e.damage_by.items() if c in d.state.heroes}
        d.emit(
            ev.EnemyDefeated(
                enemy=enemy,
                returned=returned,
                released=[h for h, v in d.state.heroes.items() if v.eaten_by == enemy],
                square=e.position,
            )
        )
        for ability in minion.abilities:
            if ability.when == "defeated":
                if not ability.effects:
                    d.emit(ev.Prompted(source=enemy, text=ability.text))
                fx.run(d, ability.effects, enemy, hero, ctx, f"{minion.title} defeated")


def counterattack(d: Decision, enemy: str, damaged_by: list[str], ctx: Context) -> None:
    """When-damaged abilities: against each hero whose colour went on, self effects once."""
    if not damaged_by:
        return
    minion = minion_at(d.state, enemy, ctx.content)
    ctx.damagers = [h for h, n in d.state.enemies[enemy].damage_by.items() if n > 0]
    for ability in minion.abilities:
        if ability.when != "damaged":
            continue
        why = f"{label(d.state, enemy, ctx.content)} when damaged"
        if not ability.effects:
            d.emit(ev.Prompted(source=enemy, text=ability.text))
            continue
        own = [e for e in ability.effects if e.target in ("self", "damagers", "all_heroes")]
        each = [e for e in ability.effects if e.target == "hero"]
        for who in damaged_by:
            fx.run(d, each, enemy, who, ctx, why)
        fx.run(d, own, enemy, damaged_by[0], ctx, why)


def damage_karn(d: Decision, hero: str, margin: int, ctx: Context) -> None:
    k = d.state.karn
    count = min(margin, k.cards_left)
    d.emit(ev.KarnCardsDiscarded(count=count, wanted=margin))
    if d.state.karn.cards_left > 0:
        options = [c for c in sorted(ctx.content.ids("karn_cards")) if c not in k.destroyed]
        card = ctx.chance.draw(
            "karn_cards",
            for_=hero,
            options=options,
            why="flip the top discarded Karn card for his counterattack",
            role="karn_counterattack",
        )
        d.emit(ev.KarnCounterattacked(card=card, hero=hero))
        fx.run(
            d,
            typed.karn_card(ctx.content, card).counterattack,
            KARN,
            hero,
            ctx,
            "Karn's counterattack",
        )
        d.emit(ev.KarnCardDestroyed(card=card))
    elif d.state.karn.regenerates_left > 0:
        d.emit(ev.KarnRegenerated(cards_back=d.state.karn.discarded, unused=margin - count))
    else:
        d.emit(ev.KarnDefeated(hero=hero))


def enemy_wins(d: Decision, hero: str, enemy: str, ctx: Context) -> None:
    """The enemy's Hit Effects, then its Fatal Wound.  A knockback that drives the losing
    hero into another minion makes the hero battle (and lose to) that one too, and so on
    down the chain (Book 2, Knockback into and out of battles)."""
    before = ctx.on_collide
    ctx.on_collide = lambda who, into: forced_loss(d, who, into, ctx, "knocked into it", True)
    fx.run(
        d,
        hit_effects(d.state, enemy, ctx.content),
        enemy,
        hero,
        ctx,
        f"{label(d.state, enemy, ctx.content)}'s hit",
    )
    ctx.on_collide = before
    fatal_wound_to(d, hero, f"lost to the {label(d.state, enemy, ctx.content)}")


def forced_loss(
    d: Decision, hero: str, enemy: str, ctx: Context, why: str, knocked: bool = False
) -> None:
    """A battle the hero loses without rolling: distraction, hit effects, a Fatal Wound."""
    d.emit(ev.AutomaticWin(hero=hero, enemy=enemy, why=why, knocked=knocked))
    fx.wake(d, enemy, ctx, f"it fights {hero.title()}", hero)
    change_stamina(d, enemy, -1, "distracted by the fight", floor=DISTRACTION_FLOOR)
    enemy_wins(d, hero, enemy, ctx)


def automatic_wins(d: Decision, hero: str, ctx: Context) -> None:
    """At the end of the hero's turn, adjacent enemies it did not battle win against it
    automatically (a Teleport Potion used after the battle can still get the hero away)."""
    geo = geo_of(d.state, ctx.content)
    ctx.collided |= fought_this_turn(d.state, hero)
    for unit in on_board_enemies(d.state):
        here = position(d.state, hero)
        if unit in ctx.collided or here is None:
            continue
        if geo.adjacent(here, position(d.state, unit)):
            ctx.collided.add(unit)
            forced_loss(d, hero, unit, ctx, "it was adjacent and not battled")


def returned_magic(active: int, inactive: int, gems: int) -> tuple[int, int]:
    """Gems coming back as active magic, at most 6 active; the rest stay inactive."""
    room = max(0, 6 - active)
    back = min(gems, room)
    return active + back, min(GEMS, inactive + gems - back)
