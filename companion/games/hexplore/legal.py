"""What the table may do now: every command the rules would accept, complete and named.

Screens, the CLI and self-play render these instead of re-deciding a rule.  Each entry is
a whole command; numbers read off the table (a declared Attack, Energy spent on a Mastery,
Gold found) are `inputs` with the range the rules accept, so any value in range is taken.
`primary` follows the Game Turn Overview: skills, settle them, the Circumstance, then
the Magi phase; in combat, the opponent acts once everyone has declared, then the round
resolves.  `group` says where the table finds each action (`GROUPS`).
"""

from __future__ import annotations

from companion.core.actions import action
from companion.core.rules import Action
from companion.games.hexplore.common import active_heroes, in_combat, in_play
from companion.games.hexplore.content import HexContent
from companion.games.hexplore.fight import fighting, find_opponent
from companion.games.hexplore.levelling import (
    STATS,
    affordable,
    ring_cost,
    supply_sources,
    upgradable,
)
from companion.games.hexplore.relics import wielders_for
from companion.games.hexplore.schema import Opponent
from companion.games.hexplore.setting_out import BONUS_STATS, before_the_game
from companion.games.hexplore.state import (
    Combat,
    Condition,
    HeroState,
    HexploreState,
    OpponentState,
    foes,
    single_reward_takers,
    standing,
)
from companion.games.hexplore.tables import (
    CONDITIONS,
    DIFFICULTY_ORDER,
    ELASHOR_RANKS,
    HELD,
    MAX_DECLARED,
    MAX_GAINED,
    QUICK_PLAY_POWER_UPS,
    STARTING_BONUSES,
    UNCURABLE,
    starting_gear_rolls,
    starting_location_name,
)
from companion.jsontypes import JsonObject, JsonValue

# Conditions a player may put on someone from a card without naming a second hero (Bound
# names who the target is tied to, so it is given with `inflict ... to:`).
INFLICTABLE = [c for c in CONDITIONS if c != "bound"]

# Where each action is found at the table (its `group`): the skills board, the combat mat,
# the Game Turn's own steps, or what a card, an item or the table does at any time (Gold
# found, a Condition, an ally joining).  An action with no entry here is a card's doing,
# so one the rules add is shown there with no screen code, and the turn's steps stay few.
SKILLS, COMBAT, TURN, CARD = "skills", "combat", "turn", "card"
GROUPS = {
    "roll_skills": SKILLS,
    "end_skill_phase": SKILLS,
    "start_combat": COMBAT,
    "add_opponent": COMBAT,
    "declare": COMBAT,
    "roll_circumstance": TURN,
    "settle_circumstance": TURN,
    "end_game_turn": TURN,
    "fate_tracker_symbol": TURN,
    "wander": TURN,
    "roam": TURN,
    "defeat_sentinel": TURN,
    "raise_difficulty": TURN,
}


def words(key: str) -> str:
    """A rule key as a player says it: knocked_down -> knocked down."""
    return key.replace("_", " ")


def legal_actions(s: HexploreState, content: HexContent) -> list[Action]:
    """Every command the rules accept now, each with its `group`; none once the game has
    ended."""
    if s.outcome:
        return []
    if in_combat(s):
        assert s.combat is not None
        actions = _combat(s, s.combat, content)
    else:
        actions = _turn(s, content)
    actions += _any_time(s, content)
    for listed in actions:
        listed["group"] = GROUPS.get(listed["do"], CARD)
    return actions


# -- the Game Turn -----------------------------------------------------------------------


