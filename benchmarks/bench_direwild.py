"""Direwild: a full enemy phase (4 minions and Karn) on a 12x12 board.

Times the rules deciding `reveal_ai_card` (counting Karn's track, rage, and every enemy's
path search) and folding its events, against a floor measured in the same run: a bare
`copy.deepcopy` of the state, which every command pays for through `Decision`.
Target from the issue: median at most 2 ms.  Also times `legal_actions` in the Adventure
Phase with four heroes (every square each can reach, every battle and card), which the
view asks for after every change.
"""

from __future__ import annotations

import copy
import statistics
import time
from collections.abc import Callable

from companion.core.rules import Chance, Command
from companion.games import get_game, load_game_content

RUNS = 400


def _time(fn: Callable[[], object], runs: int = RUNS) -> list[float]:
    for _ in range(20):
        fn()
    out = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        out.append((time.perf_counter() - t0) * 1000)
    return out


def _p99(values: list[float]) -> float:
    return sorted(values)[int(len(values) * 0.99) - 1]


def table(active: bool):
    game = get_game("direwild")
    content = load_game_content(game)
    state = game.initial_state(
        {
            "players": ["stormbringer", "featherheart", "groundbreaker", "bloodmaker"],
            "minions": {"red": "inkling", "blue": "coatl", "green": "gryk", "black": "lycoan"},
            "heroes_at": {
                "stormbringer": "F10",
                "featherheart": "G7",
                "groundbreaker": "A12",
                "bloodmaker": "L12",
            },
        },
        content,
    )
    for e in state.enemies.values():
        e.active = active
    state.karn.on_board, state.karn.position = True, "F3"
    state.phase = "game"
    return game, content, state


def main() -> None:
    rows = []
    for label, active, card in [
        ("active, standard 4", True, "direwild/ai/standard-4"),
        ("active, priority 4 to player 2", True, "direwild/ai/priority-4-p2"),
        ("idle trails + rage, 3", False, "direwild/ai/rage-3"),
    ]:
        game, content, state = table(active)
        command = Command("reveal_ai_card", {"card": card})

        def decide(game=game, state=state, command=command, content=content):
            return game.decide(state, command, Chance([]), content)

        events = decide()

        def fold(game=game, state=state, events=events):
            s = copy.deepcopy(state)
            for e in events:
                game.evolve(s, e)

        floor = _time(lambda state=state: copy.deepcopy(state))
        t_decide = _time(decide)
        t_fold = _time(fold)
        rows.append((label, floor, t_decide, t_fold, len(events)))
    print(
        f"{'enemy phase':32} {'floor med':>9} {'floor p99':>9} {'decide med':>10} "
        f"{'p99':>7} {'x floor':>7} {'fold med':>8} {'events':>6}"
    )
    for label, floor, t_decide, t_fold, n in rows:
        fm, dm = statistics.median(floor), statistics.median(t_decide)
        print(
            f"{label:32} {fm:7.3f}ms {_p99(floor):7.3f}ms {dm:8.3f}ms {_p99(t_decide):5.3f}ms "
            f"{dm / fm:7.1f} {statistics.median(t_fold):6.3f}ms {n:6d}"
        )
    print("target: decide median <= 2 ms (issue 3)")
    game, content, state = table(True)
    state.phase = "adventure"
    listed = game.legal_actions(state, content)
    t_legal = _time(lambda: game.legal_actions(state, content))
    print(
        f"legal actions, 4 heroes in the Adventure Phase: {len(listed)} actions, "
        f"median {statistics.median(t_legal):.3f}ms, p99 {_p99(t_legal):.3f}ms"
    )


if __name__ == "__main__":
    main()
