"""Combat: declarations, the opponent's action and target dice, resolution, the end.

A round is three commands, as at the table: each hero `declare`s, `opponent_action` rolls
the action die and the target dice, and `resolve_round` settles every number at once.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import msgspec

from companion.core.rules import Chance, Decision, RuleError
from companion.games.hexplore.common import (
    OPPONENT,
    active_heroes,
    check_lost,
    hero,
    in_combat,
    in_play,
    stacks,
)
from companion.games.hexplore.conditions import (
    GROGGY,
    combat_over,
    count_down,
    heal_amount,
    inflict,
    upkeep,
)
from companion.games.hexplore.content import Action, Opponent
from companion.games.hexplore.dice import SUCCEEDED, hexplode, skill_outcome, target_dice
from companion.games.hexplore.resolution import Attack, hero_takes, heroes_attack, soak_shield
from companion.games.hexplore.rewards import give_rewards
from companion.games.hexplore.skills import check_skill
from companion.games.hexplore.state import (
    Combat,
    Declaration,
    HexploreState,
    LastAction,
    OpponentState,
)
from companion.games.hexplore.tables import (
    CONDITIONS,
    DIFFICULTIES,
    DIFFICULTY_ORDER,
    PLAY_STYLES,
    TARGET_COUNTS,
    VITALS,
    half,
    raised,
)

ACTIONS = ("attack", "defend", "mastery", "flee")
NUMBERS = (
    "health",
    "energy",
    "piercing",
    "defend",
    "block",
    "heal",
    "raise_",
    "regen",
    "fail_health",
    "fail_energy",
)


@dataclass
class Potency:
    """An action's numbers this round: halved when it defaulted or its user is Confused."""

    health: int = 0
    energy: int = 0
    piercing: int = 0
    defend: int = 0
    block: int = 0
    heal: int = 0
    raise_: int = 0
    regen: int = 0
    fail_health: int = 0
    fail_energy: int = 0

    @classmethod
    def of(cls, action: Action, halves: int = 0) -> Potency:
        values = {}
        for k in NUMBERS:
            v = getattr(action, k)
            for _ in range(halves):
                v = half(v)
            values[k] = v
        return cls(**values)


def find_opponent(content: Any, oid: Any) -> Opponent:
    if isinstance(oid, str):
        found = content.find("opponents", oid) or content.find(
            "opponents", f"hexplore/opponent/{oid}"
        )
        if found is not None:
            return found
    known = ", ".join(o.slug for o in content.all("opponents")) or "none"
    raise RuleError(f"no opponent {oid!r} in the content (known: {known})")


def fighting(s: HexploreState) -> list[str]:
    """Heroes still in this combat: not fled, not dead, not mindwiped."""
    c = s.combat
    return [h for h in c.heroes if h not in c.fled and in_play(s.heroes[h])]


def targetable(s: HexploreState) -> list[str]:
    return [h for h in fighting(s) if not {"encased", "swallowed"} & set(s.heroes[h].conditions)]


def _whole(args: dict[str, Any], key: str, default: int = 0) -> int:
    v = args.get(key, default)
    if isinstance(v, bool) or not isinstance(v, int) or v < 0:
        raise RuleError(f"{key} must be a whole number, 0 or more (not {v!r})")
    return v


def _vital(args: dict[str, Any], key: str, default: str = "health") -> str:
    v = args.get(key, default)
    if v not in VITALS:
        raise RuleError(f"{key} must be health, energy or influence, not {v!r}")
    return v