def _setting_out(s: HexploreState) -> list[Action]:
    """Before the game begins: each hero's starting gear rolls, Quick Play's Power Ups."""
    if not before_the_game(s):
        return []
    out: list[Action] = []
    gear, items = starting_gear_rolls(len(s.heroes))
    for hid, h in s.heroes.items():
        if hid not in s.starting_gear and in_play(h):
            label = f"{h.name} searches for starting gear ({gear} Gear Upgrade, {items} Item rolls)"
            out.append(action("search_starting_gear", {"hero": hid}, label))
    if s.play_style == "quick_play" and not s.starting_power_ups:
        label = f"Quick Play: the group draws {QUICK_PLAY_POWER_UPS} Power Up cards"
        out.append(action("quick_play_power_ups", {}, label))
    if not s.acropolis:
        label = "Roll where the Magi's Acropolis stands (a hex is rolled again)"
        out.append(action("place_acropolis", {}, label))
    elif not s.starting_location:
        label = "Roll the Enthralled City the group starts in"
        out.append(action("roll_starting_location", {}, label))
    else:
        out += _starting_bonus(s)
    return out


def _starting_bonus(s: HexploreState) -> list[Action]:
    """Each hero's bonus for the location the group starts at, once."""
    where = s.starting_location
    out: list[Action] = []
    for hid, h in s.heroes.items():
        if hid in s.starting_bonus or not in_play(h):
            continue
        label = f"{h.name}: {starting_location_name(where)} bonus, {STARTING_BONUSES[where]}"
        if where in BONUS_STATS:
            stats: list[JsonValue] = list(BONUS_STATS[where])
            args: JsonObject = {"hero": hid, "stat": stats[0]}
            inputs: dict[str, JsonObject] = {"stat": {"choices": stats}}
        elif where == "elashor":
            args = {"hero": hid, "health": ELASHOR_RANKS}
            inputs = {"health": {"min": 0, "max": ELASHOR_RANKS}}
            label += " (the rest go to Energy)"
        elif where == "myrin":
            args = {"hero": hid, "take": "gold"}
            inputs = {"take": {"choices": ["gold", "food"]}}
        else:
            args, inputs = {"hero": hid}, {}
        out.append(action("take_starting_bonus", args, label, inputs))
    return out


def _ranks(s: HexploreState, content: HexContent) -> list[Action]:
    """Outside combat: Workshop Supplies until Ashul's Workshop is built, Gear Upgrades (six
    a stat; bought only at the Workshop) and other rank increases."""
    out: list[Action] = []
    if not s.workshop_built:
        sources = [x for x in supply_sources(content) if x not in s.workshop_supplies]
        label = f"The group obtains Workshop Supplies ({len(s.workshop_supplies)} of 3 sources)"
        out.append(
            action(
                "gain_workshop_supplies",
                {"source": sources[0]},
                label,
                {"source": {"choices": sources}},
            )
        )
    for hid, h in s.heroes.items():
        if not in_play(h):
            continue
        stats = upgradable(h)
        if stats:
            # before the Workshop is built a Gear Upgrade can only be found (no Gold)
            cost = {"cost": {"min": 0, "max": h.gold}} if s.workshop_built else {}
            out.append(
                action(
                    "gear_upgrade",
                    {"hero": hid, "stat": stats[0], "cost": 0},
                    f"Gear Upgrade for {h.name}"
                    + ("" if s.workshop_built else " (found while Searching for Gear)"),
                    {"stat": {"choices": stats}, **cost},
                )
            )
        buyable = affordable(h) if s.workshop_built else []
        if buyable:
            costs = ", ".join(f"{x} {ring_cost(h, x)}" for x in buyable)
            out.append(
                action(
                    "buy_gear_upgrade",
                    {"hero": hid, "stat": buyable[0]},
                    f"{h.name} buys a Gear Upgrade at Ashul's Workshop (Gold: {costs})",
                    {"stat": {"choices": buyable}},
                )
            )
        out.append(
            action(
                "rank_up",
                {"hero": hid, "stat": STATS[0], "by": 1},
                f"Rank increase for {h.name} (Power Up or reward)",
                {"stat": {"choices": list(STATS)}, "by": {"min": 1, "max": 10}},
            )
        )
    return out


