"""Kradia: how long one full round takes (battlefield phase, four hero actions, the boss
attack, rage and the new round), in the pure rules and through a real session file.

The floor is a bare `copy.deepcopy` of the state, measured in the same run, because the
machine is shared and noisy: the ratio is the figure to compare between runs.
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

GAME = get_game("kradia")
CONTENT = load_game_content(GAME)
OPTIONS = {
    "mode": "story",
    "heroes": ["oakla", "warden", "archer", "mystic"],
    "boss": "bench-dummy",
}
CARDS = [
    "kradia/battlefield-card/sun",
    "kradia/battlefield-card/moon",
    "kradia/battlefield-card/star",
]


def _content():
    """The demo pack plus a sturdy boss, so thousands of rounds never end the battle."""
    from companion.games.kradia.schema import Boss, ChartRow, DiceBand, Effect, Rage

    boss = Boss(
        id="kradia/boss/bench-dummy",
        level=1,
        hp=10**7,
        dice=[DiceBand(hp_at_most=10**7, dice=2)],
        chart=[ChartRow(min=2, max=12, effects=[Effect(target="all", heal=1)])],
        rage=Rage(length=4, effects=[Effect(target="all", heal=1)]),
    )
    CONTENT.items["bosses"][boss.id] = boss
    return CONTENT


def _next(state):
    """The command the table would send now, with the answer it would give."""
    from companion.games.kradia.turns import blocked

    if state.phase == "battlefield":
        bf = state.battlefield
        return "start_round", {}, (bf.face_down[0] if bf.face_down else None)
    if state.phase == "heroes":
        hero = state.turn
        closed = blocked(CONTENT, state, hero)
        if "charge_attack" not in closed and state.order.index(hero) % 2:
            return "charge_attack", {"hero": hero, "effect": 3}, [3]
        if "basic_attack" not in closed:
            return "basic_attack", {"hero": hero}, None
        if "charge_attack" not in closed:
            return "charge_attack", {"hero": hero, "effect": 3}, [3]
        return "pass", {"hero": hero}, None
    if state.phase == "boss":
        return "boss_attack", {}, [3, 4]
    return "end_round", {}, None


def rules_round(state, content) -> None:
    """One round: battlefield, four hero turns, boss attack and rage, new round."""
    while True:
        name, args, answer = _next(state)
        answers = [answer] if answer is not None else []
        events = GAME.decide(state, Command(name, args), Chance(answers), content)
        for e in events:
            GAME.evolve(state, e)
        if name == "end_round":
            return


def session_round(session: Session) -> None:
    while True:
        name, args, answer = _next(session.state)
        session.do(name, args)
        if session.request is not None:
            session.answer(answer)
        if name == "end_round":
            return


def _stats(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    return statistics.median(ordered), ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


def _time(fn, n: int) -> list[float]:
    out = []
    for _ in range(n):
        t = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t)
    return out


def main() -> None:
    content = _content()
    state = GAME.initial_state(OPTIONS, content)
    floor = _time(lambda: copy.deepcopy(state), 2000)
    rules = _time(lambda: rules_round(state, content), 1000)
    turn = copy.deepcopy(state)  # a hero's turn: the busiest list (attacks, skills, items)
    while turn.phase != "heroes":
        name, args, answer = _next(turn)
        for e in GAME.decide(
            turn, Command(name, args), Chance([answer] if answer else []), content
        ):
            GAME.evolve(turn, e)
    legal = _time(lambda: GAME.legal_actions(turn, content), 2000)
    with tempfile.TemporaryDirectory() as tmp:
        session = Session.create(Path(tmp) / "bench.session", GAME, OPTIONS, content=content)
        sessions = _time(lambda: session_round(session), 200)
        session.close()
    f_med, f_p99 = _stats(floor)
    r_med, r_p99 = _stats(rules)
    s_med, s_p99 = _stats(sessions)
    l_med, l_p99 = _stats(legal)
    ms = 1000.0
    print(f"deepcopy of the state (floor): median {f_med * ms:.3f} ms, p99 {f_p99 * ms:.3f} ms")
    print(
        f"full round, pure rules (7 commands, decide + evolve): median {r_med * ms:.3f} ms, "
        f"p99 {r_p99 * ms:.3f} ms, {r_med / f_med:.1f}x floor"
    )
    print(
        f"legal_actions on a hero's turn (what every screen refresh asks): median "
        f"{l_med * ms:.3f} ms, p99 {l_p99 * ms:.3f} ms, {l_med / f_med:.1f}x floor"
    )
    print(
        f"full round, session with SQLite log: median {s_med * ms:.3f} ms, "
        f"p99 {s_p99 * ms:.3f} ms, {s_med / f_med:.1f}x floor"
    )


if __name__ == "__main__":
    main()
