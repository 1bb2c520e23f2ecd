"""Any command, with any arguments, at any moment: a RuleError in words or a valid state.

Hypothesis drives the rules directly (decide + evolve, as the session does) with random
commands, arguments and die answers; nothing but `RuleError` may escape, and the state must
still convert strictly after every step.
"""

from __future__ import annotations

import msgspec
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from companion.core.rules import DIE_PROFILES, Chance, ChanceNeeded, Command, RuleError
from companion.games import get_game, load_game_content
from companion.games.hexplore.state import HexploreState

GAME = get_game("hexplore")
CONTENT = load_game_content(GAME)
HEROES = ["a", "b", "c"]
SETUP = {
    "difficulty": "moderate",
    "heroes": [
        {
            "id": h,
            "health": 12,
            "energy": 6,
            "food_rating": 1,
            "skills": {"navigate": 4, "explore": 3, "survival": 2},
            "abilities": {"attack": 4, "defend": 2},
        }
        for h in HEROES
    ],
}

values = st.one_of(st.integers(-3, 12), st.sampled_from(["", "x", None, True, [], {}]))
args = st.fixed_dictionaries(
    {},
    optional={
        "hero": st.sampled_from([*HEROES, "zed", None]),
        "who": st.sampled_from([*HEROES, "opponent", "zed"]),
        "action": st.sampled_from(["attack", "defend", "mastery", "flee", "dance"]),
        "vital": st.sampled_from(["health", "energy", "influence", "mana"]),
        "amount": values,
        "energy": values,
        "piercing": values,
        "heal": values,
        "heal_target": st.sampled_from([*HEROES, "zed", ""]),
        "target": st.sampled_from([*HEROES, "", "zed"]),
        "opponent": st.sampled_from([*(o.slug for o in CONTENT.all("opponents")), "nobody"]),
        "dangerous": values,
        "skills": st.sampled_from([["navigate"], ["explore", "survival"], "survival", ["fly"]]),
        "condition": st.sampled_from(
            [
                "bleeding",
                "swallowed",
                "encased",
                "bound",
                "unconscious",
                "soul_laced",
                "confused",
                "entangled",
                "sleepy",
            ]
        ),
        "rounds": values,
        "value": values,
        "damage": values,
        "inflicts": st.sampled_from([{}, {"drained": 2}, {"drained": "x"}, "x"]),
        "bonuses": st.sampled_from([{}, {"a.explore": "essence"}, {"a.explore": "x"}, "x"]),
        "blocked": st.sampled_from([[], [1, 2], "x", None]),
        "slots": st.sampled_from([[], ["x"], "x", None]),
        "choose": values,
        "fey_realm": st.booleans(),
        "cautious": st.booleans(),
        "discard": st.booleans(),
        "defend_too": st.booleans(),
        "wake": st.sampled_from(HEROES),
        "gold": values,
        "food": values,
        "to": st.sampled_from([*HEROES, "easy", "epic", ""]),
        "at": st.sampled_from(["battle_site_1", "x"]),
        "favored_vital": st.sampled_from(["health", "energy", "x"]),
    },
)
from companion.games.hexplore.tables import CONDITIONS  # noqa: E402

seeds = st.lists(st.integers(0, 99), max_size=40)
wild = st.tuples(st.sampled_from(GAME.command_names()), args, seeds)
playing = st.one_of(
    st.tuples(
        st.just("start_combat"),
        st.fixed_dictionaries(
            {"opponent": st.sampled_from([o.slug for o in CONTENT.all("opponents")])}
        ),
        seeds,
    ),
    st.tuples(
        st.just("declare"),
        st.fixed_dictionaries(
            {
                "hero": st.sampled_from(HEROES),
                "action": st.sampled_from(["attack", "defend", "mastery", "flee"]),
            },
            optional={
                "amount": st.integers(0, 9),
                "vital": st.sampled_from(["health", "energy", "influence"]),
                "heal": st.integers(0, 5),
                "heal_target": st.sampled_from(HEROES),
                "inflicts": st.sampled_from([{"drained": 2}, {"vulnerable": 0}, {"confused": 1}]),
            },
        ),
        seeds,
    ),
    st.tuples(
        st.sampled_from(["opponent_action", "resolve_round", "end_game_turn"]), st.just({}), seeds
    ),
    st.tuples(
        st.just("inflict"),
        st.fixed_dictionaries(
            {
                "who": st.sampled_from([*HEROES, "opponent"]),
                "condition": st.sampled_from(CONDITIONS),
                "to": st.sampled_from(HEROES),
            },
            optional={
                "rounds": st.integers(0, 3),
                "value": st.integers(0, 8),
                "damage": st.integers(0, 3),
            },
        ),
        seeds,
    ),
)
full_round = st.tuples(
    *(
        st.tuples(
            st.just("declare"),
            st.fixed_dictionaries(
                {"hero": st.just(h), "action": st.sampled_from(["attack", "defend", "mastery"])},
                optional={"amount": st.integers(0, 9), "defend_too": st.booleans()},
            ),
            seeds,
        )
        for h in HEROES
    ),
    st.tuples(st.just("opponent_action"), st.just({}), seeds),
    st.tuples(st.just("resolve_round"), st.just({}), seeds),
)
commands = st.lists(
    st.one_of(st.tuples(wild), st.tuples(playing), full_round, full_round), max_size=25
).map(lambda groups: [step for g in groups for step in g])


def _answers(request, seeds: list[int]):
    if request.kind == "dice":
        faces = DIE_PROFILES[request.profile]
        return [
            faces[seeds.pop() % len(faces)] if seeds else faces[0] for _ in range(request.count)
        ]
    return request.options[0] if request.options else "hexplore/circumstance/hidden-cache"


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(commands)
def test_random_play_never_breaks(steps) -> None:
    state = GAME.initial_state(SETUP, CONTENT)
    for name, arguments, seeds in steps:
        answers: list = []
        for _ in range(60):
            try:
                events = GAME.decide(state, Command(name, arguments), Chance(answers), CONTENT)
            except ChanceNeeded as need:
                answers.append(_answers(need.request, seeds))
                continue
            except RuleError as exc:
                assert exc.message
                break
            for e in events:
                GAME.evolve(state, e)
            event(f"accepted {name}")
            break
        msgspec.convert(msgspec.to_builtins(state), HexploreState, strict=True)
        GAME.summary(state)
