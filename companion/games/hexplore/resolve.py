"""The Resolution phase: every action at once, then Conditions, then the round's end.

The numbers come from `resolution` (pure arithmetic); this module gathers them from the
declarations and the opponent's action and emits the changes as events.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace

from companion.core.rules import Chance
from companion.core.tables import Decision
from companion.games.hexplore.args import ResolveRound
from companion.games.hexplore.combat import begin_round, phase_end, settle_foes
from companion.games.hexplore.common import current, last_action, stacks
from companion.games.hexplore.conditions import (
    CAPPED,
    DECAYING,
    GROGGY,
    WEAKENED,
    count_down,
    heal_amount,
    inflict,
)
from companion.games.hexplore.content import HexContent
from companion.games.hexplore.dice import SUCCEEDED, skill_outcome
from companion.games.hexplore.events import (
    ConditionChanged,
    ConditionLost,
    OpponentRegen,
    RoundResolved,
    VitalsChanged,
)
from companion.games.hexplore.fight import Potency, combat_in, failed, fighting, find_opponent
from companion.games.hexplore.house import house
from companion.games.hexplore.resolution import (
    Attack,
    Outgoing,
    hero_takes,
    heroes_attack,
    nonlethal_loss,
    soak_shield,
)
from companion.games.hexplore.schema import Action, Effect, Opponent
from companion.games.hexplore.skills import check_skill
from companion.games.hexplore.state import (
    OPPONENT,
    Combat,
    Declaration,
    HexploreState,
    LastAction,
    OpponentState,
    foe_of,
    is_foe,
    name_of,
    standing,
    target_of,
)
from companion.games.hexplore.tables import DIFFICULTIES, VITALS, half


@dataclass
class Tally:
    """One Resolution phase being added up: the net change per target and the mat's lines."""

    deltas: dict[str, dict[str, int]] = field(default_factory=dict)
    lines: list[str] = field(default_factory=list)
    fresh: dict[str, set[str]] = field(default_factory=dict)  # Conditions gained this round
    constraint: dict[str, int] = field(default_factory=dict)  # damage on Encased/Swallowed
    healed: set[str] = field(default_factory=set)
    raised: dict[str, int] = field(default_factory=dict)  # Raise: may pass the maximum by this

    def add(self, who: str, vital: str, n: int) -> None:
        if n:
            row = self.deltas.setdefault(who, {})
            row[vital] = row.get(vital, 0) + n


@dataclass
class Front:
    """One opponent's side of the round: its card, its action and what came of it.

    "When facing multiple opponents, opponent actions will resolve separately in any
    order": each opponent's action is a Front of its own (Ruling 44)."""

    key: str
    foe: OpponentState
    card: Opponent
    act: Action
    la: LastAction
    lost: bool = False
    halves: int = 0
    p: Potency = field(default_factory=Potency)
    shielded: bool = False
    shield_hit: int = 0
    out: Outgoing | None = None
    hurt: set[str] = field(default_factory=set)


def resolve_round(d: Decision, args: ResolveRound, chance: Chance, content: HexContent) -> None:
    s: HexploreState = d.state
    c = combat_in(s, "resolve")
    card = find_opponent(content, c.opponent.id)
    fronts = []
    for key, foe in standing(c):
        la = last_action(s) if key == OPPONENT else c.extra_actions[key]
        mine = card if key == OPPONENT else find_opponent(content, foe.id)
        fronts.append(Front(key, foe, mine, mine.act(la.ability), la))
    t = Tally()
    decls = {h: replace(x) for h, x in c.declarations.items() if h in fighting(s)}
    _before_damage(s, chance, fronts, decls, t)
    for f in fronts:
        f.p = Potency() if f.lost else Potency.of(f.act, f.halves)
        f.shielded = f.foe.soul_shield > 0
    for i, f in enumerate(fronts):
        aimed = {h: x for h, x in decls.items() if _aimed(x, fronts) == f.key}
        f.out = _heroes_strike(s, f, aimed, t, allies=i == 0)
    for f in fronts:
        if not f.lost:
            _opponent_strikes(s, f, decls, t)
    _heals(s, fronts, decls, t)
    _bound(s, t.deltas)
    raises = {f.key: f.p.raise_ for f in fronts}
    for who, row in t.deltas.items():
        _apply(d, who, row, raised_by=raises.get(who, 0), c=c, raised=t.raised)
    _conditions(d, fronts, decls, t)
    _round_end(d, chance, decls, t.constraint, t.fresh, fronts, t.lines)
    d.emit(RoundResolved(round=c.round, lines=t.lines))
    phase_end(d, "the Resolution phase")
    _after_round(d, chance, content, card)


