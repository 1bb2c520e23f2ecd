"""The hero action phase's commands: Basic Attack, Charge Attack, Skill Action, Item cards,
pass; and the Retainer cards any majority may summon."""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.core.rules import Chance, RuleError
from companion.core.tables import Decision
from companion.games.kradia import content as cards
from companion.games.kradia.args import (
    ActionArgs,
    BasicAttackArgs,
    ChargeAttackArgs,
    EndTurnArgs,
    HeroArgs,
    PassArgs,
    SkillArgs,
    SummonRetainerArgs,
    UseItemArgs,
)
from companion.games.kradia.effects import apply_effects, damage_boss, enhance, hero_card
from companion.games.kradia.events import (
    ActionTaken,
    AttackBuffSet,
    BasicAttacked,
    ChargeChosen,
    ChargeRolled,
    ItemUsed,
    Passed,
    RetainerSummoned,
    SkillUsed,
)
from companion.games.kradia.schema import Effect
from companion.games.kradia.setup import ref
from companion.games.kradia.state import KradiaState, charge_choices
from companion.games.kradia.turns import (
    affordable,
    available_skills,
    blocked,
    charge_table,
    closed_actions,
    finish_turn,
    name,
    require_action,
    require_turn,
)

if TYPE_CHECKING:
    from companion.content.pack import Content


def _hero(args: HeroArgs) -> str:
    if not args.hero:
        raise RuleError("say which hero acts (hero)")
    return args.hero


def _done(d: Decision, content: Content, hero: str, args: ActionArgs) -> None:
    """End the turn, or keep it open for Item cards when the player asks (end_turn: false)."""
    if d.state.outcome:
        return
    if not args.end_turn:
        d.emit(ActionTaken(hero=hero))
    else:
        finish_turn(d, content, hero)


def lines(effects: list[Effect]) -> list[Effect]:
    """Every line of a card, those inside its either/or outcomes too."""
    out: list[Effect] = []
    for e in effects:
        out += [e, *lines([x for choice in e.either for x in choice.effects])]
    return out


def aims_at_ally(effects: list[Effect]) -> bool:
    """Whether the card's player names the hero it is for (`target`)."""
    return any(e.target == "ally" for e in lines(effects))


def target_refusal(state: KradiaState, effects: list[Effect], chosen: object) -> str | None:
    """Why the card cannot help `chosen`, or None when it can (or aims at no ally)."""
    aimed = [e for e in lines(effects) if e.target == "ally" and not e.either]
    if not aimed:
        return None
    if not isinstance(chosen, str) or chosen not in state.heroes:
        return f"say which hero this is for (target: one of {', '.join(state.order)})"
    h = state.heroes[chosen]
    who = name(state, chosen)
    if h.retired:
        return f"{who} has retired from the battle"
    restores = any(e.restore for e in aimed)
    if h.fading and not restores:
        return (
            f"{who} is Fading: HP recovery has no effect; only a skill or item "
            "that restores a Fading hero (such as the Elixir) brings them back"
        )
    if not h.fading and restores and all(e.restore and not (e.heal or e.damage) for e in aimed):
        return f"{who} is not Fading: this only restores a Fading hero"
    return None


def check_target(state: KradiaState, effects: list[Effect], chosen: object) -> str | None:
    """Refuse a target the card cannot help, before anything is spent."""
    why = target_refusal(state, effects, chosen)
    if why:
        raise RuleError(why)
    # a card aiming at an ally has just checked `chosen` names a hero (target_refusal)
    return chosen if aims_at_ally(effects) and isinstance(chosen, str) else None


def basic_attack(d: Decision, args: BasicAttackArgs, chance: Chance, content: Content) -> None:
    hero = _hero(args)
    require_action(content, d.state, hero, "basic_attack")
    h = d.state.heroes[hero]
    damage = 1 + h.attack_buff
    d.emit(BasicAttacked(hero=hero, damage=damage))
    if h.attack_buff:
        d.emit(AttackBuffSet(who=hero, value=0, why="the Attack Buff is spent"))
    damage_boss(d, content, damage, f"{name(d.state, hero)}'s Basic Attack")
    enhance(d, hero)  # read after the damage: see docs/rulings/kradia.md
    _done(d, content, hero, args)


def charge_attack(d: Decision, args: ChargeAttackArgs, chance: Chance, content: Content) -> None:
    hero = _hero(args)
    require_action(content, d.state, hero, "charge_attack")
    effect = args.effect
    pending = d.state.charge
    if pending is None:
        who = hero_card(content, d.state, hero).title
        why = f"{who}'s Charge Attack"
        roll = chance.roll("d6", 1, for_=hero, why=why, role="charge", who=who)[0]
        d.emit(ChargeRolled(hero=hero, roll=roll, choices=charge_choices(roll)))
        if effect is None:
            return  # the player chooses once the die is seen
    elif effect is None:
        raise RuleError(f"choose the Charge Attack effect for the roll of {pending.roll}")
    charge = d.state.charge
    assert charge is not None
    if effect not in charge.choices:
        allowed = " or ".join(f"#{c}" for c in charge.choices)
        raise RuleError(f"a roll of {charge.roll} allows Charge Attack {allowed}, not #{effect}")
    h = d.state.heroes[hero]
    effects = charge_table(hero_card(content, d.state, hero), h.level)[effect]
    d.emit(ChargeChosen(hero=hero, roll=charge.roll, effect=effect))
    apply_effects(d, content, effects, actor=hero, why=f"Charge Attack #{effect}", chance=chance)
    _done(d, content, hero, args)


