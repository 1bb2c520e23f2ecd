"""What the rules would accept now, as complete commands a screen, the phone page or a
script can send as they are (`legal_actions`).

Every entry here is decided by the same predicates the commands use (`blocked`,
`closed_actions`, `target_refusal`, `affordable`), so a listed action is never refused and a
refusal always has the reason the command itself would give.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.core.rules import Action
from companion.games.kradia import content as cards
from companion.games.kradia import extras
from companion.games.kradia.actions import aims_at_ally, target_refusal
from companion.games.kradia.effects import boss_card, dice_on_space, hero_card
from companion.games.kradia.schema import Effect, Skill
from companion.games.kradia.state import KradiaState
from companion.games.kradia.turns import (
    affordable,
    available_skills,
    blocked,
    closed_actions,
    current_skills,
)

if TYPE_CHECKING:
    from companion.content.pack import Content

HERO_ACTIONS = ("basic_attack", "charge_attack", "skill")


def legal_actions(state: KradiaState, content: Content) -> list[Action]:
    """Every command the rules accept now; none once the game has ended."""
    s = state
    if s.outcome == "boss_defeated" and s.mode == "story":
        return _resupply(s, content)
    if s.outcome:
        return []
    if s.phase == "battlefield":
        out = [_start_round(s)]
    elif s.phase == "boss":
        dice = dice_on_space(boss_card(content, s), s.boss.hp)
        out = [_action("boss_attack", {}, f"Boss attacks ({dice} dice)", auto=True)]
    elif s.phase == "end":
        out = [_action("end_round", {}, "End round: pass the First Player token", auto=True)]
    elif s.phase == "heroes" and s.turn is not None:
        out = _turn(s, content, s.turn)
    else:
        out = []
    return out + _retainers(s, content) + _extras(s, content)


def _action(
    do: str,
    args: dict[str, Any],
    label: str,
    *,
    primary: bool = False,
    auto: bool = False,
    inputs: dict[str, dict[str, Any]] | None = None,
) -> Action:
    """`auto`: the primary step of a phase with no choice in it (the round's start, the
    boss's attack): the app takes it by itself; a Retainer is one Undo away."""
    action: Action = {"do": do, "with": args, "label": label}
    if inputs:
        action["inputs"] = inputs
    if primary or auto:
        action["primary"] = True
    if auto:
        action["auto"] = True
    return action


def _start_round(s: KradiaState) -> Action:
    reset = "" if s.battlefield.face_down else " (Battlefield Reset)"
    return _action("start_round", {}, f"Start round {s.round + 1}{reset}", auto=True)


def _hero_name(s: KradiaState, content: Content, hero: str) -> str:
    return hero_card(content, s, hero).title


def _aimed(
    s: KradiaState,
    content: Content,
    do: str,
    args: dict[str, Any],
    effects: list[Effect],
    label: str,
) -> list[Action]:
    """The card once, or once per hero it can help when its player names a hero."""
    if not aims_at_ally(effects):
        return [_action(do, args, label)]
    return [
        _action(do, {**args, "target": h}, f"{label} for {_hero_name(s, content, h)}")
        for h in s.order
        if target_refusal(s, effects, h) is None
    ]


def _turn(s: KradiaState, content: Content, hero: str) -> list[Action]:
    h = s.heroes[hero]
    who = _hero_name(s, content, hero)
    closed = blocked(content, s, hero)
    items = [] if "item" in closed else _items(s, content, hero)
    if s.turn_done:
        return [_action("end_turn", {"hero": hero}, f"End {who}'s turn", primary=True), *items]
    # A hero holding Item cards keeps the turn open after the action, to use them then.
    keep: dict[str, Any] = {"end_turn": False} if h.items else {}
    if s.charge is not None:
        choices = [
            _action("charge_attack", {"hero": hero, "effect": c, **keep}, f"Charge Attack #{c}")
            for c in s.charge.choices
        ]
        return [*choices, *items]
    out: list[Action] = []
    if "basic_attack" not in closed:
        out.append(_action("basic_attack", {"hero": hero, **keep}, "Basic Attack"))
    if "charge_attack" not in closed:
        out.append(_action("charge_attack", {"hero": hero}, "Charge Attack (roll 1 d6)"))
    if "skill" not in closed:
        names = {sk.id: sk.name or sk.id for sk in _skills(s, content, hero)}
        for sid, entry in available_skills(content, s, hero).items():
            if affordable(h, entry):
                label = f"{names.get(sid, sid)} ({entry.red} red, {entry.blue} blue)"
                args = {"hero": hero, "skill": sid, **keep}
                out += _aimed(s, content, "skill", args, entry.effects, label)
    out += items
    if all(a in closed_actions(content, s, hero) for a in HERO_ACTIONS):
        out.append(_action("pass", {"hero": hero}, f"{who} passes", primary=True))
    return out


def _skills(s: KradiaState, content: Content, hero: str) -> list[Skill]:
    h = s.heroes[hero]
    return list(current_skills(hero_card(content, s, hero), h.level, h.level3_side))


def _items(s: KradiaState, content: Content, hero: str) -> list[Action]:
    out: list[Action] = []
    for item in dict.fromkeys(s.heroes[hero].items):
        card = cards.item(content, item)
        args = {"hero": hero, "item": item}
        out += _aimed(s, content, "use_item", args, card.effects, f"Item: {card.title}")
    return out


def _retainers(s: KradiaState, content: Content) -> list[Action]:
    """Retainer cards on the table; how many players agree is read off the table."""
    majority = s.players // 2 + 1
    votes = {"votes": {"min": majority, "max": s.players}}
    out: list[Action] = []
    for rid in s.retainers:
        card = cards.retainer(content, rid)
        for action in _aimed(
            s,
            content,
            "summon_retainer",
            {"retainer": rid, "votes": s.players},
            card.effects,
            f"Retainer: {card.title}",
        ):
            action["inputs"] = votes
            out.append(action)
    return out


def _extras(s: KradiaState, content: Content) -> list[Action]:
    """The boss's Extra cards whose moment the card leaves to the table."""
    out: list[Action] = []
    for extra in extras.in_play(s, content, "table"):
        args = {"extra": extra.id}
        out += _aimed(s, content, "use_extra", args, extra.effects, f"Extra card: {extra.name}")
    return out


def _resupply(s: KradiaState, content: Content) -> list[Action]:
    level = s.level + 1
    args: dict[str, Any] = {}
    inputs: dict[str, dict[str, Any]] = {}
    if level == 3:
        sides = {h: list(hero_card(content, s, h).level3) for h in s.order}
        args["level3"] = {h: names[0] for h, names in sides.items()}
        inputs = {f"level3.{h}": {"choices": names} for h, names in sides.items()}
    label = f"Resupply (to Level {level})"
    if s.sequence is not None:
        return [_action("resupply", args, label, primary=True, inputs=inputs)]
    bosses = [b for b in cards.bosses(content) if b.level == level]
    return [
        _action("resupply", {**args, "boss": b.id}, f"{label}, then {b.title}", inputs=inputs)
        for b in bosses
    ]


def why_not(state: KradiaState, content: Content) -> list[str]:
    """Why the hero whose turn it is may not take each closed action, in the rules' words
    (for the screen's message line; the list above already leaves those actions out)."""
    s = state
    if s.outcome or s.phase != "heroes" or s.turn is None or s.turn_done or s.charge:
        return []
    return sorted(set(closed_actions(content, s, s.turn).values()))
