"""Random legal play keeps every invariant the rulebook implies.

Hypothesis plays whole battles (story mode through resupply, and challenge mode) choosing
among the actions the rules list (`legal_actions`), answering every dice and card request with any legal
value, and checks the state after every command.
"""

from __future__ import annotations

import random

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.core.rules import DIE_PROFILES, Chance, ChanceNeeded, Command
from companion.core.selfplay import fill_inputs
from companion.games.kradia.schema import MENTAL
from companion.games.kradia.state import KradiaState
from tests.kradia.helpers import CONTENT, GAME, options


def run(state, name, args, data):
    """Decide with answers drawn as requests come; apply the events; return the events."""
    answers = []
    while True:
        try:
            events = GAME.decide(state, Command(name, args), Chance(answers), CONTENT)
            break
        except ChanceNeeded as need:
            req = need.request
            if req.kind == "dice":
                legal = DIE_PROFILES[req.profile]
                answers.append([data.draw(st.sampled_from(legal)) for _ in range(req.count)])
            else:
                answers.append(data.draw(st.sampled_from(req.options)))
    again = GAME.decide(state, Command(name, args), Chance(answers), CONTENT)
    assert again == events, "the same command and answers must give the same events"
    for e in events:
        GAME.evolve(state, e)
    return events


def check(s: KradiaState) -> None:
    assert 0 <= s.boss.hp <= s.boss.max_hp
    assert 0 <= s.boss.rage < s.boss.rage_max
    assert 0 <= s.boss.attack_buff <= max(s.boss.attack_buff_max, 0)
    for h in s.heroes.values():
        assert 0 <= h.hp <= h.max_hp
        assert 0 <= h.red <= h.red_max and 0 <= h.blue <= h.blue_max
        assert 0 <= h.attack_buff <= 4
        assert sum(a in MENTAL for a in h.ailments) <= 1
        assert len(set(h.ailments)) == len(h.ailments)
        if h.fading:
            assert h.hp == 0 and h.red == h.blue == 0 and not h.ailments
        assert not (h.fading and h.retired)
    able = [k for k, h in s.heroes.items() if not (h.fading or h.retired)]
    if s.outcome is None:
        assert able and s.boss.hp > 0
    if s.outcome == "lost":
        assert not able
    if s.phase == "heroes" and s.outcome is None:
        assert s.turn is not None and s.turn not in s.acted
    assert msgspec.convert(msgspec.to_builtins(s), KradiaState, strict=True) == s


def play(s, data, limit=160):
    """Any listed action, with any table facts; a listed action is never refused."""
    for _ in range(limit):
        actions = GAME.legal_actions(s, CONTENT)
        if not actions:
            return
        action = data.draw(st.sampled_from(actions))
        rng = random.Random(data.draw(st.integers(0, 2**32)))
        run(s, action["do"], fill_inputs(action, rng), data)
        check(s)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), seq=st.sampled_from([1, 2]), start=st.integers(0, 3), items=st.booleans())
def test_story_play_keeps_invariants(data, seq, start, items):
    order = ["oakla", "warden", "archer", "mystic"]
    extra = {"sequence": seq, "start_player": order[start]}
    if items:
        extra["items"] = {"oakla": ["elixir", "potion"], "mystic": ["bomb", "antidote"]}
    state = GAME.initial_state(options(**extra), CONTENT)
    check(state)
    play(state, data)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_challenge_play_keeps_invariants(data):
    state = GAME.initial_state(
        options(
            mode="challenge",
            boss="wild-hunt-king",
            sequence=None,
            level3={"oakla": "bramble", "warden": "avenger", "archer": "scout", "mystic": "healer"},
        ),
        CONTENT,
    )
    play(state, data)