class CombatRules:
    # -- helpers -----------------------------------------------------------------------

    def _combat(self, s: HexploreState, phase: str) -> Combat:
        c = s.combat
        if c is None or c.phase == "over":
            raise RuleError("there is no combat under way: start_combat first")
        if c.phase != phase:
            step = {
                "declare": "the heroes are still declaring (then opponent_action)",
                "resolve": "the opponent has acted: resolve_round next",
            }[c.phase]
            raise RuleError(f"not now: {step}")
        return c

    # -- starting ----------------------------------------------------------------------

    def cmd_start_combat(self, d: Decision, args: dict[str, Any], chance: Chance, content) -> None:
        s: HexploreState = d.state
        if s.outcome:
            raise RuleError("the game is over")
        if in_combat(s):
            raise RuleError(f"the combat with {s.combat.opponent.name} is still under way")
        wanted = args.get("opponent")
        if wanted is None and s.adrimon_attacks:
            wanted = "adrimon"  # from Fate Cycle 10 she comes to the heroes every Event phase
        card = find_opponent(content, wanted)
        heroes = active_heroes(s)
        if not heroes:
            raise RuleError("no hero is able to fight")
        extra = args.get("dangerous", 0)
        extra = int(extra) if isinstance(extra, bool) else extra
        if not isinstance(extra, int) or extra < 0:
            raise RuleError("dangerous is true, or how many times the Difficulty rises")
        steps = int(card.dangerous) + extra
        difficulty = raised(s.difficulty, steps)
        row = DIFFICULTIES[difficulty]
        bonus = row.vitals_per_hero * len(heroes)
        shield = card.soul_shield
        if shield and card.type == "magi" and PLAY_STYLES[s.play_style].magi_shield_halved:
            shield //= 2
        shield = shield + bonus if shield else 0
        health = shield or card.health + bonus
        influence = card.influence + bonus if card.influence else 0
        sentinel = args.get("sentinel", "")
        if sentinel and not any(x.location == sentinel for x in s.sentinels):
            raise RuleError(f"no Sentinel stands at {sentinel!r}")
        opponent = OpponentState(
            id=card.id,
            name=card.title,
            kind=card.kind,
            type=card.type,
            level=card.level,
            health=health,
            energy=card.energy + bonus,
            soul_shield=shield,
            influence=influence,
            max_health=health,
            max_energy=card.energy + bonus,
            max_influence=influence,
            savable=bool(card.influence),
        )
        d.emit(
            "CombatStarted",
            opponent=msgspec.to_builtins(opponent),
            difficulty=difficulty,
            dangerous=steps,
            heroes=heroes,
            sentinel=sentinel,
            passive=card.kind == "boss" and row.passives and card.action("passive") is not None,
        )
        self._begin_round(d, chance, card, 1)

    def _begin_round(self, d: Decision, chance: Chance, card: Opponent, number: int) -> None:
        """The start of a Declaration phase: Conditions bite, a Boss's passive is rolled."""
        s: HexploreState = d.state
        d.emit("RoundBegan", round=number)
        for hid in fighting(s):
            upkeep(d, hid)
        upkeep(d, OPPONENT)
        passive = card.action("passive")
        if not s.combat.passive or passive is None:
            return
        bonus = DIFFICULTIES[s.combat.difficulty].damage
        p = Potency.of(passive)
        results: dict[str, dict[str, str]] = {}
        for hid in fighting(s):
            results[hid] = {
                k: check_skill(d, chance, hid, k, f"against {passive.name}")[0]
                for k in passive.skills
            }
        d.emit("PassiveRolled", name=passive.name, results=results)
        for hid, res in results.items():
            if not self._failed(passive, res):
                continue
            health = p.fail_health + bonus if p.fail_health else 0
            energy = p.fail_energy + bonus if p.fail_energy else 0
            if health or energy:
                d.emit(
                    "VitalsChanged",
                    who=hid,
                    health=-health,
                    energy=-energy,
                    why=f"failed against {passive.name}",
                )
            for e in passive.fail_conditions:
                inflict(d, hid, e.condition, e.rounds, e.value, e.damage)

    @staticmethod
    def _failed(action: Action, results: dict[str, str]) -> bool:
        failed = [k for k, r in results.items() if r not in SUCCEEDED]
        return bool([k for k in failed if not action.fail_skill or k == action.fail_skill])

    # -- declaring ---------------------------------------------------------------------

    def cmd_declare(self, d: Decision, args: dict[str, Any], chance: Chance, content) -> None:
        s: HexploreState = d.state
        c = self._combat(s, "declare")
        hid = args.get("hero")
        h = hero(s, hid)
        if hid not in fighting(s):
            raise RuleError(f"{hid} is not fighting in this combat")
        if hid in c.declarations:
            raise RuleError(f"{hid} has already declared this round (undo to change it)")
        if "unconscious" in h.conditions:
            raise RuleError(
                f"{hid} is Unconscious and cannot act (an ally may Defend to wake them)"
            )
        action = args.get("action")
        if action not in ACTIONS:
            raise RuleError(f"action must be one of {', '.join(ACTIONS)}, not {action!r}")
        card = find_opponent(content, c.opponent.id)
        decl = Declaration(action=action)
        penalty = 3 * stacks(h, GROGGY)
        for name in ("frightened", "knocked_down"):
            if name in h.conditions:
                if action != "defend":
                    raise RuleError(
                        f"{hid} is {name.replace('_', ' ').title()} and may only Defend"
                    )
                penalty += 3 * stacks(h, name) if name == "frightened" else 0
        if {"encased", "swallowed"} & set(h.conditions) and action != "attack":
            raise RuleError(
                f"{hid} is held and may only Attack (the constraint or, if "
                "Swallowed, the opponent's insides)"
            )
        if "entangled" in h.conditions:
            outcome, _ = check_skill(d, chance, hid, "navigate", "to act while Entangled")
            if outcome not in SUCCEEDED:
                penalty += 3 * stacks(h, "entangled")
                decl.notes.append("Entangled: Navigate failed, -3 and only Attack or Defend")
                if action not in ("attack", "defend"):
                    action = "defend"
        if action == "flee":
            attempts = c.flee_attempts.get(hid, 0) + 1
            outcome, _ = check_skill(d, chance, hid, "navigate", "to Flee", extra=-2 * attempts)
            d.emit("FleeAttempted", hero=hid, attempts=attempts, outcome=outcome)
            if outcome in SUCCEEDED:
                d.emit("HeroFled", hero=hid)
                if not fighting(s):
                    self._end_combat(d, chance, card, "fled")
                return
            decl.notes.append("failed to Flee: may only Defend this round")
            action = "defend"
        energy = 0
        vital = _vital(args, "vital")
        if action == "mastery":
            energy += _whole(args, "energy", 1)
        if vital == "influence" and action in ("attack", "mastery"):
            if not c.opponent.savable:
                raise RuleError(f"{c.opponent.name} cannot be Influenced")
            energy += card.influence_cost
        if args.get("defend_too"):
            if not s.solo:
                raise RuleError("only a lone hero may Defend at half rank beside another action")
            decl.defend_too = True
            energy += 1
        if energy:
            if h.starving >= 1:
                raise RuleError(f"{hid} is Starving and cannot use Energy")
            if h.energy < energy:
                raise RuleError(f"{hid} has {h.energy} Energy; this needs {energy}")
            if "poisoned" in h.conditions:
                outcome, _ = check_skill(d, chance, hid, "survival", "to use Energy while Poisoned")
                if outcome not in SUCCEEDED:
                    decl.notes.append("Poisoned: Survival failed, no Energy used: Defends")
                    action, energy = "defend", 0
        decl.action = action
        self._fill(decl, args, hid, penalty, s)
        decl.energy_spent = energy
        if h.favored_opponent and h.favored_opponent == c.opponent.type:
            rolls = hexplode(chance, for_=hid, why="Favored Opponent damage (HEXplodes)")
            decl.favored_vital = _vital(args, "favored_vital")
            decl.favored = sum(rolls) * (2 if decl.favored_vital == "energy" else 1)
            decl.favored_rolls = rolls
        d.emit("Declared", hero=hid, declaration=msgspec.to_builtins(decl))
        if energy:
            d.emit("VitalsChanged", who=hid, energy=-energy, why=f"{action} costs {energy} Energy")

    def _fill(
        self, decl: Declaration, args: dict[str, Any], hid: str, penalty: int, s: HexploreState
    ) -> None:
        """The numbers of a declaration: the hero's ranks unless the player says otherwise."""
        h = s.heroes[hid]
        if decl.action == "attack":
            amount = _whole(args, "amount", h.abilities["attack"]) - penalty
            if "disarmed" in h.conditions:
                amount = min(amount, h.base_attack)
            decl.amount = max(0, amount)
            decl.vital = _vital(args, "vital")
            decl.piercing = _whole(args, "piercing")
            decl.target = hid if "encased" in h.conditions else str(args.get("target", ""))
            if decl.target:
                held = s.heroes.get(decl.target)
                if held is None or "encased" not in held.conditions:
                    raise RuleError(
                        f"{decl.target!r} is not Encased: there is no constraint "
                        "to attack (allies cannot reach a Swallowed hero)"
                    )
        elif decl.action == "mastery":
            decl.amount = _whole(args, "amount")
            decl.vital = _vital(args, "vital")
            decl.piercing = _whole(args, "piercing")
            decl.defend = _whole(args, "defend")
            decl.block = _whole(args, "block")
        elif decl.action == "defend":
            rank = h.abilities["defend"]
            given = _whole(args, "amount", rank) if args.get("action") == "defend" else rank
            decl.defend = max(0, given - penalty)
            wake = str(args.get("wake", ""))
            if wake:
                ally = s.heroes.get(wake)
                if ally is None or "unconscious" not in ally.conditions:
                    raise RuleError(f"{wake!r} is not Unconscious")
                decl.wake = wake
        if decl.defend_too:
            decl.defend = max(decl.defend, half(h.abilities["defend"]))
        decl.heal = _whole(args, "heal")
        decl.heal_vital = _vital(args, "heal_vital")
        decl.heal_target = str(args.get("heal_target", "")) if decl.heal else ""
        if decl.heal_target and decl.heal_target not in s.heroes:
            raise RuleError(f"no hero {decl.heal_target!r} to heal")
        inflicts = args.get("inflicts") or {}
        if not isinstance(inflicts, dict):
            raise RuleError("inflicts maps a condition to its rounds, e.g. {drained: 2}")
        if not all(
            isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in inflicts.values()
        ) or not set(inflicts) <= set(CONDITIONS):
            raise RuleError(f"inflicts maps a condition ({', '.join(CONDITIONS)}) to rounds")
        decl.inflicts = dict(inflicts)

    # -- the opponent acts -------------------------------------------------------------

    def cmd_opponent_action(
        self, d: Decision, args: dict[str, Any], chance: Chance, content
    ) -> None:
        s: HexploreState = d.state
        c = self._combat(s, "declare")
        waiting = [
            h
            for h in fighting(s)
            if h not in c.declarations and "unconscious" not in s.heroes[h].conditions
        ]
        if waiting:
            raise RuleError(f"waiting for declarations from {', '.join(waiting)}")
        card = find_opponent(content, c.opponent.id)
        roll = chance.roll("hex_d6", for_="opponent", why=f"{card.title}'s action")[0]
        wanted = card.rolled(roll)
        action, defaulted = wanted, False
        if wanted.cost > c.opponent.energy:
            action, defaulted = card.action(wanted.default), True
        p = Potency.of(action, 1 if defaulted else 0)
        bonus = DIFFICULTIES[c.difficulty].damage
        hits: dict[str, int] = {}
        rolls: dict[str, list[int]] = {}
        candidates = targetable(s)

        def vulnerable(h: str) -> int:
            return 2 * stacks(s.heroes[h], "vulnerable")

        if action.target == "group":
            hits = {h: 1 for h in candidates}
        elif action.target in TARGET_COUNTS:
            n = TARGET_COUNTS[action.target] + DIFFICULTIES[c.difficulty].extra_targets
            why = f"target dice for {action.name or action.key}"
            if action.unyielding:
                for i in range(n):
                    chosen, r = target_dice(
                        chance, candidates, 1, f"{why} (attack {i + 1})", vulnerable
                    )
                    for h, v in r.items():
                        rolls.setdefault(h, []).extend(v)
                    for h in chosen:
                        hits[h] = hits.get(h, 0) + 1
            else:
                chosen, rolls = target_dice(chance, candidates, n, why, vulnerable)
                hits = {h: 1 for h in chosen}
        skill_rolls = {
            t: {k: check_skill(d, chance, t, k, f"against {action.name}")[0] for k in action.skills}
            for t in hits
            if action.skills
        }
        d.emit(
            "OpponentActed",
            roll=roll,
            ability=action.key,
            name=action.name or action.key,
            wanted=wanted.key if defaulted else "",
            defaulted=defaulted,
            energy_spent=0 if defaulted else wanted.cost,
            targets=list(hits),
            hits=hits,
            target_rolls=rolls,
            skill_rolls=skill_rolls,
            health=p.health + bonus if p.health else 0,
            energy=p.energy + bonus if p.energy else 0,
            piercing=p.piercing,
            halved=defaulted,
        )
        if wanted.cost and not defaulted:
            d.emit(
                "VitalsChanged",
                who=OPPONENT,
                energy=-wanted.cost,
                why=f"{wanted.name or wanted.key} costs {wanted.cost} Energy",
            )

    # -- resolution --------------------------------------------------------------------

    def cmd_resolve_round(self, d: Decision, args: dict[str, Any], chance: Chance, content) -> None:
        s: HexploreState = d.state
        c = self._combat(s, "resolve")
        card = find_opponent(content, c.opponent.id)
        la = c.last_action
        act = card.action(la.ability)
        o = c.opponent
        lines: list[str] = []
        decls = {h: replace(x) for h, x in c.declarations.items()}
        if act.loses_action:
            for t in la.targets:
                if t in decls:
                    decls[t].lost = True
                    lines.append(f"{t} loses their action ({act.name})")
        # Confused resolves before damage: even loses the action, odd halves it.
        for hid in fighting(s):
            if "confused" in s.heroes[hid].conditions and hid in decls and not decls[hid].lost:
                r = chance.roll("hex_d6", for_=hid, why="Confused: even loses the action")[0]
                decls[hid].lost, decls[hid].halved = r % 2 == 0, r % 2 == 1
                lines.append(
                    f"{hid} is Confused ({r}): action {'lost' if r % 2 == 0 else 'halved'}"
                )
        opp_lost = False
        halves = 1 if la.halved else 0
        if "confused" in o.conditions:
            r = chance.roll("hex_d6", for_=OPPONENT, why="Confused: even loses the action")[0]
            opp_lost, halves = r % 2 == 0, halves + (r % 2)
            lines.append(f"{o.name} is Confused ({r}): action {'lost' if opp_lost else 'halved'}")
        p = Potency() if opp_lost else Potency.of(act, halves)
        deltas: dict[str, dict[str, int]] = {}

        def add(who: str, vital: str, n: int) -> None:
            if n:
                row = deltas.setdefault(who, {})
                row[vital] = row.get(vital, 0) + n

        # The heroes' actions against the opponent.
        attacks: list[Attack] = []
        influence = 0
        constraint: dict[str, int] = {}
        favored = {v: 0 for v in VITALS}
        for hid, x in decls.items():
            favored[x.favored_vital] += x.favored
            if x.lost or x.action not in ("attack", "mastery") or x.amount <= 0:
                continue
            amount = half(x.amount) if x.halved else x.amount
            if "swallowed" in s.heroes[hid].conditions:
                constraint[hid] = constraint.get(hid, 0) + amount
            if x.target:
                constraint[x.target] = constraint.get(x.target, 0) + amount
                lines.append(f"{hid} strikes the constraint holding {x.target} for {amount}")
            elif x.vital == "influence":
                influence += amount
            else:
                attacks.append(Attack(hid, x.vital, amount, x.piercing))
        out = heroes_attack(
            attacks,
            defend=p.defend,
            block=p.block,
            negate=act.negate and not opp_lost,
            halve_health=act.halve_health_damage and not opp_lost,
            vulnerable=stacks(o, "vulnerable"),
        )
        lines.extend(out.lines)
        health_in, energy_in = out.taken.total("health"), out.taken.total("energy")
        if act.reflect and not opp_lost:
            for hid, dealt in out.dealt.items():
                for vital, n in dealt.items():
                    add(hid, vital, -n)
                    lines.append(f"{o.name} Reflects {n} {vital} damage back onto {hid}")
            health_in = energy_in = 0
        shielded = o.soul_shield > 0
        shield_hit = 0
        if shielded:
            total = health_in + energy_in + sum(favored.values())
            shield_hit, wasted = soak_shield(o.soul_shield, total)
            add(OPPONENT, "soul_shield", -shield_hit)
            lines.append(
                f"Soul Shield takes {total}: {o.soul_shield} -> "
                f"{o.soul_shield - shield_hit}"
                + (f"; {wasted} does not carry over" if wasted else "")
            )
            if influence:
                lines.append(f"{influence} Influence is lost on the Soul Shield")
        else:
            add(OPPONENT, "health", -(health_in + favored["health"]))
            add(OPPONENT, "energy", -(energy_in + favored["energy"]))
            if o.savable:
                add(OPPONENT, "influence", -(influence + favored["influence"]))
            lines.append(
                f"{o.name} takes {health_in + favored['health']} Health and "
                f"{energy_in + favored['energy']} Energy damage"
                + (f", {influence + favored['influence']} Influence" if o.savable else "")
            )
        if shield_hit:
            for hid in fighting(s):
                if "soul_laced" in s.heroes[hid].conditions:
                    add(hid, "energy", -2 * o.level)
                    lines.append(f"{hid} is Soul Laced: {2 * o.level} Piercing Energy Drain")
        # The opponent's action against the heroes.
        bonus = DIFFICULTIES[c.difficulty].damage
        damage = {
            "health": p.health + bonus if p.health else 0,
            "energy": p.energy + bonus if p.energy else 0,
        }
        hurt: set[str] = set()
        if not opp_lost:
            for t, k in la.hits.items():
                x = decls.get(t)
                defend = x.defend if x and not x.lost else 0
                block = x.block if x and not x.lost else 0
                taken = hero_takes(
                    damage, p.piercing, k, defend, block, stacks(s.heroes[t], "vulnerable")
                )
                for vital in ("health", "energy"):
                    add(t, vital, -taken.total(vital))
                if taken.total("health") or taken.total("energy"):
                    hurt.add(t)
                lines.append(
                    f"{t} suffers {taken.total('health')} Health and "
                    f"{taken.total('energy')} Energy" + (f" (Defend {defend})" if defend else "")
                )
            for t, res in la.skill_rolls.items():
                if self._failed(act, res):
                    fh = p.fail_health + bonus if p.fail_health else 0
                    fe = p.fail_energy + bonus if p.fail_energy else 0
                    add(t, "health", -fh)
                    add(t, "energy", -fe)
        # Healing joins the same total; it cannot lift a Vital past its maximum.
        healed: set[str] = set()
        for hid, x in decls.items():
            if x.heal and not x.lost:
                t = x.heal_target or hid
                healed.add(t)
                add(
                    t,
                    x.heal_vital,
                    heal_amount(s.heroes[t], x.heal_vital, half(x.heal) if x.halved else x.heal),
                )
        if p.heal or p.raise_:
            add(OPPONENT, "health", heal_amount(o, "health", p.heal) + p.raise_)
        self._bound(s, deltas)
        for who, row in deltas.items():
            self._apply(d, who, row, raised_by=p.raise_ if who == OPPONENT else 0, c=c)
        # Conditions come after the damage.
        fresh: dict[str, set[str]] = {}

        def give(who: str, e_condition: str, rounds: int = 0, value: int = 0, dmg: int = 0) -> None:
            inflict(d, who, e_condition, rounds, value, dmg)
            fresh.setdefault(who, set()).add(e_condition)

        if not opp_lost:
            deals = bool(damage["health"] or damage["energy"])
            for t in la.hits:
                if deals and t not in hurt:
                    continue
                for e in act.conditions:
                    give(t, e.condition, e.rounds, e.value, e.damage)
            for t, res in la.skill_rolls.items():
                if self._failed(act, res):
                    for e in act.fail_conditions:
                        give(t, e.condition, e.rounds, e.value, e.damage)
            for hid, dealt in out.dealt.items():
                if dealt.get("health"):
                    for e in act.damage_dealer_conditions:
                        give(hid, e.condition, e.rounds)
            if p.regen:
                d.emit("OpponentRegen", regen=max(o.regen, p.regen))
        for hid, x in decls.items():
            if x.lost or not x.inflicts:
                continue
            if shielded:
                lines.append(
                    f"{hid}'s {', '.join(x.inflicts)} lands on the Soul Shield and "
                    "does not carry over"
                )
                continue
            for cond, rounds in x.inflicts.items():
                give(OPPONENT, cond, rounds)
        for t in healed:
            if t in s.heroes and "bleeding" in s.heroes[t].conditions:
                d.emit("ConditionLost", who=t, condition="bleeding")
        self._round_end(d, chance, decls, constraint, fresh, shield_hit, lines)
        d.emit("RoundResolved", round=c.round, lines=lines)
        self._after_round(d, chance, card)

    def _bound(self, s: HexploreState, deltas: dict[str, dict[str, int]]) -> None:
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

    def _apply(self, d: Decision, who: str, row: dict[str, int], raised_by: int, c: Combat) -> None:
        """Emit one target's net change, capping Healing at its maximum."""
        s: HexploreState = d.state
        if who == OPPONENT:
            o = c.opponent
            if row.get("health", 0) > 0:
                top = max(o.max_health + raised_by, o.health)
                row["health"] = min(row["health"], top - o.health)
        else:
            h = s.heroes[who]
            for vital in ("health", "energy"):
                top = h.max_health if vital == "health" else h.max_energy
                if row.get(vital, 0) > 0:
                    row[vital] = max(0, min(row[vital], top - getattr(h, vital)))
        row = {k: v for k, v in row.items() if v}
        if row:
            d.emit("VitalsChanged", who=who, why=f"round {c.round}", **row)

    def _round_end(
        self,
        d: Decision,
        chance: Chance,
        decls: dict[str, Declaration],
        constraint: dict[str, int],
        fresh: dict[str, set[str]],
        shield_hit: int,
        lines: list[str],
    ) -> None:
        """Conditions that settle at the end of the Resolution phase."""
        s: HexploreState = d.state
        o = s.combat.opponent
        for hid, n in constraint.items():
            held = s.heroes[hid].conditions
            name = "swallowed" if "swallowed" in held else "encased"
            if name not in held:
                continue
            left = held[name].value - n
            if left <= 0:
                d.emit("ConditionLost", who=hid, condition=name)
                lines.append(f"{hid} breaks free")
            else:
                d.emit("ConditionChanged", who=hid, condition=name, fields={"value": left})
        for hid in fighting(s):
            h = s.heroes[hid]
            x = decls.get(hid)
            new = fresh.get(hid, set())
            if "unconscious" in h.conditions and "unconscious" not in new:
                woken = any(y.wake == hid and not y.lost for y in decls.values())
                if not woken:
                    tries = h.conditions["unconscious"].value
                    r = chance.roll("hex_d6", for_=hid, why="Unconscious: wake up?")[0]
                    woken = r >= 6 - tries
                    if not woken:
                        d.emit(
                            "ConditionChanged",
                            who=hid,
                            condition="unconscious",
                            fields={"value": tries + 1},
                        )
                if woken:
                    d.emit("ConditionLost", who=hid, condition="unconscious")
                    inflict(d, hid, GROGGY, rounds=1)
                    new = new | {GROGGY}
                    lines.append(f"{hid} wakes (-3 to every Ability rank next round)")
            if "frightened" in h.conditions and "frightened" not in new:
                outcome, _ = check_skill(d, chance, hid, "survival", "to shake off Fright")
                if outcome in SUCCEEDED:
                    d.emit("ConditionLost", who=hid, condition="frightened")
            defended = x is not None and x.action == "defend" and not x.lost
            if defended and "knocked_down" in h.conditions and "knocked_down" not in new:
                d.emit("ConditionLost", who=hid, condition="knocked_down")
                lines.append(f"{hid} gets back up")
            if defended and "disarmed" in h.conditions and "disarmed" not in new:
                die = chance.roll("skill_d10", for_=hid, why="reclaim the weapon (vs Attack)")[0]
                if skill_outcome(h.abilities["attack"], die) in SUCCEEDED:
                    d.emit("ConditionLost", who=hid, condition="disarmed")
                    lines.append(f"{hid} reclaims their weapon")
            count_down(d, hid, new)
        count_down(d, OPPONENT, fresh.get(OPPONENT, set()))
        laced = [h for h in fighting(s) if "soul_laced" in s.heroes[h].conditions]
        if laced and o.soul_shield <= 0 and shield_hit:
            for hid in laced:
                d.emit("ConditionLost", who=hid, condition="soul_laced")
        elif laced:
            gain = sum(max(0, s.heroes[h].health) + max(0, s.heroes[h].energy) for h in laced)
            d.emit(
                "VitalsChanged",
                who=OPPONENT,
                soul_shield=gain,
                why="Soul Laced heroes feed the Soul Shield",
            )

    def _after_round(self, d: Decision, chance: Chance, card: Opponent) -> None:
        s: HexploreState = d.state
        c = s.combat
        o = c.opponent
        if o.savable and o.soul_shield <= 0 and o.influence <= 0:
            self._end_combat(d, chance, card, "influenced")
        elif o.health <= 0:
            self._end_combat(d, chance, card, "vanquished")
        elif not fighting(s):
            self._end_combat(d, chance, card, "fled" if c.fled else "heroes_fell")
        elif all(s.heroes[h].health <= 0 for h in fighting(s)):
            self._end_combat(d, chance, card, "heroes_fell")
        else:
            self._begin_round(d, chance, card, c.round + 1)

    # -- the end -----------------------------------------------------------------------

    def _end_combat(self, d: Decision, chance: Chance, card: Opponent, outcome: str) -> None:
        """Death only now, for whoever is still at 0 Health (or Tethered at 0 Energy);
        negative Vitals come back to 0; then the rewards."""
        s: HexploreState = d.state
        c = s.combat
        for hid in c.heroes:
            h = s.heroes[hid]
            if h.dead or h.vanished:
                continue
            tethered = "tethered" in h.conditions and (h.health <= 0 or h.energy <= 0)
            if h.health <= 0 or tethered:
                d.emit(
                    "HeroDied",
                    hero=hid,
                    why="still at 0 when combat ended" if not tethered else "Tethered at 0",
                )
            low = {v: -getattr(h, v) for v in ("health", "energy") if getattr(h, v) < 0}
            if low:
                d.emit("VitalsChanged", who=hid, why="negative Vitals return to 0", **low)
            if not s.heroes[hid].dead:
                combat_over(d, hid)
        o = c.opponent
        low = {
            v: -getattr(o, v)
            for v in ("health", "energy", "soul_shield", "influence")
            if getattr(o, v) < 0
        }
        if low:
            d.emit("VitalsChanged", who=OPPONENT, why="negative Vitals return to 0", **low)
        d.emit("CombatEnded", outcome=outcome, opponent=o.id, kind=o.kind)
        if outcome in ("vanquished", "influenced"):
            give_rewards(d, chance, card, outcome)
            if c.sentinel:
                d.emit("SentinelDefeated", at=c.sentinel)
            if o.kind == "boss":
                d.emit("BossDefeated", boss=o.id)
                done = len(s.bosses_defeated)
                if s.play_style == "marathon" and done % 2 == 1 and s.difficulty != "epic":
                    d.emit(
                        "DifficultyRaised",
                        difficulty=raised(s.difficulty, 1),
                        why=f"Marathon: boss {done} defeated",
                    )
            if o.type == "magi":
                d.emit("GameWon", why="Adrimon is defeated")
        if outcome == "fled":
            roll = chance.roll("hex_d6", for_="group", why="the group Wanders after fleeing")[0]
            d.emit("GroupWandered", direction=roll, stayed=False, why="fled from combat")
        check_lost(d)

    def cmd_inflict(self, d: Decision, args: dict[str, Any], chance: Chance, content) -> None:
        """A Condition from something the app does not run (a card, a Mastery, an item)."""
        who, name = self._condition_args(d.state, args)
        numbers = {k: _whole(args, k) for k in ("rounds", "value", "damage")}
        to = str(args.get("to", ""))
        if name == "bound" and to not in d.state.heroes:
            raise RuleError("say which hero the Bound target is tied to (to: <hero>)")
        inflict(d, who, name, to=to, **numbers)

    def cmd_cure(self, d: Decision, args: dict[str, Any], chance: Chance, content) -> None:
        who, name = self._condition_args(d.state, args)
        holder = d.state.combat.opponent if who == OPPONENT else d.state.heroes[who]
        if name not in holder.conditions:
            raise RuleError(f"{who} is not {name.replace('_', ' ')}")
        if name in ("encased", "soul_laced"):
            raise RuleError(f"{name.replace('_', ' ').title()} may not be removed that way")
        d.emit("ConditionLost", who=who, condition=name)

    def _condition_args(self, s: HexploreState, args: dict[str, Any]) -> tuple[str, str]:
        who = args.get("who")
        if who == OPPONENT:
            if not in_combat(s):
                raise RuleError("there is no opponent outside combat")
        else:
            hero(s, who)
        name = args.get("condition")
        if name not in CONDITIONS:
            raise RuleError(f"unknown condition {name!r} (known: {', '.join(CONDITIONS)})")
        return who, name

    def cmd_raise_difficulty(
        self, d: Decision, args: dict[str, Any], chance: Chance, content
    ) -> None:
        s: HexploreState = d.state
        if in_combat(s):
            raise RuleError("the Difficulty can only be raised outside combat")
        to = args.get("to", raised(s.difficulty, 1))
        if not isinstance(to, str) or to not in DIFFICULTIES:
            raise RuleError(f"difficulty must be one of {', '.join(DIFFICULTIES)}")
        if DIFFICULTY_ORDER.index(to) <= DIFFICULTY_ORDER.index(s.difficulty):
            raise RuleError(f"the Difficulty is {s.difficulty} and can never be lowered")
        d.emit("DifficultyRaised", difficulty=to, why="the group chose")

    # -- events ------------------------------------------------------------------------

    def on_CombatStarted(self, s: HexploreState, e: dict[str, Any]) -> None:
        s.combat = Combat(
            opponent=msgspec.convert(e["opponent"], OpponentState),
            difficulty=e["difficulty"],
            dangerous=e["dangerous"],
            heroes=list(e["heroes"]),
            passive=e["passive"],
            sentinel=e.get("sentinel", ""),
            round=0,
        )

    def text_CombatStarted(self, e: dict[str, Any]) -> str:
        o = e["opponent"]
        shield = f", Soul Shield {o['soul_shield']}" if o["soul_shield"] else ""
        return (
            f"Combat with {o['name']} on {e['difficulty'].title()}: Health {o['health']}, "
            f"Energy {o['energy']}{shield}"
        )

    def on_RoundBegan(self, s: HexploreState, e: dict[str, Any]) -> None:
        c = s.combat
        c.round = e["round"]
        c.phase = "declare"
        c.declarations = {}

    def text_RoundBegan(self, e: dict[str, Any]) -> str:
        return f"Round {e['round']}: declare actions"

    def on_PassiveRolled(self, s: HexploreState, e: dict[str, Any]) -> None:
        for hid, res in e["results"].items():
            s.last_skill_rolls.setdefault(hid, {}).update(res)

    def on_Declared(self, s: HexploreState, e: dict[str, Any]) -> None:
        s.combat.declarations[e["hero"]] = msgspec.convert(e["declaration"], Declaration)

    def text_Declared(self, e: dict[str, Any]) -> str:
        x = e["declaration"]
        what = f"{x['action']} {x['amount']} {x['vital']}" if x["amount"] else x["action"]
        fav = f", Favored {x['favored']} {x['favored_vital']}" if x["favored"] else ""
        return f"{e['hero']} declares {what}{fav}"

    def on_FleeAttempted(self, s: HexploreState, e: dict[str, Any]) -> None:
        s.combat.flee_attempts[e["hero"]] = e["attempts"]

    def on_HeroFled(self, s: HexploreState, e: dict[str, Any]) -> None:
        s.combat.fled.append(e["hero"])

    def on_OpponentActed(self, s: HexploreState, e: dict[str, Any]) -> None:
        fields = {
            k: e[k]
            for k in (
                "roll",
                "ability",
                "name",
                "wanted",
                "defaulted",
                "energy_spent",
                "targets",
                "hits",
                "target_rolls",
                "skill_rolls",
                "health",
                "energy",
                "piercing",
                "halved",
            )
        }
        s.combat.last_action = LastAction(**fields)
        s.combat.phase = "resolve"
        for hid, res in e["skill_rolls"].items():
            s.last_skill_rolls.setdefault(hid, {}).update(res)

    def text_OpponentActed(self, e: dict[str, Any]) -> str:
        why = f" (wanted {e['wanted']}, too little Energy: half potency)" if e["defaulted"] else ""
        targets = ", ".join(e["targets"]) or "no one"
        return f"Action die {e['roll']}: {e['name']}{why} against {targets}"

    def on_OpponentRegen(self, s: HexploreState, e: dict[str, Any]) -> None:
        s.combat.opponent.regen = e["regen"]

    def on_RoundResolved(self, s: HexploreState, e: dict[str, Any]) -> None:
        s.combat.resolution = list(e["lines"])

    def text_RoundResolved(self, e: dict[str, Any]) -> str:
        return f"Round {e['round']} resolved: " + "; ".join(e["lines"])

    def on_CombatEnded(self, s: HexploreState, e: dict[str, Any]) -> None:
        s.combat.phase = "over"
        s.combat.outcome = e["outcome"]
        s.last_combat = e["outcome"]

    def on_BossDefeated(self, s: HexploreState, e: dict[str, Any]) -> None:
        s.bosses_defeated.append(e["boss"])

    def on_DifficultyRaised(self, s: HexploreState, e: dict[str, Any]) -> None:
        s.difficulty = e["difficulty"]
