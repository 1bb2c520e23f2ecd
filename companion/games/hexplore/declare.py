"""Declarations: each hero's action for the round, with the rolls it takes.

Conditions that limit a hero (Frightened, Knocked Down, Entangled, Encased, Swallowed,
Unconscious, Starving, Poisoned) are checked here, and Favored Opponent damage is rolled.
"""

from __future__ import annotations

from companion.core.rules import Chance, RuleError
from companion.core.tables import Decision
from companion.games.hexplore.args import Declare
from companion.games.hexplore.combat import end_combat
from companion.games.hexplore.common import hero_id, stacks, whole
from companion.games.hexplore.conditions import GROGGY
from companion.games.hexplore.content import HexContent
from companion.games.hexplore.dice import SUCCEEDED, hexplode
from companion.games.hexplore.events import Declared, FleeAttempted, HeroFled, VitalsChanged
from companion.games.hexplore.fight import ACTIONS, combat_in, fighting, find_opponent, vital_arg
from companion.games.hexplore.schema import Opponent
from companion.games.hexplore.skills import check_skill
from companion.games.hexplore.state import (
    OPPONENT,
    Combat,
    Declaration,
    HexploreState,
    OpponentState,
    solo,
    standing,
)
from companion.games.hexplore.tables import CONDITIONS, MAX_DECLARED, half


def declare(d: Decision, args: Declare, chance: Chance, content: HexContent) -> None:
    s: HexploreState = d.state
    c = combat_in(s, "declare")
    hid = hero_id(s, args.hero)
    h = s.heroes[hid]
    if hid not in fighting(s):
        raise RuleError(f"{h.name} is not fighting in this combat")
    if hid in c.declarations:
        raise RuleError(f"{h.name} has already declared this round (undo to change it)")
    if "unconscious" in h.conditions:
        raise RuleError(f"{h.name} is Unconscious and cannot act (an ally may Defend to wake them)")
    action = args.action
    if action is None or action not in ACTIONS:
        raise RuleError(f"action must be one of {', '.join(ACTIONS)}, not {action!r}")
    key, foe = _foe(c, args)
    card = find_opponent(content, foe.id)
    decl = Declaration(action=action, foe="" if key == OPPONENT else key)
    penalty = 3 * stacks(h, GROGGY)
    for name in ("frightened", "knocked_down"):
        if name in h.conditions:
            if action != "defend":
                raise RuleError(f"{h.name} is {name.replace('_', ' ').title()} and may only Defend")
            penalty += 3 * stacks(h, name) if name == "frightened" else 0
    if {"encased", "swallowed"} & set(h.conditions) and action != "attack":
        raise RuleError(
            f"{h.name} is held and may only Attack (the constraint or, if "
            "Swallowed, the opponent's insides)"
        )
    # What the table declared is checked before any die is asked for, so a slip of
    # the finger is refused with nothing rolled.
    _energy(s, hid, action, args, card, foe)
    _fill(Declaration(action=action), args, hid, 0, s)
    vital_arg(args.favored_vital, "favored_vital")
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
        d.emit(FleeAttempted(hero=hid, attempts=attempts, outcome=outcome))
        if outcome in SUCCEEDED:
            d.emit(HeroFled(hero=hid))
            if not fighting(s):
                end_combat(d, chance, content, card, "fled")
            return
        decl.notes.append("failed to Flee: may only Defend this round")
        action = "defend"
    energy = _energy(s, hid, action, args, card, foe)
    decl.defend_too = args.defend_too
    if energy and "poisoned" in h.conditions:
        outcome, _ = check_skill(d, chance, hid, "survival", "to use Energy while Poisoned")
        if outcome not in SUCCEEDED:
            decl.notes.append("Poisoned: Survival failed, no Energy used: Defends")
            action, energy = "defend", 0
    decl.action = action
    _fill(decl, args, hid, penalty, s)
    decl.energy_spent = energy
    if h.favored_opponent and h.favored_opponent == foe.type:
        rolls = hexplode(
            chance, for_=hid, why="Favored Opponent damage (HEXplodes)", role="favored", who=h.name
        )
        decl.favored_vital = vital_arg(args.favored_vital, "favored_vital")
        decl.favored = sum(rolls) * (2 if decl.favored_vital == "energy" else 1)
        decl.favored_rolls = rolls
    d.emit(Declared(hero=hid, declaration=decl))
    if energy:
        d.emit(VitalsChanged(who=hid, energy=-energy, why=f"{action} costs {energy} Energy"))