def _turn(s: HexploreState, content: HexContent) -> list[Action]:
    """Outside combat: the Skill phase, the Circumstance, fights, the Magi phase."""
    out: list[Action] = _setting_out(s)  # offered, never pressed for: the turn leads
    primary: Action | None = None
    phase = s.skill_phase
    this_turn = phase.turn == s.turn
    fled = s.to_magi_phase == s.turn  # a flight skips the rest of the turn to the Magi phase
    settled = (this_turn and phase.resolved) or fled
    if not settled:
        for hid, h in s.heroes.items():
            if in_play(h) and not (this_turn and hid in phase.rolled):
                a = action("roll_skills", {"hero": hid}, f"Roll skills for {h.name}")
                out.append(a)
                primary = primary or a
        if primary is None:
            primary = action("end_skill_phase", {}, "Settle the Skill phase")
            out.append(primary)
    circumstance = s.circumstance
    if fled or not active_heroes(s):
        pass  # skipped after a flight; nobody in play to face one
    elif circumstance is None or not circumstance.roll:
        a = action("roll_circumstance", {"location": "", "slots": []}, "Roll a Circumstance")
        out.append(a)
        primary = primary or a
    elif not circumstance.settled:
        a = action("settle_circumstance", {"discard": False}, "Play the Circumstance")
        out.append(a)
        primary = primary or a
        if circumstance.may_discard and not circumstance.unavoidable:
            out.append(action("settle_circumstance", {"discard": True}, "Discard the Circumstance"))
    magi = content.magi()
    fought_magi = s.combat is not None and s.combat.turn == s.turn and _is(s.combat, magi)
    for card in content.opponents() if active_heroes(s) else []:
        if card.kind == "boss" and card.id in s.bosses_defeated:
            continue  # "the hex location is cleared and the Boss cannot be refought"
        a = action("start_combat", {"opponent": card.slug}, f"Fight {card.title}")
        out.append(a)
        if s.adrimon_attacks and card is magi and not fought_magi:
            primary = primary or a
    end = action("end_game_turn", {}, "Magi phase: end the game turn")
    out.append(end)
    primary = primary or end
    out += [action("wander", {"blocked": []}, "Wander"), action("roam", {}, "Roam")]
    for i in range(DIFFICULTY_ORDER.index(s.difficulty) + 1, len(DIFFICULTY_ORDER)):
        to = DIFFICULTY_ORDER[i]
        out.append(action("raise_difficulty", {"to": to}, f"Raise the Difficulty to {to.title()}"))
    primary["primary"] = True
    return out + _ranks(s, content)


def _is(c: Combat, card: Opponent | None) -> bool:
    return card is not None and c.opponent.id == card.id


# -- combat ------------------------------------------------------------------------------


def _combat(s: HexploreState, c: Combat, content: HexContent) -> list[Action]:
    if c.phase == "resolve":
        return [action("resolve_round", {}, "Resolve the round", primary=True)]
    up = [(k, o, find_opponent(content, o.id)) for k, o in standing(c)]
    out: list[Action] = []
    waiting = False
    for hid in fighting(s):
        h = s.heroes[hid]
        if hid in c.declarations or "unconscious" in h.conditions:
            continue
        waiting = True
        out += _declarations(s, hid, h, up)
    for hid in fighting(s):
        h = s.heroes[hid]
        powered = c.sustained.get(hid) == c.round
        if not powered and h.energy >= 1 and h.starving < 1 and "unconscious" not in h.conditions:
            label = f"{h.name}: Sustain an Ability (1 Energy)"
            out.append(action("sustain", {"hero": hid}, label))
    names = [o.name for _, o, _ in up]
    who = names[0] if len(names) == 1 else ", ".join(names[:-1]) + f" and {names[-1]}"
    acts = action("opponent_action", {}, f"{who} act" + ("s" if len(names) == 1 else ""))
    if not waiting:
        acts["primary"] = True
        out.append(acts)
    if c.round == 1 and not c.declarations:
        # "If both Circumstances are Encounters, resolve both in one combat"
        there = {o.id for _, o in foes(c)}
        for card in content.opponents():
            if card.id in there or (card.kind == "boss" and card.id in s.bosses_defeated):
                continue
            label = f"Add {card.title} to this combat"
            out.append(action("add_opponent", {"opponent": card.slug}, label))
    return out


