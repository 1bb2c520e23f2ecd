"""The hero action phase: whose turn it is, what happens as a turn starts and ends, and
which actions a hero may take (the screen enables exactly these)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.core.rules import RuleError
from companion.core.tables import Decision
from companion.games.kradia import battlefield
from companion.games.kradia.effects import (
    check_end,
    damage_hero,
    enhance,
    hero_card,
    turn_order,
)
from companion.games.kradia.events import (
    EvasionSet,
    HeroRetired,
    PhaseChanged,
    StunSet,
    TurnEnded,
    TurnSkipped,
    TurnStarted,
)
from companion.games.kradia.house import house_rule
from companion.games.kradia.schema import Effect, Hero, Skill, SkillLevel
from companion.games.kradia.state import HeroState, KradiaState

if TYPE_CHECKING:
    from companion.content.pack import Content

ACTION_WORDS = {
    "basic_attack": "a Basic Attack",
    "charge_attack": "a Charge Attack",
    "skill": "a Skill Action",
    "item": "Item cards",
}


def name(state: KradiaState, hero: str) -> str:
    return hero.replace("-", " ").title()


def current_skills(card: Hero, level: int, side: str | None) -> list[Skill]:
    """The skills the hero board shows: the Level 3 card's side covers them from level 3."""
    if level >= 3 and side is not None and side in card.level3:
        return card.level3[side]
    return card.skills


def skill_at(skill: Skill, level: int) -> SkillLevel | None:
    """The printed entry for the hero's level: the highest one not above it."""
    found = None
    for entry in sorted(skill.levels, key=lambda e: e.level):
        if entry.level <= level:
            found = entry
    return found


def available_skills(content: Content, state: KradiaState, hero: str) -> dict[str, SkillLevel]:
    h = state.heroes[hero]
    out = {}
    for skill in current_skills(hero_card(content, state, hero), h.level, h.level3_side):
        entry = skill_at(skill, h.level)
        if entry is not None:
            out[skill.id] = entry
    return out


def charge_table(card: Hero, level: int) -> dict[int, list[Effect]]:
    slots = card.charge_level4 if level >= 4 else card.charge
    return {slot.roll: slot.effects for slot in slots}


def blocked(content: Content, state: KradiaState, hero: str) -> dict[str, str]:
    """Why each action is closed to `hero` now (an action missing here is allowed)."""
    h = state.heroes[hero]
    who = name(state, hero)
    out: dict[str, str] = {}
    every = None
    if h.fading:
        every = f"{who} is Fading and cannot act (not even Item cards)"
    elif h.retired:
        every = f"{who} has retired from the battle"
    if every:
        return dict.fromkeys(ACTION_WORDS, every)
    if state.turn_done and state.turn == hero:
        done = f"{who} has taken an action this turn"
        out.update(basic_attack=done, charge_attack=done, skill=done)
    for ailment, why in (
        ("sleep", "is asleep"),
        ("confusion", "is confused"),
    ):
        if ailment in h.ailments:
            every = f"{who} {why} and may not take an action this turn"
    if h.stunned:
        every = f"{who} is stunned and may not take an action this turn (Item cards are allowed)"
    if every:
        out.update(basic_attack=every, charge_attack=every, skill=every)
    if "confusion" in h.ailments and house_rule(state.house, "confused_items") == "forbidden":
        out["item"] = f"{who} is confused and, by the group's house rule, may not use Item cards"
    if "blind" in h.ailments:
        out.setdefault("basic_attack", f"{who} is blind and may not make a Basic Attack")
    if "paralyze" in h.ailments:
        out.setdefault("charge_attack", f"{who} is paralyzed and may not make a Charge Attack")
    if "fear" in h.ailments:
        out.setdefault("skill", f"{who} is afraid and may not use a Skill Action")
    for action in battlefield.forbidden(content, state):
        out.setdefault(action, f"the Battlefield forbids {ACTION_WORDS[action]} this round")
    return out


def affordable(h: HeroState, entry: SkillLevel) -> bool:
    return h.red >= entry.red and h.blue >= entry.blue


def closed_actions(content: Content, state: KradiaState, hero: str) -> dict[str, str]:
    """`blocked`, and the Skill Action closed too when no skill's Mana is in hand: what
    decides whether the hero may pass.  (A skill command names its skill, so it is refused
    with that skill's own cost instead.)"""
    out = blocked(content, state, hero)
    if "skill" not in out:
        h = state.heroes[hero]
        if not any(affordable(h, e) for e in available_skills(content, state, hero).values()):
            out["skill"] = f"{name(state, hero)} has not enough Mana for any skill"
    return out


def require_turn(state: KradiaState, hero: str) -> None:
    if hero not in state.heroes:
        raise RuleError(f"'{hero}' is not one of this game's heroes ({', '.join(state.order)})")
    if state.phase != "heroes":
        raise RuleError(f"it is not the hero action phase (now: {state.phase} phase)")
    if state.turn != hero:
        raise RuleError(f"it is {name(state, state.turn or '')}'s turn, not {name(state, hero)}'s")


def require_action(content: Content, state: KradiaState, hero: str, action: str) -> None:
    require_turn(state, hero)
    if state.turn_done:
        raise RuleError(
            f"{name(state, hero)} has taken an action this turn: use Item cards or end the turn"
        )
    if state.charge is not None and action != "charge_attack":
        raise RuleError(
            f"{name(state, hero)} rolled {state.charge.roll} for a Charge Attack: "
            f"choose effect {', '.join(f'#{c}' for c in state.charge.choices)}"
        )
    why = blocked(content, state, hero).get(action)
    if why:
        raise RuleError(why)


def finish_turn(d: Decision, content: Content, hero: str) -> None:
    """End `hero`'s turn (a stun is spent) and start the next hero's."""
    if d.state.heroes[hero].stunned:
        d.emit(StunSet(hero=hero, stunned=False, why="the stun is spent"))
    d.emit(TurnEnded(hero=hero))
    begin_next_turn(d, content)


def begin_next_turn(d: Decision, content: Content) -> None:
    """Start turns until a hero can be asked what to do, or the boss's phase comes."""
    s = d.state
    while not s.outcome:
        hero = next((h for h in turn_order(s) if h not in s.acted), None)
        if hero is None:
            d.emit(PhaseChanged(phase="boss"))
            return
        h = s.heroes[hero]
        if h.retired:
            d.emit(TurnSkipped(hero=hero, why="retired"))
            continue
        d.emit(TurnStarted(hero=hero))
        if h.evasion and not battlefield.holds_evasion(s, hero):
            d.emit(EvasionSet(hero=hero, evasion=False, why="Evasion ends on the hero's turn"))
        if h.fading:
            d.emit(HeroRetired(hero=hero))
            check_end(d)
            if not s.outcome:
                d.emit(TurnEnded(hero=hero))
            continue
        battlefield.each_turn(d, content, hero)
        if "poison" in h.ailments and not h.fading and not s.outcome:
            damage_hero(d, hero, 1, "poison")
        if "confusion" in h.ailments and not h.fading and not s.outcome:
            damage_hero(d, s.start_player, 1, f"{name(s, hero)}'s confusion")
            if not h.fading and not s.outcome:
                enhance(d, hero, "confusion")
        if s.outcome:
            return
        if h.fading:  # poisoned to 0 HP: nothing left to do this turn
            d.emit(TurnEnded(hero=hero))
            continue
        return
