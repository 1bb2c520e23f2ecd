"""Random play through the legal actions never reaches a state the rules forbid, and every
value derived from the state stays right after any correction.

`forbidden(state)` is written here, from the rulebook, independently of the rules code: it
names what a table could never see (a living hero at 0 Health outside combat, a fifth
Sentinel, a seventh Gear Upgrade ...).  Play goes through `legal_actions` exactly as
self-play does, under several set-ups (one hero, six heroes, each house rule, each play
style), and is checked after every command.
"""

from __future__ import annotations

import random
from typing import Any

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.core.corrections import apply_correction, verify_correction
from companion.core.rules import Event, RuleError
from companion.games.hexplore.common import active_heroes, food_cap, gold_cap, in_combat
from companion.games.hexplore.fight import fighting
from companion.games.hexplore.keywords import moved_normally
from companion.games.hexplore.levelling import upgradable
from companion.games.hexplore.setting_out import before_the_game
from companion.games.hexplore.state import (
    Condition,
    HexploreState,
    cycle_length,
    movement,
    single_reward_takers,
    solo,
)
from tests.hexplore.play import CONTENT, GAME, random_value, run, with_inputs

SETTINGS = settings(derandomize=True, max_examples=25, deadline=None)


def _hero(hid: str, rank: int) -> dict[str, Any]:
    return {
        "id": hid,
        "health": 9,
        "energy": 5,
        "food_rating": 1,
        "food": 2,
        "skills": {"navigate": rank, "explore": rank, "survival": rank},
        "abilities": {"attack": 4, "defend": 2},
    }


SETUPS: list[dict[str, Any]] = [
    {},
    {"heroes": [_hero("solo", 6)], "play_style": "quick_play"},
    {
        "heroes": [_hero(h, 3 + i) for i, h in enumerate("abcdef")],
        "difficulty": "moderate",
        "flee_wander": "all_fled",
        "single_rewards": "choice",
        "vanish_roll": "same_magi_phase",
        "defend_each": "attack",
    },
    {"heroes": [_hero("a", 2), _hero("b", 8)], "play_style": "marathon", "difficulty": "easy"},
]


def forbidden(s: HexploreState) -> list[str]:
    """What the rulebook says can never be on the table."""
    bad: list[str] = []
    fight = in_combat(s)
    for hid, h in s.heroes.items():
        alive = not (h.dead or h.vanished)
        if h.dead and h.conditions:
            bad.append(f"{hid} is dead yet has Conditions {list(h.conditions)}")
        if not fight and alive and not h.mindwiped and h.health <= 0:
            bad.append(f"{hid} lives on at {h.health} Health outside combat")
        if not fight and (h.health < 0 or h.energy < 0):
            bad.append(f"{hid} has negative Vitals outside combat")
        if h.starving >= 3 and not h.dead:
            bad.append(f"{hid} starves at level 3 and lives")
        if not 0 <= h.starving <= 3:
            bad.append(f"{hid} starving level {h.starving}")
        if not 0 <= h.gold <= gold_cap(h) or not 0 <= h.food <= food_cap(h):
            bad.append(f"{hid} carries {h.gold} Gold, {h.food} Food")
        if any(n > 6 for n in h.upgrades.values()):
            bad.append(f"{hid} has more than 6 Gear Upgrades in a stat: {h.upgrades}")
        if h.vanished and not h.mindwiped:
            bad.append(f"{hid} vanished without being mindwiped")
    for aid, a in s.allies.items():
        if aid in s.heroes:
            bad.append(f"ally id {aid} is a hero's")
        if not fight and a.health <= 0:
            bad.append(f"{a.name} travels on at {a.health} Health")
        if a.health > a.max_health:
            bad.append(f"{a.name} above its maximum Health")
    if len(s.sentinels) > 4:
        bad.append(f"{len(s.sentinels)} Sentinels in play (only 4 may be)")
    if len({x.location for x in s.sentinels}) != len(s.sentinels):
        bad.append("two Sentinels share a hex")
    if len(set(s.bosses_defeated)) != len(s.bosses_defeated):
        bad.append(f"a Boss was defeated twice: {s.bosses_defeated}")
    if s.outcome == "lost" and active_heroes(s):
        bad.append("lost with heroes still in play")
    waiting = [h for h in s.heroes.values() if h.dead and h.spirit_tether and not h.mindwiped]
    if s.outcome is None and not active_heroes(s) and not waiting:
        bad.append("every hero is dead or mindwiped and the game goes on")
    if s.combat is not None:
        c = s.combat
        for hid in c.declarations:
            if hid in c.fled:
                bad.append(f"{hid} fled and still declared")
        if fight and c.phase == "declare":
            dead = [h for h in c.heroes if s.heroes[h].dead]
            if any(h in fighting(s) for h in dead):
                bad.append("a dead hero still fights")
        if c.phase == "over":
            o = c.opponent
            if min(o.health, o.energy, o.soul_shield, o.influence) < 0:
                bad.append("the opponent kept negative Vitals after the combat")
    for hid in s.single_to:
        if hid not in s.heroes:
            bad.append(f"Single Reward for unknown hero {hid}")
    return bad


