"""Combat from start to end: starting it, each round's start, the end, and the mat's
own commands (Conditions from cards, raising the Difficulty).

A round is three commands, as at the table: each hero `declare`s, `opponent_action` rolls
the action die and the target dice, and `resolve_round` settles every number at once
(`declare.py`, `opponent.py`, `resolve.py`).
"""

from __future__ import annotations

from companion.core.rules import Chance, RuleError
from companion.core.tables import Decision
from companion.games.hexplore.args import (
    AddOpponent,
    ConditionArgs,
    Cure,
    Inflict,
    RaiseDifficulty,
    StartCombat,
)
from companion.games.hexplore.common import (
    active_heroes,
    check_lost,
    current,
    hero_id,
    in_combat,
    in_play,
    whole,
)
from companion.games.hexplore.conditions import CAPPED, combat_over, inflict, upkeep
from companion.games.hexplore.content import HexContent
from companion.games.hexplore.dice import SUCCEEDED
from companion.games.hexplore.events import (
    AllyLeft,
    BossDefeated,
    CombatEnded,
    CombatStarted,
    ConditionLost,
    DifficultyRaised,
    GameWon,
    GroupWandered,
    HeroDied,
    OpponentBeaten,
    OpponentJoined,
    PassiveRolled,
    RoundBegan,
    SentinelDefeated,
    SingleRewardsWaiting,
    VitalsChanged,
)
from companion.games.hexplore.fight import Potency, failed, fighting, find_opponent
from companion.games.hexplore.house import house
from companion.games.hexplore.rewards import give_rewards, rewarded
from companion.games.hexplore.schema import Action, Opponent
from companion.games.hexplore.skills import check_skill
from companion.games.hexplore.state import (
    GROUP_NAME,
    OPPONENT,
    HexploreState,
    OpponentState,
    foe_key,
    foe_of,
    foes,
    is_foe,
    standing,
)
from companion.games.hexplore.tables import (
    CONDITIONS,
    DIFFICULTIES,
    DIFFICULTY_ORDER,
    PLAY_STYLES,
    raised,
)


def start_combat(d: Decision, args: StartCombat, chance: Chance, content: HexContent) -> None:
    s: HexploreState = d.state
    if in_combat(s):
        raise RuleError(f"the combat with {current(s).opponent.name} is still under way")
    wanted = args.opponent
    magi = content.magi()
    if wanted is None and s.adrimon_attacks and magi is not None:
        wanted = magi.id  # from Fate Cycle 10 she comes to the heroes every Event phase
    card = find_opponent(content, wanted)
    if card.kind == "boss" and card.id in s.bosses_defeated:
        raise RuleError(
            f"{card.title} is defeated: the hex location is cleared and a Boss cannot be refought"
        )
    heroes = active_heroes(s)
    if not heroes:
        raise RuleError("no hero is able to fight")
    steps = _dangerous(args.dangerous, card)
    difficulty = raised(s.difficulty, steps)
    row = DIFFICULTIES[difficulty]
    sentinel = args.sentinel
    if sentinel and not any(x.location == sentinel for x in s.sentinels):
        raise RuleError(f"no Sentinel stands at {sentinel!r}")
    opponent = _vitals(s, card, difficulty, len(heroes))
    d.emit(
        CombatStarted(
            opponent=opponent,
            difficulty=difficulty,
            dangerous=steps,
            heroes=heroes,
            sentinel=sentinel,
            passive=card.kind == "boss" and row.passives and card.action("passive") is not None,
        )
    )
    begin_round(d, chance, card, 1, content)


def _dangerous(dangerous: bool | int, card: Opponent) -> int:
    """How many times this opponent raises the Difficulty for the combat."""
    extra = int(dangerous)
    if extra < 0:
        raise RuleError("dangerous is true, or how many times the Difficulty rises")
    return int(card.dangerous) + extra


