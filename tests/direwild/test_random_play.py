"""Random play: whatever the table does, the rules answer with events or a RuleError in
words, never a crash, and the state always survives a strict JSON round trip."""

from __future__ import annotations

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.core.rules import DIE_PROFILES, Chance, ChanceNeeded, Command, RuleError
from companion.games import get_game, load_game_content
from companion.games.direwild.board import geometry, square_name

GAME = get_game("direwild")
CONTENT = load_game_content(GAME)
SQUARES = [square_name(c, r) for r in range(12) for c in range(12)] + ["staging"]


def run(state, command, data):
    """Decide `command`, answering every request the way a table might."""
    answers = []
    while True:
        try:
            events = GAME.decide(state, command, Chance(answers), CONTENT)
        except ChanceNeeded as need:
            req = need.request
            if req.kind == "dice":
                answers.append(
                    [
                        data.draw(st.sampled_from(DIE_PROFILES[req.profile]))
                        for _ in range(req.count)
                    ]
                )
            else:
                answers.append(data.draw(st.sampled_from(list(req.options))))
            continue
        for e in events:
            GAME.evolve(state, e)
        return events


def near(state):
    """Squares worth moving to: next to enemies and a few steps from the heroes."""
    geo = geometry(CONTENT.get("boards", state.board))
    spots = {sq for e in state.enemies.values() if e.position for _, sq in geo.steps[e.position]}
    if state.karn.position:
        spots |= {sq for _, sq in geo.steps[state.karn.position]}
    for h in state.heroes.values():
        if h.position in geo.steps:
            spots |= {n for _, a in geo.steps[h.position] for _, n in geo.steps[a]}
    spots |= set(CONTENT.get("boards", state.board).entrance)
    return sorted(spots) or SQUARES


def close_enemies(state, hero):
    """Enemies the hero could fight (adjacent or within 3), else any enemy."""
    geo = geometry(CONTENT.get("boards", state.board))
    here = state.heroes[hero].position
    out = []
    if here in geo.steps:
        units = {s: e.position for s, e in state.enemies.items() if e.position and not e.defeated}
        if state.karn.on_board and state.karn.position:
            units["karn"] = state.karn.position
        out = [u for u, sq in units.items() if geo.distance(here, sq) <= 3]
    return out or [*state.enemies, "karn"]


def commands(state, data):
    """Mostly what the phase calls for, sometimes anything at all (players make mistakes)."""
    if not data.draw(st.integers(0, 9)):
        return anything(state, data)
    if state.outcome == "chapter_won":
        return Command("start_chapter")
    if state.phase in ("setup", "round_over") and not state.outcome:
        return Command("start_round")
    if state.phase == "game":
        return Command("reveal_ai_card")
    hero = data.draw(st.sampled_from(list(state.heroes)))
    kind = data.draw(st.sampled_from(["move", "move", "battle", "battle", "end_round"]))
    if kind == "move":
        return Command(
            "move_hero",
            {
                "hero": hero,
                "to": data.draw(st.sampled_from(near(state))),
                "move": 3,
                "disengage": data.draw(st.booleans()),
            },
        )
    if kind == "battle":
        enemy = data.draw(st.sampled_from(close_enemies(state, hero)))
        creature = {
            "attack": data.draw(st.integers(3, 20)),
            "knockback": data.draw(st.integers(0, 3)),
            "poison": data.draw(st.integers(0, 2)),
            "flight": data.draw(st.integers(0, 2)),
        }
        return Command("resolve_battle", {"hero": hero, "enemy": enemy, "creature": creature})
    return Command("end_round")


def anything(state, data):
    heroes = list(state.heroes)
    enemies = [*state.enemies, "karn"]
    squares = near(state)
    return data.draw(
        st.one_of(
            st.just(Command("start_round")),
            st.just(Command("reveal_ai_card")),
            st.just(Command("end_round")),
            st.just(Command("set_turn_order", {"order": heroes[::-1]})),
            st.builds(
                lambda h, to, mv, dis: Command(
                    "move_hero", {"hero": h, "to": to, "move": mv, "disengage": dis}
                ),
                st.sampled_from(heroes),
                st.sampled_from(squares),
                st.integers(0, 3),
                st.booleans(),
            ),
            st.builds(
                lambda h, e, a, kb, ps, fl: Command(
                    "resolve_battle",
                    {
                        "hero": h,
                        "enemy": e,
                        "creature": {"attack": a, "knockback": kb, "poison": ps, "flight": fl},
                    },
                ),
                st.sampled_from(heroes),
                st.sampled_from(enemies),
                st.integers(0, 20),
                st.integers(0, 3),
                st.integers(0, 2),
                st.integers(0, 3),
            ),
            st.builds(lambda h: Command("end_turn", {"hero": h}), st.sampled_from(heroes)),
            st.just(Command("start_chapter")),
            st.builds(
                lambda h, e, p: Command("target_enemy", {"hero": h, "enemy": e, "poison": p}),
                st.sampled_from(heroes),
                st.sampled_from(enemies),
                st.integers(0, 2),
            ),
        )
    )


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=st.data(),
    players=st.sampled_from(
        [
            ["stormbringer", "featherheart"],
            ["shadowleaf", "groundbreaker", "bloodmaker"],
            ["stormbringer", "shadowleaf", "groundbreaker", "featherheart"],
        ]
    ),
    chapter=st.sampled_from([1, 3]),
)
def test_random_play_never_crashes(data, players, chapter):
    state = GAME.initial_state(
        {"players": players, "chapter": chapter, "prelude": False, "ai_deck": "mixed"}, CONTENT
    )
    accepted = 0
    for _ in range(60):
        command = commands(state, data)
        try:
            run(state, command, data)
            accepted += 1
        except RuleError as exc:
            assert exc.message and "Traceback" not in exc.message
        raw = msgspec.to_builtins(state)
        assert msgspec.to_builtins(msgspec.convert(raw, GAME.state_type, strict=True)) == raw
        assert 0 <= state.fatal_wounds <= 6
        for h in state.heroes.values():
            assert -3 <= h.stamina <= 3
            assert 0 <= h.magic <= 6
        for e in state.enemies.values():
            assert -3 <= e.stamina <= 3
            assert 0 <= e.damage <= CONTENT.get("minions", e.minion).hp
        occupied = [
            h.position for h in state.heroes.values() if h.position != "staging" and not h.eaten_by
        ]
        occupied += [e.position for e in state.enemies.values() if e.position and not e.defeated]
        if state.karn.on_board and state.karn.position and not state.karn.defeated:
            occupied.append(state.karn.position)
        assert len(occupied) == len(set(occupied)), f"two units share a square: {occupied}"
    assert accepted > 0