def _declarations(
    s: HexploreState, hid: str, h: HeroState, up: list[tuple[str, OpponentState, Opponent]]
) -> list[Action]:
    """One hero's choices for the round, as far as their Conditions allow.  Facing several
    opponents, each Attack and Mastery is offered against each of them by name."""
    held = bool(HELD & set(h.conditions))
    only_defend = bool({"frightened", "knocked_down"} & set(h.conditions))
    if held and only_defend:
        return []  # nothing they may declare satisfies both
    starving = h.starving >= 1
    several = len(up) > 1
    out: list[Action] = []

    def declare(kind: str, label: str, inputs: dict[str, JsonObject], **extra: str) -> None:
        args: JsonObject = {"hero": hid, "action": kind, **extra}
        for path, rng in inputs.items():
            args[path] = rng["min"] if "default" not in rng else rng.pop("default")
        out.append(action("declare", args, f"{h.name}: {label}", inputs))

    def amount(default: int) -> JsonObject:
        return {"min": 0, "max": MAX_DECLARED, "default": min(default, MAX_DECLARED)}

    def aim(key: str, o: OpponentState) -> tuple[str, dict[str, str]]:
        return (f" {o.name}", {"foe": key}) if several else ("", {})

    if not only_defend:
        for key, o, card in up:
            influence = o.savable and (
                card.influence_cost == 0 or (not starving and h.energy >= card.influence_cost)
            )
            at, foe = aim(key, o)
            for vital in ["health", "energy"] + (["influence"] if influence else []):
                declare(
                    "attack",
                    f"Attack{at} ({words(vital)})",
                    {"amount": amount(h.abilities["attack"])},
                    vital=vital,
                    **foe,
                )
        if not held:
            for ally in fighting(s):
                if ally != hid and "encased" in s.heroes[ally].conditions:
                    name = s.heroes[ally].name
                    declare(
                        "attack",
                        f"Attack the constraint holding {name}",
                        {"amount": amount(h.abilities["attack"])},
                        target=ally,
                    )
    if held:
        return out
    declare("defend", "Defend", {"amount": amount(h.abilities["defend"])})
    for ally in fighting(s):
        if ally != hid and "unconscious" in s.heroes[ally].conditions:
            declare("defend", f"Defend and wake {s.heroes[ally].name}", {}, wake=ally)
    if only_defend:
        return out
    for key, o, card in up:
        at, foe = aim(key, o)
        for vital in ["health", "energy"] + (["influence"] if o.savable else []):
            cost = card.influence_cost if vital == "influence" else 0
            top = h.energy - cost
            if starving or top < 1:
                continue
            declare(
                "mastery",
                f"Mastery{at} ({words(vital)})",
                {"energy": {"min": 1, "max": top, "default": 1}, "amount": amount(0)},
                vital=vital,
                **foe,
            )
    declare("flee", "Flee", {})
    return out


# -- at any time -------------------------------------------------------------------------


def _keywords(s: HexploreState) -> list[Action]:
    """Heal, Raise, Revive and Teleport, as far as the moment allows."""
    fight = in_combat(s)
    if fight and s.combat is not None and s.combat.phase != "declare":
        return []
    out: list[Action] = []
    for hid, h in s.heroes.items():
        if h.dead and not h.mindwiped and not h.vanished:
            ritual = {"ritual": True} if h.spirit_tether else {}
            how = " (Spirit Tether Ritual)" if h.spirit_tether else ""
            out.append(
                action(
                    "revive",
                    {"hero": hid, "health": h.max_health, "energy": h.max_energy, **ritual},
                    f"Revive {h.name}{how}",
                    {
                        "health": {"min": 1, "max": h.max_health},
                        "energy": {"min": 0, "max": h.max_energy},
                    },
                )
            )
        if fight or not in_play(h):
            continue
        for vital, now, top in (
            ("health", h.health, h.max_health),
            ("energy", h.energy, h.max_energy),
        ):
            amount = {"amount": {"min": 1, "max": MAX_DECLARED}}
            if now < top:
                args = {"hero": hid, "vital": vital, "amount": 1}
                out.append(action("heal", args, f"Heal {h.name}'s {vital}", dict(amount)))
            args = {"hero": hid, "vital": vital, "amount": 1, "raise": True}
            out.append(action("heal", args, f"Raise {h.name}'s {vital}", dict(amount)))
    if not fight:
        out.append(action("teleport", {}, "The group Teleports"))
    return out