def _aimed(x: Declaration, fronts: list[Front]) -> str:
    """The opponent a declaration is aimed at: the one it names while it stands, else the
    first still standing."""
    keys = [f.key for f in fronts]
    return x.foe if x.foe in keys else (OPPONENT if OPPONENT in keys else keys[0])


def _before_damage(
    s: HexploreState, chance: Chance, fronts: list[Front], decls: dict[str, Declaration], t: Tally
) -> None:
    """Lost actions and Confusion resolve first: each Front learns whether its action is
    lost and how often it is halved."""
    for f in fronts:
        if f.act.loses_action:
            for target in f.la.targets:
                if target in decls:
                    decls[target].lost = True
                    t.lines.append(f"{s.heroes[target].name} loses their action ({f.act.name})")
    for hid in fighting(s):
        x = decls.get(hid)
        if "confused" in s.heroes[hid].conditions and x is not None and not x.lost:
            r = chance.roll(
                "hex_d6",
                for_=hid,
                why="Confused: even loses the action",
                role="confused",
                who=s.heroes[hid].name,
            )[0]
            x.lost, x.halved = r % 2 == 0, r % 2 == 1
            t.lines.append(
                f"{s.heroes[hid].name} is Confused ({r}): action {'lost' if x.lost else 'halved'}"
            )
    for f in fronts:
        f.halves = 1 if f.la.halved else 0
        o = f.foe
        if "confused" not in o.conditions:
            continue
        r = chance.roll(
            "hex_d6",
            for_=OPPONENT,
            why="Confused: even loses the action",
            role="confused",
            who=o.name,
        )[0]
        t.lines.append(f"{o.name} is Confused ({r}): action {'lost' if r % 2 == 0 else 'halved'}")
        f.lost, f.halves = r % 2 == 0, f.halves + r % 2


def _heroes_strike(
    s: HexploreState, f: Front, decls: dict[str, Declaration], t: Tally, allies: bool
) -> Outgoing:
    """The heroes' damage, Influence and Favored damage against one opponent: the
    declarations aimed at it, and (at the first standing) the allies' blows."""
    o, card, act, p, opp_lost = f.foe, f.card, f.act, f.p, f.lost
    key = f.key
    attacks: list[Attack] = []
    influence = 0
    favored = {v: 0 for v in VITALS}
    for hid, x in decls.items():
        favored[x.favored_vital] += x.favored
        if x.lost or x.action not in ("attack", "mastery") or x.amount <= 0:
            continue
        amount = _strength(s, hid, x, card)
        if "swallowed" in s.heroes[hid].conditions:
            t.constraint[hid] = t.constraint.get(hid, 0) + amount
        if x.target:
            t.constraint[x.target] = t.constraint.get(x.target, 0) + amount
            t.lines.append(
                f"{s.heroes[hid].name} strikes the constraint holding "
                f"{target_of(s, x.target).name} for {amount}"
            )
        elif x.vital == "influence":
            influence += amount
        else:
            attacks.append(Attack(hid, x.vital, amount, x.piercing, name=s.heroes[hid].name))
    for aid, a in s.allies.items() if allies else []:
        if a.attack > 0 and a.health > 0:  # "the action they perform each combat round"
            attacks.append(Attack(aid, "health", a.attack, name=a.name))
    out = heroes_attack(
        attacks,
        defend=p.defend,
        block=p.block,
        negate=act.negate and not opp_lost,
        halve_health=act.halve_health_damage and not opp_lost,
        vulnerable=stacks(o, "vulnerable"),
    )
    t.lines.extend(out.lines)
    health_in, energy_in = out.taken.total("health"), out.taken.total("energy")
    if act.reflect and not opp_lost:
        for hid, dealt in out.dealt.items():
            for vital, n in dealt.items():
                t.add(hid, vital, -n)
                t.lines.append(f"{o.name} Reflects {n} {vital} damage back onto {name_of(s, hid)}")
        health_in = energy_in = 0
    if o.soul_shield > 0:
        total = health_in + energy_in + sum(favored.values())
        f.shield_hit, wasted = soak_shield(o.soul_shield, total)
        t.add(key, "soul_shield", -f.shield_hit)
        t.lines.append(
            f"Soul Shield takes {total}: {o.soul_shield} -> {o.soul_shield - f.shield_hit}"
            + (f"; {wasted} does not carry over" if wasted else "")
        )
        if influence:
            t.lines.append(f"{influence} Influence is lost on the Soul Shield")
    else:
        for vital, into in (("health", health_in), ("energy", energy_in)):
            soft = sum(out.dealt.get(h, {}).get(vital, 0) for h, x in decls.items() if x.nonlethal)
            hard = into + favored[vital] - soft
            t.add(key, vital, -nonlethal_loss(getattr(o, vital), hard, soft))
        if o.savable:
            t.add(key, "influence", -(influence + favored["influence"]))
        t.lines.append(
            f"{o.name} takes {health_in + favored['health']} Health and "
            f"{energy_in + favored['energy']} Energy damage"
            + (f", {influence + favored['influence']} Influence" if o.savable else "")
        )
    if f.shield_hit:
        for hid in fighting(s):
            if "soul_laced" in s.heroes[hid].conditions:
                t.add(hid, "energy", -2 * o.level)
                t.lines.append(
                    f"{s.heroes[hid].name} is Soul Laced: {2 * o.level} Piercing Energy Drain"
                )
    return out


