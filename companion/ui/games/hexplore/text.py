"""What the HEXplore screens say, worked out from the state alone (no Kivy here).

Kept apart from the widgets so the words can be tested without a window, and so the
screens stay views: they only read `session.state` and call `session.do`.
"""

from __future__ import annotations

from companion.games.hexplore.view import (
    OPPONENT,
    Combat,
    HexploreState,
    LastAction,
    OpponentState,
    action_of,
    foes,
    next_cycle_threats,
    standing,
)

RESULT_MARK = {
    "success": "ok",
    "critical_success": "CRIT",
    "failure": "fail",
    "critical_failure": "CRIT FAIL",
}


def cycle_warnings(s: HexploreState) -> list[str]:
    """What the rules say the next Fate Cycle takes, in the wheel's words."""
    out = []
    for threat in next_cycle_threats(s):
        away = f"({threat.rises_left} rises away)"
        if threat.mindwipes:
            out.append(f"{threat.name}: MINDWIPED at Fate Cycle {threat.cycle} {away}")
        else:
            skills = ", ".join(threat.skills)
            out.append(f"{threat.name}: {skills} will fail at Fate Cycle {threat.cycle} {away}")
    return out


def _name(s: HexploreState, hid: str) -> str:
    return s.heroes[hid].name if hid in s.heroes else hid


def hero_troubles(s: HexploreState, hid: str) -> list[str]:
    """What hunger and Conditions are doing to a hero, in words (beside their bars)."""
    h = s.heroes[hid]
    out = [f"starving {h.starving}"] if h.starving else []
    if h.conditions:
        out.append(
            ", ".join(
                name.replace("_", " ") + (f" x{c.stacks}" if c.stacks > 1 else "")
                for name, c in h.conditions.items()
            )
        )
    return out


def hero_status(s: HexploreState, hid: str) -> str:
    h = s.heroes[hid]
    if h.vanished:
        return "gone"
    if h.dead:
        return "dead"
    if h.mindwiped:
        return f"mindwiped ({h.mindwiped_turns} turns)"
    parts = [f"Health {h.health}/{h.max_health}", f"Energy {h.energy}/{h.max_energy}"]
    return "  ".join(parts + hero_troubles(s, hid))


def hero_flag(s: HexploreState, hid: str) -> str:
    """One word for the skills board: what the Fate Cycle and hunger have done."""
    h = s.heroes[hid]
    for flag, on in (("gone", h.vanished), ("dead", h.dead), ("mindwiped", h.mindwiped)):
        if on:
            return flag
    return f"starving {h.starving}" if h.starving else "ok"


def skill_cell(s: HexploreState, hid: str, skill: str, failing: bool) -> str:
    """A rank, AUTO-FAIL when the rules say it fails with no roll, and the last result."""
    rank = s.heroes[hid].skills[skill]
    mark = " AUTO-FAIL" if failing else ""
    last = s.last_skill_rolls.get(hid, {}).get(skill)
    shown = f" [{RESULT_MARK[last]}]" if last else ""
    return f"{rank}{mark}{shown}"


def opponents_on_mat(c: Combat) -> list[tuple[str, str, OpponentState]]:
    """The opponents still standing, each with its key and the path a correction sets."""
    paths = ["combat.opponent"] + [f"combat.extra.{i}" for i in range(len(c.extra))]
    return [(k, paths[i], o) for i, (k, o) in enumerate(foes(c)) if k not in c.beaten]


def opponent_line(s: HexploreState) -> str:
    c = s.combat
    if c is None:
        return "No combat"
    lines = [_opponent_words(o) for _, o in foes(c)]
    for key, how in c.beaten.items():
        name = next(o.name for k, o in foes(c) if k == key)
        lines.append(f"{name}: {how}")
    return "\n".join(lines)


def _opponent_words(o: OpponentState) -> str:
    parts = [
        f"{o.name} (level {o.level} {o.type.replace('_', ' ')})",
        f"Health {o.health}/{o.max_health}",
        f"Energy {o.energy}/{o.max_energy}",
    ]
    if o.soul_shield:
        parts.append(f"Soul Shield {o.soul_shield}")
    if o.savable:
        parts.append(f"Influence {o.influence}/{o.max_influence}")
    if o.conditions:
        parts.append(", ".join(o.conditions))
    return "   ".join(parts)


def combat_heading(s: HexploreState) -> str:
    c = s.combat
    if c is None:
        return "Combat mat"
    if c.phase == "over":
        return f"Combat over: {c.outcome}"
    step = {"declare": "declare actions, then Opponent acts", "resolve": "resolve the round"}[
        c.phase
    ]
    return f"Round {c.round} on {c.difficulty.title()}: {step}"


def declaration_line(s: HexploreState, hid: str) -> str:
    c = s.combat
    x = c.declarations.get(hid) if c else None
    if c and hid in c.fled:
        return "fled"
    if x is None:
        return "no action declared yet"
    what = x.action
    if x.amount:
        what += f" {x.amount} {x.vital}"
    if c and c.extra and x.action in ("attack", "mastery") and not x.target:
        aimed = dict(foes(c)).get(x.foe or OPPONENT)
        what += f" at {aimed.name}" if aimed else ""
    if x.defend:
        what += f", Defend {x.defend}"
    if x.heal:
        what += f", Heal {x.heal} {_name(s, x.heal_target or hid)}"
    if x.favored:
        what += f", Favored {x.favored} {x.favored_vital} ({'+'.join(map(str, x.favored_rolls))})"
    if x.notes:
        what += f" ({'; '.join(x.notes)})"
    return what


def action_walkthrough(s: HexploreState) -> list[str]:
    """Each opponent's action step by step: the die, the ability, any default, the
    targets; facing several, each under its name."""
    c = s.combat
    if c is None:
        return []
    on = foes(c) if c.phase == "over" else standing(c)
    acted = [(o, action_of(c, k)) for k, o in on]
    shown = [(o, la) for o, la in acted if la is not None]
    if len(foes(c)) == 1:
        return _walkthrough(s, shown[0][1]) if shown else []
    lines: list[str] = []
    for o, la in shown:
        lines += [f"{o.name}:"] + ["  " + x for x in _walkthrough(s, la)]
    return lines


def _walkthrough(s: HexploreState, la: LastAction) -> list[str]:
    lines = [f"Action die: {la.roll} -> {la.name}"]
    if la.defaulted:
        lines.append(f"Not enough Energy for {la.wanted}: defaults to {la.ability} at half")
    elif la.energy_spent:
        lines.append(f"Spends {la.energy_spent} Energy")
    if la.target_rolls:
        dice = ", ".join(
            f"{_name(s, h)} {'/'.join(map(str, r))}" for h, r in la.target_rolls.items()
        )
        lines.append(f"Target dice: {dice}")
    lines.append(
        "Targets: "
        + (
            ", ".join(_name(s, h) + (f" x{n}" if n > 1 else "") for h, n in la.hits.items())
            or "none"
        )
    )
    if la.health or la.energy:
        lines.append(
            f"Damage: {la.health} Health, {la.energy} Energy"
            + (f", Piercing {la.piercing}" if la.piercing else "")
        )
    for hid, res in la.skill_rolls.items():
        lines.append(
            f"{_name(s, hid)}: " + ", ".join(f"{k} {RESULT_MARK[v]}" for k, v in res.items())
        )
    return lines