def _allies(s: HexploreState, content: HexContent) -> list[Action]:
    """Allies of the packs may join (a Summon by a hero in play) during the Declaration
    phase or outside combat; one leaves only outside combat."""
    fight = s.combat is not None and in_combat(s)
    if fight and s.combat is not None and s.combat.phase != "declare":
        return []
    out: list[Action] = []
    present = {a.name for a in s.allies.values()}
    for card in content.allies():
        if card.title in present:
            continue
        if card.kind != "summon":
            label = f"{card.title} joins the group ({card.kind})"
            out.append(action("join_ally", {"ally": card.slug}, label))
            continue
        for hid, h in s.heroes.items():
            if in_play(h):
                args = {"ally": card.slug, "summoner": hid}
                out.append(action("join_ally", args, f"{h.name} Summons {card.title}"))
    if not fight:
        for aid, a in s.allies.items():
            out.append(action("ally_leaves", {"ally": aid}, f"{a.name} leaves the group"))
    return out


def _relics(s: HexploreState, content: HexContent) -> list[Action]:
    """Relics of the packs the group may obtain (outside combat), and who may wield each."""
    out: list[Action] = []
    if not in_combat(s):
        for card in content.relics():
            if card.slug not in s.relics:
                out.append(action("gain_relic", {"relic": card.slug}, f"Obtain {card.title}"))
    for slug, r in s.relics.items():
        for hid in wielders_for(s, slug):
            out.append(
                action(
                    "wield_relic",
                    {"relic": slug, "hero": hid},
                    f"{s.heroes[hid].name} wields {r.name}",
                )
            )
    return out


def _any_time(s: HexploreState, content: HexContent) -> list[Action]:
    """What a card, an item or the table can do in any phase: Conditions, Gold and Food,
    the Fate Tracker symbol, a Sentinel defeated, Relics."""
    out: list[Action] = _relics(s, content)
    fight = in_combat(s)
    targets: list[tuple[str, str, dict[str, Condition]]] = [
        (hid, h.name, h.conditions) for hid, h in s.heroes.items()
    ]
    if fight:
        assert s.combat is not None
        targets += [(k, o.name, o.conditions) for k, o in standing(s.combat)]
    for who, name, held in targets:
        if who not in s.heroes or in_play(s.heroes[who]):
            out.append(
                action(
                    "inflict",
                    {"who": who, "condition": INFLICTABLE[0]},
                    f"Give {name} a Condition",
                    {"condition": {"choices": list(INFLICTABLE)}},
                )
            )
        for condition in held:
            if condition in CONDITIONS and condition not in UNCURABLE:
                out.append(
                    action(
                        "cure",
                        {"who": who, "condition": condition},
                        f"{name} is no longer {words(condition)}",
                    )
                )
    for hid, h in s.heroes.items():
        if h.dead or h.vanished:
            continue
        out.append(
            action(
                "gain",
                {"hero": hid, "gold": 0, "food": 0},
                f"Gold or Food for {h.name}",
                {
                    "gold": {"min": -h.gold, "max": MAX_GAINED},
                    "food": {"min": -h.food, "max": MAX_GAINED},
                },
            )
        )
    for reward in dict.fromkeys(s.single_rewards):
        for hid in single_reward_takers(s):
            out.append(
                action(
                    "give_single_reward",
                    {"reward": reward, "hero": hid},
                    f"Give {reward} to {s.heroes[hid].name}",
                )
            )
    out += _allies(s, content)
    out += _keywords(s)
    out.append(action("fate_tracker_symbol", {}, "A card shows the Fate Tracker symbol"))
    for x in s.sentinels:
        out.append(
            action(
                "defeat_sentinel", {"at": x.location}, f"Sentinel at {words(x.location)} defeated"
            )
        )
    return out