def _strength(s: HexploreState, hid: str, x: Declaration, card: Opponent) -> int:
    """A declared amount after Confusion, the Giant Fox's weakening, Smoking Limb's cap
    and a Swallowed hero's blows inside the opponent."""
    h = s.heroes[hid]
    amount = half(x.amount) if x.halved else x.amount
    amount = max(0, amount - stacks(h, WEAKENED))
    if CAPPED in h.conditions and x.vital == "health":
        amount = min(amount, h.abilities["attack"])
    if "swallowed" in h.conditions:
        amount *= card.swallowed_damage
    return amount


def _opponent_strikes(s: HexploreState, f: Front, decls: dict[str, Declaration], t: Tally) -> None:
    """One opponent's action against each target, and the cost of failing its rolls.
    Each hero's Defend and Block meet each opponent's action (it resolves separately)."""
    la, act, p = f.la, f.act, f.p
    bonus = DIFFICULTIES[current(s).difficulty].damage
    damage = {
        "health": p.health + bonus if p.health else 0,
        "energy": p.energy + bonus if p.energy else 0,
    }
    for target, hits in la.hits.items():
        x = decls.get(target)
        defend = x.defend if x and not x.lost else 0
        block = x.block if x and not x.lost else 0
        vulnerable = stacks(target_of(s, target), "vulnerable")
        per_attack = house(s, "defend_each") == "attack"
        taken = hero_takes(damage, p.piercing, hits, defend, block, vulnerable, per_attack)
        for vital in ("health", "energy"):
            loss = taken.total(vital)
            if act.nonlethal:
                loss = nonlethal_loss(getattr(target_of(s, target), vital), 0, loss)
            t.add(target, vital, -loss)
        if taken.total("health") or taken.total("energy"):
            f.hurt.add(target)
        t.lines.append(
            f"{name_of(s, target)} suffers {taken.total('health')} Health and "
            f"{taken.total('energy')} Energy" + (f" (Defend {defend})" if defend else "")
        )
    for target, res in la.skill_rolls.items():
        if failed(act, res):
            t.add(target, "health", -(p.fail_health + bonus if p.fail_health else 0))
            t.add(target, "energy", -(p.fail_energy + bonus if p.fail_energy else 0))


def _heals(s: HexploreState, fronts: list[Front], decls: dict[str, Declaration], t: Tally) -> None:
    """Healing joins the same total; `_apply` keeps it under each maximum."""
    for hid, x in decls.items():
        if x.heal and not x.lost:
            target = x.heal_target or hid
            t.healed.add(target)
            amount = half(x.heal) if x.halved else x.heal
            amount = heal_amount(target_of(s, target), x.heal_vital, amount)
            t.add(target, x.heal_vital, amount)
            if x.raises:
                t.raised[f"{target}.{x.heal_vital}"] = (
                    t.raised.get(f"{target}.{x.heal_vital}", 0) + amount
                )
    for f in fronts:
        if f.p.heal or f.p.raise_:
            t.add(f.key, "health", heal_amount(f.foe, "health", f.p.heal) + f.p.raise_)