def _vitals(s: HexploreState, card: Opponent, difficulty: str, heroes: int) -> OpponentState:
    """An opponent's Vitals on the mat: the card's, plus the Difficulty's per hero."""
    bonus = DIFFICULTIES[difficulty].vitals_per_hero * heroes
    shield = card.soul_shield
    if shield and card.type == "magi" and PLAY_STYLES[s.play_style].magi_shield_halved:
        shield //= 2
    shield = shield + bonus if shield else 0
    health = shield or card.health + bonus
    influence = card.influence + bonus if card.influence else 0
    return OpponentState(
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


def add_opponent(d: Decision, args: AddOpponent, chance: Chance, content: HexContent) -> None:
    """Another opponent joins the combat before anyone has declared: "If both Circumstances
    are Encounters, resolve both in one combat" (Dual Boards), or both Bosses at once in the
    final battle.  A Dangerous one raises the combat's Difficulty, and every opponent on the
    mat gains the per-hero Vitals of the raised Difficulty (Ruling 43)."""
    s: HexploreState = d.state
    if not in_combat(s):
        raise RuleError("there is no combat under way: start_combat first")
    c = current(s)
    if c.phase != "declare" or c.round != 1 or c.declarations:
        raise RuleError("opponents join as the combat begins: before anyone declares in round 1")
    card = find_opponent(content, args.opponent)
    if any(o.id == card.id for _, o in foes(c)):
        raise RuleError(f"{card.title} is already in this combat")
    if card.kind == "boss" and card.id in s.bosses_defeated:
        raise RuleError(
            f"{card.title} is defeated: the hex location is cleared and a Boss cannot be refought"
        )
    steps = _dangerous(args.dangerous, card)
    difficulty = raised(c.difficulty, steps)
    per_hero = DIFFICULTIES[difficulty].vitals_per_hero - DIFFICULTIES[c.difficulty].vitals_per_hero
    first = find_opponent(content, c.opponent.id)
    before = [p.name for p in passives(s, first, content)]
    d.emit(
        OpponentJoined(
            who=foe_key(len(c.extra) + 1),
            opponent=_vitals(s, card, difficulty, len(c.heroes)),
            difficulty=difficulty,
            dangerous=c.dangerous + steps,
            raise_others=per_hero * len(c.heroes),
        )
    )
    # it joins as the combat begins, so this Declaration phase is its beginning too: a
    # Boss's Passive ("at the beginning of every Declaration phase") is rolled now, and so
    # is one the raised Difficulty has just unlocked (Ruling 46)
    for passive in passives(s, first, content):
        if passive.name not in before:
            roll_passive(d, chance, passive)


def begin_round(
    d: Decision, chance: Chance, card: Opponent, number: int, content: HexContent
) -> None:
    """The start of a Declaration phase: Conditions bite, each Boss's passive is rolled."""
    s: HexploreState = d.state
    d.emit(RoundBegan(round=number))
    for who in fighting(s) + list(s.allies):
        upkeep(d, who)
    for key, _ in standing(current(s)):
        upkeep(d, key)
    for passive in passives(s, card, content):
        roll_passive(d, chance, passive)


def passives(s: HexploreState, card: Opponent, content: HexContent) -> list[Action]:
    """The Passives of the Bosses still standing, in the order they joined: "The Passive
    Ability is unlocked only if you're playing on Moderate Difficulty or greater" (the
    combat's Difficulty now, which a Dangerous newcomer may have raised).  A beaten Boss's
    passive is gone with it."""
    c = current(s)
    if not DIFFICULTIES[c.difficulty].passives:
        return []
    out: list[Action] = []
    for key, o in standing(c):
        boss = card if key == OPPONENT else find_opponent(content, o.id)
        passive = boss.action("passive") if boss.kind == "boss" else None
        if passive is not None:
            out.append(passive)
    return out


def roll_passive(d: Decision, chance: Chance, passive: Action) -> None:
    """Every hero fighting rolls the Passive's skills; failing costs what it says."""
    s: HexploreState = d.state
    bonus = DIFFICULTIES[current(s).difficulty].damage
    p = Potency.of(passive)
    results: dict[str, dict[str, str]] = {}
    for hid in fighting(s):
        results[hid] = {
            k: check_skill(d, chance, hid, k, f"against {passive.name}")[0] for k in passive.skills
        }
    d.emit(PassiveRolled(name=passive.name, results=results))
    for hid, res in results.items():
        if not failed(passive, res):
            continue
        health = p.fail_health + bonus if p.fail_health else 0
        energy = p.fail_energy + bonus if p.fail_energy else 0
        if health or energy:
            d.emit(
                VitalsChanged(
                    who=hid, health=-health, energy=-energy, why=f"failed against {passive.name}"
                )
            )
        for e in passive.fail_conditions:
            inflict(d, hid, e.condition, e.rounds, e.value, e.damage)
    for hid, res in results.items():
        if res.get(passive.fail_caps_attack, "success") not in SUCCEEDED:
            inflict(d, hid, CAPPED, rounds=1)


def phase_end(d: Decision, phase: str) -> None:
    """A combat phase ends: whoever is still at 0 Health or less (or Tethered at 0 Energy)
    dies now, and negative Vitals come back to 0 (Hero / Opponent Defeat, Negative Vitals?).

    Called as the Declaration phase gives way to the Opponent phase, as the Resolution
    phase ends, and when the combat itself ends (Ruling 22)."""
    s: HexploreState = d.state
    c = current(s)
    for hid in c.heroes:
        h = s.heroes[hid]
        if h.dead or h.vanished:
            continue
        tethered = "tethered" in h.conditions and (h.health <= 0 or h.energy <= 0)
        if h.health <= 0 or tethered:
            why = f"still at {h.health} Health as {phase} ended"
            if tethered and h.health > 0:
                why = f"Tethered at {h.energy} Energy as {phase} ended"
            d.emit(HeroDied(hero=hid, why=why))
        low = {v: -getattr(h, v) for v in ("health", "energy") if getattr(h, v) < 0}
        if low:
            d.emit(VitalsChanged(who=hid, why="negative Vitals return to 0", **low))
    for aid, a in list(s.allies.items()):
        if a.health <= 0:
            lost = " - the Escort is lost" if a.kind == "escort" else ""
            d.emit(AllyLeft(ally=aid, name=a.name, why=f"falls as {phase} ended{lost}"))
        elif a.energy < 0:
            d.emit(VitalsChanged(who=aid, energy=-a.energy, why="negative Vitals return to 0"))
    for key, o in standing(c):
        low = {
            v: -getattr(o, v)
            for v in ("health", "energy", "soul_shield", "influence")
            if getattr(o, v) < 0
        }
        if low:
            d.emit(VitalsChanged(who=key, why="negative Vitals return to 0", **low))
    check_lost(d)


def settle_foes(
    d: Decision, chance: Chance, content: HexContent, card: Opponent, influence: bool
) -> bool:
    """A combat phase has ended: an opponent at 0 Health or less (or, after the Resolution
    phase, Influenced) is beaten.  The combat ends when every opponent is beaten or no hero
    fights on; otherwise those beaten leave it and it goes on.  True if it ended."""
    s: HexploreState = d.state
    c = current(s)
    up = standing(c)
    beaten: list[tuple[str, str]] = []
    for key, o in up:
        if influence and o.savable and o.soul_shield <= 0 and o.influence <= 0:
            beaten.append((key, "influenced"))
        elif o.health <= 0:
            beaten.append((key, "vanquished"))
    if not c.extra:  # one opponent: as the single-opponent combat always ended
        if beaten:
            end_combat(d, chance, content, card, beaten[0][1])
            return True
    else:
        for key, outcome in beaten:
            d.emit(OpponentBeaten(who=key, outcome=outcome, name=foe_of(c, key).name))
        if len(beaten) == len(up):
            outcomes = set(c.beaten.values())
            end_combat(
                d,
                chance,
                content,
                card,
                "influenced" if outcomes == {"influenced"} else "vanquished",
            )
            return True
    if not fighting(s):
        end_combat(d, chance, content, card, "fled" if c.fled else "heroes_fell")
        return True
    return False


def end_combat(
    d: Decision, chance: Chance, content: HexContent, card: Opponent, outcome: str
) -> None:
    """The last combat phase ends (death and Vitals as at every phase's end); Conditions
    that do not Persist end; then the rewards."""
    s: HexploreState = d.state
    c = current(s)
    phase_end(d, "the combat")
    for hid in c.heroes:
        if not s.heroes[hid].dead and not s.heroes[hid].vanished:
            combat_over(d, hid)
    for aid in s.allies:
        combat_over(d, aid)
    o = c.opponent
    d.emit(CombatEnded(outcome=outcome, opponent=o.id, kind=o.kind))
    if not c.extra:
        if outcome in ("vanquished", "influenced"):
            _beaten(d, chance, content, card, o, outcome, c.sentinel)
    else:
        # "If the heroes defeat their opponent(s), they'll gain the reward shown on the
        # card": each beaten opponent's, in the order they fell, to those still fighting.
        waiting: list[str] = []  # Single Rewards by choice wait together
        for key, how in c.beaten.items():
            foe = foe_of(c, key)
            sentinel = c.sentinel if key == OPPONENT else ""
            foe_card = find_opponent(content, foe.id)
            _beaten(d, chance, content, foe_card, foe, how, sentinel, waiting)
        if waiting and rewarded(s):
            d.emit(SingleRewardsWaiting(rewards=waiting, heroes=rewarded(s)))
    if outcome == "fled" or (c.fled and house(s, "flee_wander") == "any_fled"):
        # "Once the entire group has fled, or combat ends, the group Wanders" (Ruling 38)
        roll = chance.roll(
            "hex_d6",
            for_="group",
            why="the group Wanders after fleeing",
            role="wander",
            who=GROUP_NAME,
        )[0]
        d.emit(GroupWandered(direction=roll, stayed=False, why="fled from combat", to_magi=True))
    check_lost(d)


def _beaten(
    d: Decision,
    chance: Chance,
    content: HexContent,
    card: Opponent,
    o: OpponentState,
    outcome: str,
    sentinel: str,
    waiting: list[str] | None = None,
) -> None:
    """One opponent beaten: its rewards, its Sentinel, its Boss's place, the game won."""
    s: HexploreState = d.state
    give_rewards(d, chance, card, outcome, waiting)
    if sentinel:
        d.emit(SentinelDefeated(at=sentinel))
    if o.kind == "boss":
        d.emit(BossDefeated(boss=o.id))
        done = len(s.bosses_defeated)
        if s.play_style == "marathon" and done % 2 == 1 and s.difficulty != "epic":
            d.emit(
                DifficultyRaised(
                    difficulty=raised(s.difficulty, 1), why=f"Marathon: boss {done} defeated"
                )
            )
    _won(d, content, o)


def _won(d: Decision, content: HexContent, o: OpponentState) -> None:
    """Adrimon's defeat wins the game; in Marathon "Players must destroy each boss to win
    the game, but may do so in any order", so the last Boss standing (Adrimon among them)
    wins it, whichever it is (Ruling 37)."""
    s: HexploreState = d.state
    if o.kind != "boss":
        return
    if s.play_style != "marathon":
        if o.type == "magi":
            d.emit(GameWon(why="Adrimon is defeated"))
        return
    left = [
        b.title for b in content.opponents() if b.kind == "boss" and b.id not in s.bosses_defeated
    ]
    if not left:
        d.emit(GameWon(why="Marathon: every Boss is destroyed, Adrimon among them"))


def inflict_condition(d: Decision, args: Inflict, chance: Chance, content: HexContent) -> None:
    """A Condition from something the app does not run (a card, a Mastery, an item)."""
    who, name = _living_target(d.state, args)
    numbers = {
        "rounds": whole(args.rounds, "rounds"),
        "value": whole(args.value, "value"),
        "damage": whole(args.damage, "damage"),
    }
    to = args.to
    if name == "bound" and to not in d.state.heroes:
        raise RuleError("say which hero the Bound target is tied to (to: <hero>)")
    inflict(d, who, name, to=to, **numbers)


def cure_condition(d: Decision, args: Cure, chance: Chance, content: HexContent) -> None:
    who, name = _condition_args(d.state, args)
    holder = foe_of(current(d.state), who) if is_foe(who) else d.state.heroes[who]
    if name not in holder.conditions:
        raise RuleError(f"{holder.name} is not {name.replace('_', ' ')}")
    if name in ("encased", "soul_laced"):
        raise RuleError(f"{name.replace('_', ' ').title()} may not be removed that way")
    d.emit(ConditionLost(who=who, condition=name))


def _condition_args(s: HexploreState, args: ConditionArgs) -> tuple[str, str]:
    asked = args.who
    if asked is not None and is_foe(asked) and asked not in s.heroes:
        if not in_combat(s):
            raise RuleError("there is no opponent outside combat")
        if asked not in dict(standing(current(s))):
            raise RuleError(f"there is no opponent {asked!r} standing in this combat")
        who = asked
    else:
        who = hero_id(s, asked)
    name = args.condition
    if name is None or name not in CONDITIONS:
        raise RuleError(f"unknown condition {name!r} (known: {', '.join(CONDITIONS)})")
    return who, name


def _living_target(s: HexploreState, args: ConditionArgs) -> tuple[str, str]:
    who, name = _condition_args(s, args)
    if not is_foe(who) and not in_play(s.heroes[who]):
        raise RuleError(f"{s.heroes[who].name} is out of the game: no Condition takes hold")
    return who, name


def raise_difficulty(
    d: Decision, args: RaiseDifficulty, chance: Chance, content: HexContent
) -> None:
    s: HexploreState = d.state
    if in_combat(s):
        raise RuleError("the Difficulty can only be raised outside combat")
    to = raised(s.difficulty, 1) if args.to is None else args.to
    if to not in DIFFICULTIES:
        raise RuleError(f"difficulty must be one of {', '.join(DIFFICULTIES)}")
    if DIFFICULTY_ORDER.index(to) <= DIFFICULTY_ORDER.index(s.difficulty):
        raise RuleError(f"the Difficulty is {s.difficulty} and can never be lowered")
    d.emit(DifficultyRaised(difficulty=to, why="the group chose"))
