"""What the rules would accept now, as complete commands a screen, the phone page or a
script can send as they are (`legal_actions`).

Every entry here is decided by the same predicates the commands use (`blocked`,
`closed_actions`, `target_refusal`, `affordable`), so a listed action is never refused and a
refusal always has the reason the command itself would give.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.core.actions import action
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
from companion.jsontypes import JsonObject, JsonValue

if TYPE_CHECKING:
    from companion.content.pack import Content

HERO_ACTIONS = ("basic_attack", "charge_attack", "skill")
# The words above the choices while no hero's turn is on (`prompt`).
PROMPTS = {
    "battlefield": "The Start Player reveals a Battlefield card",
    "boss": "The Start Player rolls the boss's dice",
    "end": "Pass the First Player token",
}


def legal_actions(state: KradiaState, content: Content) -> list[Action]:
    """Every command the rules accept now, each with the words shown above the choices
    (`prompt`); none once the game has ended."""
    s = state
    if s.outcome == "boss_defeated" and s.mode == "story":
        out = _resupply(s, content)
    elif s.outcome:
        return []
    else:
        out = _now(s, content) + _retainers(s, content) + _extras(s, content)
    words = prompt(s, content)
    for listed in out:
        listed["prompt"] = words
    return out


def _now(s: KradiaState, content: Content) -> list[Action]:
    """The phase's own step, or the actions of the hero whose turn it is."""
    if s.phase == "battlefield":
        out = [_start_round(s)]
    elif s.phase == "boss":
        dice = dice_on_space(boss_card(content, s), s.boss.hp)
        out = [action("boss_attack", {}, f"Boss attacks ({dice} dice)", auto=True)]
    elif s.phase == "end":
        out = [action("end_round", {}, "End round: pass the First Player token", auto=True)]
    elif s.phase == "heroes" and s.turn is not None:
        out = _turn(s, content, s.turn)
    else:
        out = []
    return out


def prompt(s: KradiaState, content: Content) -> str:
    """What the table is doing now, in the words the action picker shows above the choices:
    whose turn it is, what their Charge Attack roll asks for, or the phase's step."""
    if s.phase == "heroes" and s.turn:
        who = _hero_name(s, content, s.turn)
        if s.charge is not None:
            return f"{who} rolled {s.charge.roll}: choose the Charge Attack"
        return f"{who}'s turn"
    return PROMPTS.get(s.phase, "Resupply, then the next boss")


def _start_round(s: KradiaState) -> Action:
    reset = "" if s.battlefield.face_down else " (Battlefield Reset)"
    return action("start_round", {}, f"Start round {s.round + 1}{reset}", auto=True)


def _hero_name(s: KradiaState, content: Content, hero: str) -> str:
    return hero_card(content, s, hero).title


def _aimed(
    s: KradiaState,
    content: Content,
    do: str,
    args: JsonObject,
    effects: list[Effect],
    label: str,
) -> list[Action]:
    """The card once, or once per hero it can help when its player names a hero."""
    if not aims_at_ally(effects):
        return [action(do, args, label)]
    return [
        action(do, {**args, "target": h}, f"{label} for {_hero_name(s, content, h)}")
        for h in s.order
        if target_refusal(s, effects, h) is None
    ]


def _turn(s: KradiaState, content: Content, hero: str) -> list[Action]:
    h = s.heroes[hero]
    who = _hero_name(s, content, hero)
    closed = blocked(content, s, hero)
    items = [] if "item" in closed else _items(s, content, hero)
    if s.turn_done:
        return [action("end_turn", {"hero": hero}, f"End {who}'s turn", primary=True), *items]
    # A hero holding Item cards keeps the turn open after the action, to use them then.
    keep: JsonObject = {"end_turn": False} if h.items else {}
    if s.charge is not None:
        choices = [
            action("charge_attack", {"hero": hero, "effect": c, **keep}, f"Charge Attack #{c}")
            for c in s.charge.choices
        ]
        return [*choices, *items]
    out: list[Action] = []
    if "basic_attack" not in closed:
        out.append(action("basic_attack", {"hero": hero, **keep}, "Basic Attack"))
    if "charge_attack" not in closed:
        out.append(action("charge_attack", {"hero": hero}, "Charge Attack (roll 1 d6)"))
    if "skill" not in closed:
        names = {sk.id: sk.name or sk.id for sk in _skills(s, content, hero)}
        for sid, entry in available_skills(content, s, hero).items():
            if affordable(h, entry):
                label = f"{names.get(sid, sid)} ({entry.red} red, {entry.blue} blue)"
                args = {"hero": hero, "skill": sid, **keep}
                out += _aimed(s, content, "skill", args, entry.effects, label)
    out += items
    if all(a in closed_actions(content, s, hero) for a in HERO_ACTIONS):
        out.append(action("pass", {"hero": hero}, f"{who} passes", primary=True))
    return out


def _skills(s: KradiaState, content: Content, hero: str) -> list[Skill]:
    h = s.heroes[hero]
    return list(current_skills(hero_card(content, s, hero), h.level, h.level3_side))


def _items(s: KradiaState, content: Content, hero: str) -> list[Action]:
    out: list[Action] = []
    for item in dict.fromkeys(s.heroes[hero].items):
        card = cards.item(content, item)
        args: JsonObject = {"hero": hero, "item": item}
        out += _aimed(s, content, "use_item", args, card.effects, f"Item: {card.title}")
    return out


def _retainers(s: KradiaState, content: Content) -> list[Action]:
    """Retainer cards on the table; how many players agree is read off the table."""
    majority = s.players // 2 + 1
    votes = {"votes": {"min": majority, "max": s.players}}
    out: list[Action] = []
    for rid in s.retainers:
        card = cards.retainer(content, rid)
        for aimed in _aimed(
            s,
            content,
            "summon_retainer",
            {"retainer": rid, "votes": s.players},
            card.effects,
            f"Retainer: {card.title}",
        ):
            aimed["inputs"] = votes
            out.append(aimed)
    return out


def _extras(s: KradiaState, content: Content) -> list[Action]:
    """The boss's Extra cards whose moment the card leaves to the table."""
    out: list[Action] = []
    for extra in extras.in_play(s, content, "table"):
        args: JsonObject = {"extra": extra.id}
        out += _aimed(s, content, "use_extra", args, extra.effects, f"Extra card: {extra.name}")
    return out


def _resupply(s: KradiaState, content: Content) -> list[Action]:
    level = s.level + 1
    args: JsonObject = {}
    inputs: dict[str, JsonObject] = {}
    if level == 3:
        sides: dict[str, list[JsonValue]] = {
            h: list(hero_card(content, s, h).level3) for h in s.order
        }
        args["level3"] = {h: names[0] for h, names in sides.items()}
        inputs = {f"level3.{h}": {"choices": names} for h, names in sides.items()}
    label = f"Resupply (to Level {level})"
    if s.sequence is not None:
        return [action("resupply", args, label, primary=True, inputs=inputs)]
    bosses = [b for b in cards.bosses(content) if b.level == level]
    return [
        action("resupply", {**args, "boss": b.id}, f"{label}, then {b.title}", inputs=inputs)
        for b in bosses
    ]


def why_not(state: KradiaState, content: Content) -> list[str]:
    """Why the hero whose turn it is may not take each closed action, in the rules' words
    (for the screen's message line; the list above already leaves those actions out)."""
    s = state
    if s.outcome or s.phase != "heroes" or s.turn is None or s.turn_done or s.charge:
        return []
    return sorted(set(closed_actions(content, s, s.turn).values()))