def _conditions(d: Decision, fronts: list[Front], decls: dict[str, Declaration], t: Tally) -> None:
    """Conditions come after the damage (Rulings 13 and 14)."""
    s: HexploreState = d.state

    def give(who: str, e: Effect) -> None:
        inflict(d, who, e.condition, e.rounds, e.value, e.damage)
        t.fresh.setdefault(who, set()).add(e.condition)

    for f in fronts:
        _front_conditions(d, f, fronts, decls, t, give)
    for hid, x in decls.items():
        if x.lost or not x.inflicts:
            continue
        f = next(f for f in fronts if f.key == _aimed(x, fronts))
        if f.shielded:
            t.lines.append(
                f"{s.heroes[hid].name}'s {', '.join(x.inflicts)} lands on the Soul Shield and does not carry over"
            )
            continue
        for name, rounds in x.inflicts.items():
            give(f.key, Effect(condition=name, rounds=rounds))
    for target in t.healed:
        if target in s.heroes and "bleeding" in s.heroes[target].conditions:
            d.emit(ConditionLost(who=target, condition="bleeding"))


def _dealt_anywhere(fronts: list[Front]) -> dict[str, dict[str, int]]:
    """What each hero or ally landed this round, on whichever opponent."""
    out: dict[str, dict[str, int]] = {}
    for f in fronts:
        for who, dealt in (f.out.dealt if f.out else {}).items():
            row = out.setdefault(who, {})
            for vital, n in dealt.items():
                row[vital] = row.get(vital, 0) + n
    return out


def _front_conditions(
    d: Decision,
    f: Front,
    fronts: list[Front],
    decls: dict[str, Declaration],
    t: Tally,
    give: Callable[[str, Effect], None],
) -> None:
    """What one opponent's action leaves behind: its Conditions, Regen, decay."""
    s: HexploreState = d.state
    la, act, p, out = f.la, f.act, f.p, f.out
    assert out is not None
    if not f.lost:
        deals = bool(p.health or p.energy)
        for target in la.hits:
            if not deals or target in f.hurt:
                for e in act.conditions:
                    give(target, e)
        for target, res in la.skill_rolls.items():
            if failed(act, res):
                for e in act.fail_conditions:
                    give(target, e)
        for hid, dealt in out.dealt.items():
            if dealt.get("health"):  # those who dealt Health damage to this opponent
                for e in act.damage_dealer_conditions:
                    give(hid, e)
        for hid, dealt in _dealt_anywhere(fronts).items():
            # "If the target dealt damage this round": to any opponent
            if act.weakens and hid in la.hits and any(dealt.values()):
                inflict(d, hid, WEAKENED, add=act.weakens)
                t.lines.append(
                    f"{name_of(s, hid)} dealt damage: {act.weakens} less until combat ends"
                )
        if act.delayed_health:
            extra = act.delayed_health + DIFFICULTIES[current(s).difficulty].damage
            for target in la.hits:
                x = decls.get(target)
                defended = x is not None and x.action == "defend" and not x.lost
                if defended or target in t.healed:
                    give(target, Effect(condition=DECAYING, rounds=1, damage=extra))
        if p.regen:
            regen = max(f.foe.regen, p.regen)
            d.emit(OpponentRegen(regen=regen, who=f.key))


def _bound(s: HexploreState, deltas: dict[str, dict[str, int]]) -> None:
    """Bound targets lose what the one they are tied to loses (once between a pair)."""
    done: set[frozenset[str]] = set()
    for hid in fighting(s):
        c = s.heroes[hid].conditions.get("bound")
        if c is None or not c.to or frozenset((hid, c.to)) in done:
            continue
        done.add(frozenset((hid, c.to)))
        for vital, n in dict(deltas.get(c.to, {})).items():
            if n < 0 and vital in ("health", "energy"):
                deltas.setdefault(hid, {})[vital] = deltas.get(hid, {}).get(vital, 0) + n


def _apply(
    d: Decision,
    who: str,
    row: dict[str, int],
    raised_by: int,
    c: Combat,
    raised: dict[str, int],
) -> None:
    """Emit one target's net change, capping Healing at its maximum."""
    s: HexploreState = d.state
    if is_foe(who) and who not in s.heroes:
        o = foe_of(c, who)
        if row.get("health", 0) > 0:
            top = max(o.max_health + raised_by, o.health)
            row["health"] = min(row["health"], top - o.health)
    elif who in s.allies:
        a = s.allies[who]
        if row.get("health", 0) > 0:
            row["health"] = max(0, min(row["health"], a.max_health - a.health))
        if row.get("energy", 0) > 0:
            del row["energy"]  # an ally has 0 Energy to restore
    else:
        h = s.heroes[who]
        for vital in ("health", "energy"):
            top = h.max_health if vital == "health" else h.max_energy
            top += raised.get(f"{who}.{vital}", 0)  # a Raise passes the maximum
            if row.get(vital, 0) > 0:
                row[vital] = max(0, min(row[vital], top - getattr(h, vital)))
    row = {k: v for k, v in row.items() if v}
    if row:
        d.emit("VitalsChanged", who=who, why=f"round {c.round}", **row)


