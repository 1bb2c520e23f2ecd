"""Random play through the listed actions never reaches a state the rules forbid, and every
value derived from the state stays right after any correction.

`forbidden` is the rulebook's hard limits written once: stamina tracks, hit points, one unit a
square, one battle a hero a round, the Adventure Phase's order (move, battle, discard; in turn
order; nothing after a turn has ended), Karn's fifteen cards.  The correction test plays a
session, corrects a field the way a table would, and compares what the rules derive from the
live state with what they derive from the same session reopened from its file (replayed from
the log, nothing kept from before).
"""

from __future__ import annotations

import random
import tempfile
from pathlib import Path
from typing import Any

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.core.rules import Event, RuleError
from companion.core.session import Session
from companion.games.direwild.board import SLOTS, STAGING, geometry
from companion.games.direwild.rounds import end_condition
from companion.games.direwild.state import (
    FATAL_WOUNDS,
    KARN_CARDS,
    MAGIC_MAX,
    STAMINA_MAX,
    STAMINA_MIN,
    DirewildState,
)
from companion.games.direwild.units import current_hero, on_board_enemies, position
from tests.direwild.play import CONTENT, GAME, decide, filled

SETUPS: list[dict[str, Any]] = [
    {},
    {"players": ["shadowleaf", "groundbreaker", "bloodmaker"], "ai_deck": "mixed"},
    {"players": ["stormbringer", "shadowleaf", "groundbreaker", "featherheart"]},
    {"players": ["stormbringer", "featherheart"], "chapter": 3, "prelude": False},
    {"players": ["featherheart", "bloodmaker"], "karn_presence": "always"},
    {"players": ["stormbringer", "featherheart"], "treasure_monster_loss": "no_wound"},
]
PROPERTY = settings(
    derandomize=True,
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
HERO_ACTS = {"HeroMoved", "BattleResolved", "TreasureMonsterBattled"}


class Turns:
    """What each hero did this round, read off the events as they come."""

    def __init__(self) -> None:
        self.battles: dict[str, int] = {}
        self.battled: set[str] = set()
        self.ended: set[str] = set()

    def check(self, before: DirewildState, event: Event) -> list[str]:
        """The rule an event breaks, judged on the state just before it."""
        if event.type == "RoundStarted":
            self.battles, self.battled, self.ended = {}, set(), set()
            return []
        hero = event.data.get("hero", "")
        out: list[str] = []
        if event.type in HERO_ACTS:
            if hero in self.ended:
                out.append(f"{hero} acted ({event.type}) after its turn ended")
            now = current_hero(before)
            if now is not None and now != hero:
                out.append(f"{hero} acted ({event.type}) during {now}'s Adventure Phase")
        if event.type == "HeroMoved" and hero in self.battled:
            out.append(f"{hero} moved after battling")
        if event.type in ("BattleResolved", "TreasureMonsterBattled"):
            self.battles[hero] = self.battles.get(hero, 0) + 1
            self.battled.add(hero)
            if self.battles[hero] > 1:
                out.append(f"{hero} battled twice in one round")
        if event.type == "TurnEnded":
            self.ended.add(hero)
        return out


def forbidden(s: DirewildState) -> list[str]:
    """Every hard limit of the rulebook the state breaks (empty: none)."""
    out: list[str] = []
    if not 0 <= s.fatal_wounds <= FATAL_WOUNDS:
        out.append(f"{s.fatal_wounds} Fatal Wounds in the pile")
    if s.outcome == "lost" and s.fatal_wounds:
        out.append("lost with Fatal Wounds left")
    geo = geometry(CONTENT.get("boards", s.board))
    squares: list[str] = []
    for name, h in s.heroes.items():
        if not STAMINA_MIN <= h.stamina <= STAMINA_MAX:
            out.append(f"{name} stamina {h.stamina}")
        if not (0 <= h.magic <= MAGIC_MAX and h.inactive >= 0):
            out.append(f"{name} magic {h.magic}, inactive {h.inactive}")
        if h.position != STAGING and not geo.contains(h.position):
            out.append(f"{name} off the board at {h.position}")
        if h.eaten_by and s.enemies[h.eaten_by].defeated:
            out.append(f"{name} still inside a defeated minion")
    for slot, e in s.enemies.items():
        hp = CONTENT.get("minions", e.minion).hp
        if not STAMINA_MIN <= e.stamina <= STAMINA_MAX:
            out.append(f"{slot} stamina {e.stamina}")
        if not 0 <= e.damage <= hp:
            out.append(f"{slot} has {e.damage} damage on {hp} hit points")
        if e.defeated and e.position is not None:
            out.append(f"defeated {slot} still on the board")
        if slot not in SLOTS:
            out.append(f"{slot} is not a Minion Track slot")
    for unit in [*s.heroes, *on_board_enemies(s)]:
        where = position(s, unit)
        if where is not None:
            if not geo.contains(where):
                out.append(f"{unit} off the board at {where}")
            squares.append(where)
    if len(squares) != len(set(squares)):
        out.append(f"two units share a square: {squares}")
    k = s.karn
    if k.cards_left + k.discarded + len(k.destroyed) != KARN_CARDS:
        out.append(f"Karn's cards: {k.cards_left} + {k.discarded} + {len(k.destroyed)}")
    if k.regenerates_left < 0 or not STAMINA_MIN <= k.stamina <= STAMINA_MAX:
        out.append(f"Karn regenerates {k.regenerates_left}, stamina {k.stamina}")
    return out


def play_checked(seed: int, steps: int, setup: dict[str, Any]) -> DirewildState:
    """Self-play through the listed actions, checking every event and every state."""
    rng = random.Random(seed)
    state = GAME.initial_state(setup, CONTENT)
    turns = Turns()
    for _ in range(steps):
        actions = GAME.legal_actions(state, CONTENT)
        if not actions:
            break
        events = decide(state, filled(rng.choice(actions), rng), rng)
        for event in events:
            broken = turns.check(state, event)
            assert not broken, broken
            GAME.evolve(state, event)
        assert not forbidden(state), forbidden(state)
    return state


@PROPERTY
@given(st.integers(0, 10_000), st.integers(20, 220), st.sampled_from(SETUPS))
def test_random_play_never_reaches_a_state_the_rules_forbid(
    seed: int, steps: int, setup: dict[str, Any]
) -> None:
    play_checked(seed, steps, setup)


def test_the_invariants_catch_what_they_name() -> None:
    """The checks can fail: a state broken by hand is caught."""
    state = GAME.initial_state({"minions": {"red": "inkling"}}, CONTENT)
    assert forbidden(state) == []
    state.heroes["stormbringer"].stamina = -4
    state.enemies["red"].damage = 4
    state.karn.discarded = 1
    state.heroes["shadowleaf"].position = state.enemies["red"].position or ""
    broken = " / ".join(forbidden(state))
    for words in ("stormbringer stamina -4", "4 damage", "Karn's cards", "share a square"):
        assert words in broken, broken
    turns = Turns()
    state = GAME.initial_state({"players": ["stormbringer", "featherheart"]}, CONTENT)
    state.phase = "adventure"
    battle = Event("BattleResolved", {"hero": "featherheart"})
    assert "during stormbringer's Adventure Phase" in " ".join(turns.check(state, battle))
    state.heroes["stormbringer"].done = True
    assert turns.check(state, Event("HeroMoved", {"hero": "featherheart"})) == [
        "featherheart moved after battling"
    ]


# -- corrections ---------------------------------------------------------------------


def derived(s: DirewildState) -> dict[str, Any]:
    """What the rules work out from a state rather than store: whose turn, who is where,
    the enemies' totals, the end condition and what may be done."""
    from companion.games.direwild.battle import enemy_attack

    return {
        "current": current_hero(s),
        "on_board": {u: position(s, u) for u in on_board_enemies(s)},
        "heroes_at": {h: position(s, h) for h in s.heroes},
        "totals": {
            u: enemy_attack(s, u, CONTENT) + (s.karn.stamina if u == "karn" else 0)
            for u in on_board_enemies(s)
        },
        "end": end_condition(s) if s.phase in ("turn_order", "adventure") else None,
        "actions": [
            (a["do"], repr(sorted(a["with"].items()))) for a in GAME.legal_actions(s, CONTENT)
        ],
    }


def corrections(s: DirewildState, rng: random.Random) -> list[tuple[str, Any]]:
    """Corrections a table makes: a counter, a square, a turn flag, the pile, the order."""
    geo = geometry(CONTENT.get("boards", s.board))
    free = [
        sq
        for sq in geo.squares()
        if sq not in {position(s, u) for u in [*s.heroes, *on_board_enemies(s)]}
    ]
    out: list[tuple[str, Any]] = [("fatal_wounds", rng.randint(0, FATAL_WOUNDS))]
    for hero in s.heroes:
        out += [
            (f"heroes.{hero}.stamina", rng.randint(STAMINA_MIN, STAMINA_MAX)),
            (f"heroes.{hero}.done", rng.random() < 0.5),
            (f"heroes.{hero}.battled", rng.random() < 0.5),
            (f"heroes.{hero}.moved", rng.random() < 0.5),
        ]
        if free:
            out.append((f"heroes.{hero}.position", rng.choice(free)))
    for slot, e in s.enemies.items():
        if not e.defeated:
            out.append((f"enemies.{slot}.stamina", rng.randint(STAMINA_MIN, STAMINA_MAX)))
            out.append((f"enemies.{slot}.active", rng.random() < 0.5))
            if free:
                out.append((f"enemies.{slot}.position", rng.choice(free)))
    out.append(("turn_order", rng.sample(s.players, len(s.players))))
    out.append(("karn.stamina", rng.randint(STAMINA_MIN, STAMINA_MAX)))
    return out


def answer_all(session: Session, rng: random.Random) -> None:
    while session.request is not None:
        req = session.request
        if req.kind == "dice":
            session.answer([rng.choice(req.faces) for _ in range(req.count)])
        else:
            session.answer(rng.choice(req.options))


@settings(derandomize=True, max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.integers(0, 10_000), st.integers(5, 90), st.sampled_from(SETUPS))
def test_every_derived_value_stays_right_after_any_correction(
    seed: int, steps: int, setup: dict[str, Any]
) -> None:
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "game.session"
        session = Session.create(path, GAME, setup)
        try:
            corrected = 0
            for step in range(steps):
                actions = GAME.legal_actions(session.state, CONTENT)
                if not actions:
                    break
                if step % 7 == 3:  # now and then the table corrects something
                    field, value = rng.choice(corrections(session.state, rng))
                    try:
                        session.correct(field, value)
                        corrected += 1
                    except RuleError:
                        pass
                    continue
                try:
                    session.do(**_command(actions, rng))
                except RuleError:
                    continue
                answer_all(session, rng)
            assert corrected or steps < 25, "the table's corrections were all refused"
            live = session.state
            live_json = session.to_json()
        finally:
            session.close()
        with Session.open(path) as again:
            assert again.to_json() == live_json
            assert derived(again.state) == derived(live)
        fresh = msgspec.convert(msgspec.to_builtins(live), DirewildState)
        assert derived(fresh) == derived(live)


def _command(actions: list[Any], rng: random.Random) -> dict[str, Any]:
    command = filled(rng.choice(actions), rng)
    return {"name": command.name, "args": command.args}
