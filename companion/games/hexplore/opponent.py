"""The opponent's action: the action die, the Energy default, target dice and skill rolls."""

from __future__ import annotations

from companion.core.rules import Chance, RuleError
from companion.core.tables import Decision
from companion.games.hexplore.args import OpponentAction
from companion.games.hexplore.combat import phase_end, settle_foes
from companion.games.hexplore.common import current, stacks
from companion.games.hexplore.content import HexContent
from companion.games.hexplore.dice import target_dice
from companion.games.hexplore.events import OpponentActed, VitalsChanged
from companion.games.hexplore.fight import Potency, combat_in, fighting, find_opponent, targetable
from companion.games.hexplore.relics import relic_soul_shields
from companion.games.hexplore.schema import Opponent
from companion.games.hexplore.skills import check_skill
from companion.games.hexplore.state import (
    OPPONENT,
    HexploreState,
    OpponentState,
    name_of,
    standing,
    target_of,
)
from companion.games.hexplore.tables import DIFFICULTIES, TARGET_COUNTS


def opponent_action(d: Decision, args: OpponentAction, chance: Chance, content: HexContent) -> None:
    s: HexploreState = d.state
    c = combat_in(s, "declare")
    waiting = [
        h
        for h in fighting(s)
        if h not in c.declarations and "unconscious" not in s.heroes[h].conditions
    ]
    if waiting:
        raise RuleError(
            f"waiting for declarations from {', '.join(s.heroes[h].name for h in waiting)}"
        )
    card = find_opponent(content, c.opponent.id)
    # "Reduce an opponent's Soul Shield by the amount specified during the Declaration phase
    # of each round of combat": as it closes, once every opponent has joined (ruling 50)
    relic_soul_shields(d)
    # The Declaration phase ends here: damage suffered in it can kill (Hero / Opponent Defeat).
    phase_end(d, "the Declaration phase")
    if settle_foes(d, chance, content, card, influence=False):
        return
    # "If the group faces more than one opponent, roll the action die once for each
    # opponent in any order": in the order they joined the combat (Ruling 44).  "Each
    # target may only receive one Individual attack per round, unless otherwise stated":
    # those an earlier opponent's Individual attack hit are no longer rolled for (ruling 47).
    struck: set[str] = set()
    for key, foe in standing(c):
        struck |= _act(d, chance, key, foe, find_opponent(content, foe.id), struck)


def _act(
    d: Decision,
    chance: Chance,
    key: str,
    foe: OpponentState,
    card: Opponent,
    struck: set[str],
) -> set[str]:
    """One opponent's action: its die, the Energy default, its targets and their rolls.

    `struck` are those who already received an Individual attack this round; returns those
    this action's Individual attack hits."""
    s: HexploreState = d.state
    c = current(s)
    roll = chance.roll(
        "hex_d6",
        for_=OPPONENT,  # who rolls: the players, for an opponent (named by `who`)
        why=f"{card.title}'s action",
        role="action",
        who=foe.name,
    )[0]
    wanted = card.rolled(roll)
    action, defaulted = wanted, False
    if wanted.cost and wanted.cost > foe.energy:
        action, defaulted = card.act(wanted.default), True
    p = Potency.of(action, 1 if defaulted else 0)
    bonus = DIFFICULTIES[c.difficulty].damage
    hits: dict[str, int] = {}
    rolls: dict[str, list[int]] = {}
    individual = False
    # "each hero (and ally in the case of targeting in combat) rolls a ten-sided die"
    candidates = targetable(s) + list(s.allies)
    names = {h: name_of(s, h) for h in candidates}
    rollers = {a: "group" for a in s.allies}  # a player of the group rolls for each ally

    def vulnerable(h: str) -> int:
        return 2 * stacks(target_of(s, h), "vulnerable")

    if action.target == "group":
        hits = {h: 1 for h in candidates}
    elif action.target in TARGET_COUNTS:
        individual = True
        candidates = [h for h in candidates if h not in struck]
        n = TARGET_COUNTS[action.target] + DIFFICULTIES[c.difficulty].extra_targets
        why = f"target dice for {action.name or action.key}"
        if action.unyielding and candidates:
            for i in range(n):
                chosen, r = target_dice(
                    chance,
                    candidates,
                    1,
                    f"{why} (attack {i + 1})",
                    vulnerable,
                    names=names,
                    rollers=rollers,
                )
                for h, v in r.items():
                    rolls.setdefault(h, []).extend(v)
                for h in chosen:
                    hits[h] = hits.get(h, 0) + 1
        else:
            chosen, rolls = target_dice(
                chance, candidates, n, why, vulnerable, names=names, rollers=rollers
            )
            hits = {h: 1 for h in chosen}
    skill_rolls = {
        t: {k: check_skill(d, chance, t, k, f"against {action.name}")[0] for k in action.skills}
        for t in hits
        if action.skills and t in s.heroes  # allies roll no Skills
    }
    d.emit(
        OpponentActed(
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
            foe="" if key == OPPONENT else key,
        )
    )
    if wanted.cost and not defaulted:
        d.emit(
            VitalsChanged(
                who=key,
                energy=-wanted.cost,
                why=f"{wanted.name or wanted.key} costs {wanted.cost} Energy",
            )
        )
    return set(hits) if individual else set()