def _round_end(
    d: Decision,
    chance: Chance,
    decls: dict[str, Declaration],
    constraint: dict[str, int],
    fresh: dict[str, set[str]],
    fronts: list[Front],
    lines: list[str],
) -> None:
    """Conditions that settle at the end of the Resolution phase.  Soul Laced heroes are
    bound to the first opponent standing."""
    s: HexploreState = d.state
    o, shield_hit = fronts[0].foe, fronts[0].shield_hit
    for hid, n in constraint.items():
        held = s.heroes[hid].conditions
        name = "swallowed" if "swallowed" in held else "encased"
        if name not in held:
            continue
        left = held[name].value - n
        if left <= 0:
            d.emit(ConditionLost(who=hid, condition=name))
            lines.append(f"{s.heroes[hid].name} breaks free")
        else:
            d.emit(ConditionChanged(who=hid, condition=name, fields={"value": left}))
    for hid in fighting(s):
        h = s.heroes[hid]
        x = decls.get(hid)
        new = fresh.get(hid, set())
        if "unconscious" in h.conditions and "unconscious" not in new:
            woken = any(y.wake == hid and not y.lost for y in decls.values())
            if not woken:
                tries = h.conditions["unconscious"].value
                r = chance.roll(
                    "hex_d6", for_=hid, why="Unconscious: wake up?", role="wake", who=h.name
                )[0]
                woken = r >= 6 - tries
                if not woken:
                    d.emit(
                        ConditionChanged(
                            who=hid, condition="unconscious", fields={"value": tries + 1}
                        )
                    )
            if woken:
                d.emit(ConditionLost(who=hid, condition="unconscious"))
                inflict(d, hid, GROGGY, rounds=1)
                new = new | {GROGGY}
                lines.append(f"{s.heroes[hid].name} wakes (-3 to every Ability rank next round)")
        if "frightened" in h.conditions and "frightened" not in new:
            outcome, _ = check_skill(d, chance, hid, "survival", "to shake off Fright")
            if outcome in SUCCEEDED:
                d.emit(ConditionLost(who=hid, condition="frightened"))
        defended = x is not None and x.action == "defend" and not x.lost
        if defended and "knocked_down" in h.conditions and "knocked_down" not in new:
            d.emit(ConditionLost(who=hid, condition="knocked_down"))
            lines.append(f"{s.heroes[hid].name} gets back up")
        if defended and "disarmed" in h.conditions and "disarmed" not in new:
            die = chance.roll(
                "skill_d10",
                for_=hid,
                why="reclaim the weapon (vs Attack)",
                role="reclaim",
                who=h.name,
            )[0]
            if skill_outcome(h.abilities["attack"], die) in SUCCEEDED:
                d.emit(ConditionLost(who=hid, condition="disarmed"))
                lines.append(f"{s.heroes[hid].name} reclaims their weapon")
        count_down(d, hid, new)
    for aid in s.allies:
        count_down(d, aid, fresh.get(aid, set()))
    for f in fronts:
        count_down(d, f.key, fresh.get(f.key, set()))
    laced = [h for h in fighting(s) if "soul_laced" in s.heroes[h].conditions]
    if laced and o.soul_shield <= 0 and shield_hit:
        for hid in laced:
            d.emit(ConditionLost(who=hid, condition="soul_laced"))
    elif laced:
        gain = sum(max(0, s.heroes[h].health) + max(0, s.heroes[h].energy) for h in laced)
        d.emit(
            VitalsChanged(
                who=fronts[0].key, soul_shield=gain, why="Soul Laced heroes feed the Soul Shield"
            )
        )


def _after_round(d: Decision, chance: Chance, content: HexContent, card: Opponent) -> None:
    s: HexploreState = d.state
    c = current(s)
    if not settle_foes(d, chance, content, card, influence=True):
        begin_round(d, chance, card, c.round + 1, content)