def skill(d: Decision, args: SkillArgs, chance: Chance, content: Content) -> None:
    hero = _hero(args)
    require_action(content, d.state, hero, "skill")
    skills = available_skills(content, d.state, hero)
    wanted = args.skill
    if wanted is None or wanted not in skills:
        known = ", ".join(skills) or "none yet"
        what = "say which skill" if wanted is None else f"there is no skill '{wanted}'"
        level = d.state.heroes[hero].level
        raise RuleError(f"{what} (at Level {level} {name(d.state, hero)} has: {known})")
    entry = skills[wanted]
    h = d.state.heroes[hero]
    if not affordable(h, entry):
        raise RuleError(
            f"{wanted} costs {entry.red} red and {entry.blue} blue Mana; "
            f"{name(d.state, hero)} has {h.red} red and {h.blue} blue"
        )
    chosen = check_target(d.state, entry.effects, args.target)
    d.emit(
        SkillUsed(
            hero=hero,
            skill=wanted,
            level=entry.level,
            red=h.red - entry.red,
            blue=h.blue - entry.blue,
        )
    )
    apply_effects(
        d, content, entry.effects, actor=hero, chosen=chosen, why=f"skill {wanted}", chance=chance
    )
    _done(d, content, hero, args)


def use_item(d: Decision, args: UseItemArgs, chance: Chance, content: Content) -> None:
    hero = _hero(args)
    require_turn(d.state, hero)
    why = blocked(content, d.state, hero).get("item")
    if why:
        raise RuleError(why)
    h = d.state.heroes[hero]
    item = ref(content, "items", args.item, "item card")
    if item not in h.items:
        held = ", ".join(i.rsplit("/", 1)[-1] for i in h.items) or "none"
        title = cards.item(content, item).title
        raise RuleError(f"{name(d.state, hero)} does not hold {title} (holds: {held})")
    card = cards.item(content, item)
    chosen = check_target(d.state, card.effects, args.target)
    d.emit(ItemUsed(hero=hero, item=item))
    apply_effects(
        d, content, card.effects, actor=hero, chosen=chosen, why=card.title, chance=chance
    )


def pass_turn(d: Decision, args: PassArgs, chance: Chance, content: Content) -> None:
    hero = _hero(args)
    require_turn(d.state, hero)
    if d.state.charge is not None:
        raise RuleError(f"{name(d.state, hero)} rolled for a Charge Attack: choose its effect")
    if d.state.turn_done:
        raise RuleError(f"{name(d.state, hero)} has taken an action: end the turn instead")
    closed = closed_actions(content, d.state, hero)
    open_ = [a for a in ("basic_attack", "charge_attack", "skill") if a not in closed]
    if open_:
        words = ", ".join(a.replace("_", " ") for a in open_)
        raise RuleError(
            f"{name(d.state, hero)} can still act ({words}): pass is only for a "
            "hero whom ailments or the Battlefield keep from acting"
        )
    d.emit(Passed(hero=hero))
    if not d.state.outcome:
        finish_turn(d, content, hero)


def end_turn(d: Decision, args: EndTurnArgs, chance: Chance, content: Content) -> None:
    hero = _hero(args)
    require_turn(d.state, hero)
    if not d.state.turn_done:
        raise RuleError(
            f"{name(d.state, hero)} has not taken an action yet: choose one, "
            "or pass if none is possible"
        )
    finish_turn(d, content, hero)


def summon_retainer(
    d: Decision, args: SummonRetainerArgs, chance: Chance, content: Content
) -> None:
    s = d.state
    card_id = ref(content, "retainers", args.retainer, "retainer card")
    if card_id not in s.retainers:
        title = cards.retainer(content, card_id).title
        raise RuleError(f"{title} is not on the table (it was used or not dealt)")
    votes = args.votes
    if votes is None or not 0 <= votes <= s.players:
        raise RuleError(f"votes is how many of the {s.players} players agree (0 to {s.players})")
    if votes * 2 <= s.players:
        raise RuleError(f"a Retainer card needs a majority: {votes} of {s.players} players agree")
    card = cards.retainer(content, card_id)
    chosen = check_target(s, card.effects, args.target)
    d.emit(RetainerSummoned(retainer=card_id, votes=votes))
    apply_effects(
        d, content, card.effects, actor=None, chosen=chosen, why=card.title, chance=chance
    )