def derived(s: HexploreState) -> dict[str, Any]:
    """Every value the rules work out from the state rather than store."""
    return {
        "cycle_length": cycle_length(s),
        "movement": movement(s),
        "solo": solo(s),
        "active": active_heroes(s),
        "fighting": fighting(s) if in_combat(s) else None,
        "takers": single_reward_takers(s),
        "moved_normally": moved_normally(s),
        "before_the_game": before_the_game(s),
        "upgradable": {h: upgradable(x) for h, x in s.heroes.items()},
        "summary": GAME.summary(s),
        "legal": [(a["label"], a["do"], a["with"]) for a in GAME.legal_actions(s, CONTENT)],
    }


Log = list[tuple[str, Any]]


def _step(s: HexploreState, rng: random.Random, log: Log) -> HexploreState:
    actions = GAME.legal_actions(s, CONTENT)
    if not actions:
        return s
    action = rng.choice(actions)
    args = with_inputs(action, random_value(rng))
    try:
        events = run(s, action["do"], args, rng)
    except RuleError as exc:
        raise AssertionError(f"listed {action['label']!r} {args} refused: {exc.message}") from exc
    for e in events:
        GAME.evolve(s, e)
        log.append(("event", e))
    return s


@SETTINGS
@given(st.integers(0, 10_000), st.sampled_from(range(len(SETUPS))))
def test_random_legal_play_never_reaches_a_forbidden_state(seed: int, which: int) -> None:
    rng = random.Random(seed)
    s = GAME.initial_state(SETUPS[which], CONTENT)
    for step in range(250):
        if s.outcome:
            break
        before_turn = s.turn
        s = _step(s, rng, [])
        problems = forbidden(s)
        assert not problems, f"step {step}: {problems}"
        if s.turn != before_turn:  # a Game Turn ended: Raised Vitals are gone
            over = [h for h, x in s.heroes.items() if x.health > x.max_health]
            assert not over, f"Raised Vitals outlived the Game Turn: {over}"


CORRECTIONS = [
    ("heroes.{h}.health", lambda r: r.randint(0, 12)),
    ("heroes.{h}.energy", lambda r: r.randint(0, 8)),
    ("heroes.{h}.skills.navigate", lambda r: r.randint(1, 9)),
    ("heroes.{h}.dead", lambda r: r.random() < 0.5),
    ("heroes.{h}.gold", lambda r: r.randint(0, 30)),
    ("heroes.{h}.upgrades", lambda r: {"attack": r.randint(0, 6)}),
    ("fate.tracker", lambda r: r.randint(0, 5)),
    ("play_style", lambda r: r.choice(["standard", "double_up", "quick_play", "marathon"])),
    ("difficulty", lambda r: r.choice(["starter", "easy", "moderate", "epic"])),
    ("house_rules", lambda r: {"single_rewards": r.choice(["chance", "choice"])}),
    ("teleported", lambda r: r.randint(0, 3)),
]


def _replay(options: dict[str, Any], log: Log) -> HexploreState:
    """The state folded afresh from the set-up, the events and the corrections."""
    s = GAME.initial_state(options, CONTENT)
    for kind, item in log:
        if kind == "event":
            assert isinstance(item, Event)
            GAME.evolve(s, item)
        else:
            path, value = item
            s = apply_correction(s, HexploreState, path, value)
    return s


@SETTINGS
@given(st.integers(0, 10_000), st.sampled_from(range(len(SETUPS))))
def test_derived_values_follow_any_correction(seed: int, which: int) -> None:
    rng = random.Random(seed)
    options = SETUPS[which]
    s = GAME.initial_state(options, CONTENT)
    log: Log = []
    for _ in range(rng.randint(5, 120)):
        if s.outcome:
            break
        s = _step(s, rng, log)
    corrected = 0
    for _ in range(3):
        path, value_of = rng.choice(CORRECTIONS)
        path = path.format(h=rng.choice(list(s.heroes)))
        value = value_of(rng)
        try:
            verify_correction(GAME, s, CONTENT, path, value)
        except RuleError:
            continue
        s = apply_correction(s, HexploreState, path, value)
        log.append(("correct", (path, value)))
        corrected += 1
    fresh = _replay(options, log)
    assert msgspec.to_builtins(s) == msgspec.to_builtins(fresh)
    assert derived(s) == derived(fresh)
    # and the two play on alike: nothing derived was left behind by the correction
    rng_a, rng_b = random.Random(seed + 1), random.Random(seed + 1)
    for _ in range(30):
        if s.outcome:
            break
        s = _step(s, rng_a, [])
        fresh = _step(fresh, rng_b, [])
        assert derived(s) == derived(fresh)


def test_the_oracle_sees_a_forbidden_state() -> None:
    """`forbidden` is no empty check: hand-broken tables are named."""
    s = GAME.initial_state(SETUPS[2], CONTENT)
    assert forbidden(s) == []
    s.heroes["a"].health = 0
    s.heroes["b"].upgrades = {"attack": 7}
    s.heroes["c"].dead = True
    s.heroes["c"].conditions = {"poisoned": Condition()}
    problems = forbidden(s)
    assert any("a lives on at 0 Health" in p for p in problems)
    assert any("more than 6 Gear Upgrades" in p for p in problems)
    assert any("c is dead yet has Conditions" in p for p in problems)