def _foe(c: Combat, args: Declare) -> tuple[str, OpponentState]:
    """The opponent a declaration is aimed at: the one `foe` names (opponent, opponent2 ...)
    or the first still standing.  "You do not need to specify a target at this time", but
    the mat records each hero's damage against one opponent, so the app asks now
    (Ruling 44)."""
    up = standing(c)
    asked = args.foe
    if asked is None or asked == "":
        return up[0]
    for key, o in up:
        if key == asked:
            return key, o
    names = ", ".join(f"{k} ({o.name})" for k, o in up)
    raise RuleError(f"no opponent {asked!r} stands in this combat (standing: {names})")


def _energy(
    s: HexploreState,
    hid: str,
    action: str,
    args: Declare,
    card: Opponent,
    foe: OpponentState,
) -> int:
    """The Energy an action costs, refused when the hero cannot pay it."""
    h = s.heroes[hid]
    energy = 0
    if action == "mastery":
        energy += whole(args.energy, "energy", minimum=1)
    if vital_arg(args.vital, "vital") == "influence" and action in ("attack", "mastery"):
        if not foe.savable:
            raise RuleError(f"{foe.name} cannot be Influenced")
        energy += card.influence_cost
    if args.defend_too:
        if not solo(s):
            raise RuleError("only a lone hero may Defend at half rank beside another action")
        energy += 1
    if energy and h.starving >= 1:
        raise RuleError(f"{h.name} is Starving and cannot use Energy")
    if energy and h.energy < energy:
        raise RuleError(f"{h.name} has {h.energy} Energy; this needs {energy}")
    return energy


def _fill(decl: Declaration, args: Declare, hid: str, penalty: int, s: HexploreState) -> None:
    """The numbers of a declaration: the hero's ranks unless the player says otherwise."""
    h = s.heroes[hid]
    if decl.action == "attack":
        asked = h.abilities["attack"] if args.amount is None else args.amount
        amount = whole(asked, "amount", maximum=MAX_DECLARED) - penalty
        if "disarmed" in h.conditions:
            amount = min(amount, h.base_attack)
        decl.amount = max(0, amount)
        decl.vital = vital_arg(args.vital, "vital")
        decl.piercing = whole(args.piercing, "piercing")
        decl.target = args.target
        if decl.target and "encased" in h.conditions:
            raise RuleError(f"{h.name} is Encased and strikes their own constraint: name no target")
        if "encased" in h.conditions:
            decl.target = hid
        elif decl.target:
            held = s.heroes.get(decl.target)
            if held is None:
                raise RuleError(f"there is no hero '{decl.target}' to strike free")
            if "encased" not in held.conditions:
                raise RuleError(
                    f"{held.name} is not Encased: there is no constraint "
                    "to attack (allies cannot reach a Swallowed hero)"
                )
    elif decl.action == "mastery":
        decl.amount = whole(args.amount or 0, "amount", maximum=MAX_DECLARED)
        decl.vital = vital_arg(args.vital, "vital")
        decl.piercing = whole(args.piercing, "piercing")
        decl.defend = whole(args.defend, "defend")
        decl.block = whole(args.block, "block")
    elif decl.action == "defend":
        rank = h.abilities["defend"]
        given = (
            whole(rank if args.amount is None else args.amount, "amount", maximum=MAX_DECLARED)
            if args.action == "defend"
            else rank
        )
        decl.defend = max(0, given - penalty)
        wake = args.wake
        if wake:
            ally = s.heroes.get(wake)
            if ally is None or "unconscious" not in ally.conditions:
                raise RuleError(f"{wake!r} is not Unconscious")
            decl.wake = wake
    if decl.defend_too:
        decl.defend = max(decl.defend, half(h.abilities["defend"]))
    decl.heal = whole(args.heal, "heal")
    if decl.heal and decl.action == "attack":
        raise RuleError("an Attack heals no one: use an item while Defending, or a Mastery")
    if decl.heal and decl.action == "defend" and (decl.wake or "knocked_down" in h.conditions):
        raise RuleError(f"{h.name} may not use an item while getting up or waking an ally")
    decl.raises = args.raise_
    if decl.raises and not decl.heal:
        raise RuleError("a Raise needs an amount: heal: <Raise amount>, raise: true")
    decl.nonlethal = args.nonlethal
    decl.heal_vital = vital_arg(args.heal_vital, "heal_vital")
    decl.heal_target = args.heal_target if decl.heal else ""
    if decl.heal_target and decl.heal_target not in s.heroes and decl.heal_target not in s.allies:
        raise RuleError(f"no hero or ally {decl.heal_target!r} to heal")
    inflicts = args.inflicts or {}
    if not all(v >= 0 for v in inflicts.values()) or not set(inflicts) <= set(CONDITIONS):
        raise RuleError(f"inflicts maps a condition ({', '.join(CONDITIONS)}) to rounds")
    decl.inflicts = dict(inflicts)
