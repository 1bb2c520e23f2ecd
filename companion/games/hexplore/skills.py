"""The Skill phase, and the group's Wander, Roam and Circumstance rolls."""

from __future__ import annotations

from companion.core.rules import Chance, RuleError
from companion.core.tables import Decision
from companion.games.hexplore.args import EndSkillPhase, Gain, Roam, RollSkills, Wander
from companion.games.hexplore.common import (
    active_heroes,
    check_lost,
    current,
    faces,
    gain,
    hero_id,
    in_combat,
    in_play,
    stacks,
    whole,
)
from companion.games.hexplore.conditions import note_survival
from companion.games.hexplore.content import HexContent
from companion.games.hexplore.dice import (
    CRITICAL_FAILURE,
    CRITICAL_SUCCESS,
    SUCCEEDED,
    auto_fails,
    skill_outcome,
)
from companion.games.hexplore.events import (
    EssenceFound,
    GroupNavigated,
    GroupRoamed,
    GroupWandered,
    HeroDied,
    PowerUpDrawn,
    SkillPhaseEnded,
    SkillsRolled,
    Starved,
)
from companion.games.hexplore.keywords import TELEPORTED, moved_normally, skipped_after_flight
from companion.games.hexplore.state import GROUP_NAME, HexploreState
from companion.games.hexplore.tables import (
    DIFFICULTIES,
    MAX_GAINED,
    MAX_STARVING,
    SKILLS,
)

EXPLORE_GOLD = 2


def current_difficulty(s: HexploreState) -> str:
    return current(s).difficulty if in_combat(s) else s.difficulty


def check_skill(
    d: Decision, chance: Chance, hid: str, skill: str, why: str, extra: int = 0
) -> tuple[str, int]:
    """One hero's skill check: the outcome, and the die (0 when no roll is made)."""
    s = d.state
    h = s.heroes[hid]
    rank = h.skills[skill]
    if auto_fails(rank, s.fate.cycle):
        return CRITICAL_FAILURE, 0
    if "knocked_down" in h.conditions or (skill == "survival" and h.starving >= 2):
        return CRITICAL_FAILURE, 0
    penalty = DIFFICULTIES[current_difficulty(s)].skill_penalty + extra
    die = chance.roll(
        "skill_d10",
        for_=hid,
        why=f"{skill} (rank {rank}) {why}".strip(),
        role=f"skill:{skill}",
        who=h.name,
    )[0]
    outcome = skill_outcome(rank, die, penalty, stacks(h, "disoriented"))
    if skill == "survival":
        note_survival(d, hid, outcome in SUCCEEDED)
    return outcome, die


def _skills_arg(asked: str | list[str] | None) -> list[str]:
    skills = list(SKILLS) if asked is None else [asked] if isinstance(asked, str) else asked
    if any(k not in SKILLS for k in skills):
        raise RuleError(f"skills must be a list of {', '.join(SKILLS)}, not {skills!r}")
    return list(dict.fromkeys(skills))


def roll_skills(d: Decision, args: RollSkills, chance: Chance, content: HexContent) -> None:
    """One hero rolls the Skill phase dice; the group result waits for end_skill_phase."""
    s: HexploreState = d.state
    hid = hero_id(s, args.hero)
    h = s.heroes[hid]
    if in_combat(s):
        raise RuleError("the Skill phase cannot be rolled during combat")
    skipped_after_flight(s)
    if not in_play(h):
        raise RuleError(f"{h.name} is {'dead' if h.dead else 'mindwiped'} and rolls no skills")
    phase = s.skill_phase
    if phase.turn == s.turn and phase.resolved:
        raise RuleError("the Skill phase of this game turn is over")
    if phase.turn == s.turn and hid in phase.rolled:
        raise RuleError(f"{h.name} already rolled this turn (undo to roll again)")
    skills = _skills_arg(args.skills)
    extra = whole(args.penalty, "penalty", minimum=None)
    results: dict[str, str] = {}
    dice: dict[str, int] = {}
    for skill in skills:
        results[skill], dice[skill] = check_skill(d, chance, hid, skill, "", extra)
    d.emit(SkillsRolled(hero=hid, turn=s.turn, results=results, dice=dice))
    if len(skills) == 3 and all(dice[k] == 1 for k in skills):
        d.emit(PowerUpDrawn(hero=hid, why="three hexes in the Skill phase"))


def end_skill_phase(d: Decision, args: EndSkillPhase, chance: Chance, content: HexContent) -> None:
    """Settle the group: Navigate or Wander, Explore gold, Survival food and Starving."""
    s: HexploreState = d.state
    if in_combat(s):
        raise RuleError("the Skill phase cannot be settled during combat")
    skipped_after_flight(s)
    phase = s.skill_phase
    heroes = active_heroes(s)
    rolled = phase.rolled if phase.turn == s.turn else {}
    if phase.turn == s.turn and phase.resolved:
        raise RuleError("the Skill phase of this game turn is already settled")
    missing = [h for h in heroes if h not in rolled]
    if missing:
        raise RuleError(
            f"waiting for skill rolls from {', '.join(s.heroes[h].name for h in missing)}"
        )
    bonuses = args.bonuses or {}
    cautious = args.cautious
    if cautious and moved_normally(s):
        raise RuleError(TELEPORTED)
    _navigate(d, chance, rolled, heroes, cautious, bonuses, faces(args.blocked or [], "blocked"))
    for hid in heroes:
        res = rolled[hid]
        if res.get("explore") in SUCCEEDED:
            gain(d, hid, "Explore: treasure", gold=EXPLORE_GOLD)
        if res.get("explore") == CRITICAL_SUCCESS:
            _camp_bonus(d, hid, "explore", bonuses, "health")
        _survival(d, hid, res.get("survival"))
        if res.get("survival") == CRITICAL_SUCCESS:
            _camp_bonus(d, hid, "survival", bonuses, "energy")
    d.emit(SkillPhaseEnded(turn=s.turn))
    check_lost(d)


