"""How long one full HEXplore combat round takes with 4 heroes.

A round is what the table does: four `declare`s, `opponent_action` (action die answered) and
`resolve_round`.  Measured twice: the pure rules (decide + evolve, as a replay or the
session's re-run does) and through a real `Session` (SQLite commit per transaction).  The
floor is a bare `copy.deepcopy` of the same state in the same run, because every command's
`Decision` starts with one and the machine is shared and noisy.
"""

from __future__ import annotations

import copy
import statistics
import tempfile
import time
from pathlib import Path

from companion.core.rules import Chance, Command
from companion.core.session import Session
from companion.games import get_game, load_game_content

ROUNDS = 300
HEROES = [
    {
        "id": f"h{i}",
        "health": 100_000,
        "energy": 50,
        "food_rating": 1,
        "skills": {"navigate": 6, "explore": 6, "survival": 6},
        "abilities": {"attack": 5, "defend": 3},
    }
    for i in range(4)
]
SETUP = {"difficulty": "easy", "heroes": HEROES}
# Decaying Forest: group Health damage with Block 15, so the Boss outlasts every round.
ROUND = [Command("declare", {"hero": h["id"], "action": "attack"}) for h in HEROES] + [
    Command("opponent_action"),
    Command("resolve_round"),
]
ANSWERS = {"opponent_action": [[5]]}


def _stats(label: str, samples: list[float], floor: float) -> None:
    ordered = sorted(samples)
    median = statistics.median(ordered)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    print(
        f"{label:<34} median {median * 1e6:9.1f} us   p99 {p99 * 1e6:9.1f} us   "
        f"median / floor {median / floor:6.1f}x"
    )


def _start_state(game, content):
    state = game.initial_state(SETUP, content)
    for cmd in [Command("start_combat", {"opponent": "tharanos"})]:
        for event in game.decide(state, cmd, Chance(), content):
            game.evolve(state, event)
    state.combat.opponent.health = state.combat.opponent.max_health = 10**9
    return state


def bench_rules(game, content) -> tuple[list[float], list[float]]:
    state = _start_state(game, content)
    rounds, floors = [], []
    for _ in range(ROUNDS):
        t0 = time.perf_counter()
        copy.deepcopy(state)
        floors.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        for cmd in ROUND:
            events = game.decide(state, cmd, Chance(ANSWERS.get(cmd.name, [])), content)
            for event in events:
                game.evolve(state, event)
        rounds.append(time.perf_counter() - t0)
    assert state.combat.round == ROUNDS + 1, state.combat.round
    return rounds, floors


def bench_session(game, content, rounds: int = ROUNDS // 3) -> list[float]:
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        s = Session.create(Path(tmp) / "bench.session", game, SETUP, content=content)
        s.do("start_combat", {"opponent": "tharanos"})
        # as tough as a correction may make it (9,999: arguments.check_value), so the
        # combat outlasts the timed rounds
        s.correct("combat.opponent.max_health", 9999)
        s.correct("combat.opponent.health", 9999)
        for _ in range(rounds):
            t0 = time.perf_counter()
            for cmd in ROUND:
                s.do(cmd.name, cmd.args)
                for answer in ANSWERS.get(cmd.name, []):
                    s.answer(answer)
            out.append(time.perf_counter() - t0)
        s.close()
    return out


def main() -> None:
    game = get_game("hexplore")
    content = load_game_content(game)
    bench_rules(game, content)  # warm up imports and caches
    rounds, floors = bench_rules(game, content)
    floor = statistics.median(floors)
    print(
        f"one combat round with 4 heroes (4 declare, opponent_action, resolve_round), "
        f"{ROUNDS} rounds; each command's Decision deep-copies the state once"
    )
    _stats("deepcopy(state) floor", floors, floor)
    _stats("rules: decide + evolve", rounds, floor)
    _stats("session: do/answer + SQLite", bench_session(game, content), floor)


if __name__ == "__main__":
    main()