def _navigate(
    d: Decision,
    chance: Chance,
    rolled: dict[str, dict[str, str]],
    heroes: list[str],
    cautious: bool,
    bonuses: dict[str, str],
    blocked: list[int],
) -> None:
    navs = {h: rolled[h]["navigate"] for h in heroes if "navigate" in rolled[h]}
    if cautious and not navs:
        return  # Moving Cautiously: the group chose not to roll Navigate
    need = (len(heroes) + 1) // 2
    passed = sum(1 for r in navs.values() if r in SUCCEEDED)
    savers = [h for h, r in navs.items() if r == CRITICAL_SUCCESS]
    savers_used = [h for h in savers if bonuses.get(f"{h}.navigate", "save") == "save"]
    for h in savers:
        if h not in savers_used:
            d.emit(EssenceFound(hero=h, essence="essence_vine", why="Navigate critical"))
    if passed >= need or savers_used:
        d.emit(GroupNavigated(successes=passed, needed=need, saved_by=savers_used[:1]))
        return
    _wander(d, chance, blocked, f"only {passed} of {need} needed Navigate successes")


def _wander(d: Decision, chance: Chance, blocked: list[int], why: str) -> None:
    roll = chance.roll(
        "hex_d6",
        for_="group",
        why="Wander: direction on the Wander Compass",
        role="wander",
        who=GROUP_NAME,
    )[0]
    d.emit(GroupWandered(direction=roll, stayed=roll in blocked, why=why))


def _camp_bonus(d: Decision, hid: str, skill: str, bonuses: dict[str, str], vital: str) -> None:
    choice = bonuses.get(f"{hid}.{skill}", "heal")
    if choice == "essence":
        d.emit(EssenceFound(hero=hid, essence="infused_seed", why=f"{skill} critical"))
        return
    if choice != "heal":
        raise RuleError(
            f"{d.state.heroes[hid].name}'s {skill} critical bonus is heal or essence, not {choice!r}"
        )
    for other in active_heroes(d.state):
        o = d.state.heroes[other]
        top = o.max_health if vital == "health" else o.max_energy
        if getattr(o, vital) < top:
            d.emit("VitalsChanged", who=other, why=f"{hid}'s {skill} critical", **{vital: 1})


def _survival(d: Decision, hid: str, result: str | None) -> None:
    h = d.state.heroes[hid]
    if result in SUCCEEDED or h.food_rating == 0:
        return
    if h.food >= h.food_rating:
        gain(d, hid, "Survival failed: eats", food=-h.food_rating)
        return
    level = min(MAX_STARVING, h.starving + 1)
    d.emit(Starved(hero=hid, level=level))
    if level >= MAX_STARVING:
        d.emit(HeroDied(hero=hid, why="Starving level 3"))


def gain_found(d: Decision, args: Gain, chance: Chance, content: HexContent) -> None:
    """Gold or Food found, bought or shared; a starving hero eats what arrives."""
    hid = hero_id(d.state, args.hero)
    amounts = {
        "gold": whole(args.gold, "gold", minimum=None, maximum=MAX_GAINED),
        "food": whole(args.food, "food", minimum=None, maximum=MAX_GAINED),
    }
    h = d.state.heroes[hid]
    if h.dead or h.vanished:
        raise RuleError(f"{h.name} is {'dead' if h.dead else 'gone'} and carries nothing")
    if amounts["gold"] < -h.gold:
        raise RuleError(f"{h.name} has {h.gold} Gold, not {-amounts['gold']}")
    gain(d, hid, args.why, **amounts)


def wander(d: Decision, args: Wander, chance: Chance, content: HexContent) -> None:
    if in_combat(d.state):
        raise RuleError("the group cannot Wander in the middle of a combat")
    _wander(d, chance, faces(args.blocked or [], "blocked"), args.why)


def roam(d: Decision, args: Roam, chance: Chance, content: HexContent) -> None:
    """Roam: the first d6 is the compass direction, the second the hexes moved."""
    if in_combat(d.state):
        raise RuleError("the group cannot Roam in the middle of a combat")
    direction = chance.roll(
        "hex_d6", for_="group", why="Roam: direction", role="roam:direction", who=GROUP_NAME
    )[0]
    distance = chance.roll(
        "hex_d6", for_="group", why="Roam: hexes moved", role="roam:distance", who=GROUP_NAME
    )[0]
    d.emit(GroupRoamed(direction=direction, distance=distance))
