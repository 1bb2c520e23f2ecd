"""Random legal play keeps every invariant the rulebook implies.

Hypothesis plays whole battles (story mode through resupply, and challenge mode) choosing
among the actions the rules allow, answering every dice and card request with any legal
value, and checks the state after every command.
"""

from __future__ import annotations

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.core.rules import DIE_PROFILES, Chance, ChanceNeeded, Command, RuleError
from companion.games.kradia.schema import MENTAL
from companion.games.kradia.state import KradiaState
from companion.games.kradia.turns import available_skills, blocked
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


def hero_move(s, data):
    hero = s.turn
    keep = data.draw(st.booleans())  # sometimes keep the turn open for items afterwards
    if s.turn_done:
        items = [
            ("use_item", {"hero": hero, "item": i, "target": t})
            for i in s.heroes[hero].items
            for t in s.order
        ]
        return data.draw(st.sampled_from([("end_turn", {"hero": hero}), *items]))
    if s.charge is not None:
        return "charge_attack", {
            "hero": hero,
            "effect": data.draw(st.sampled_from(s.charge.choices)),
        }
    closed = blocked(CONTENT, s, hero)
    moves = []
    if "basic_attack" not in closed:
        moves.append(("basic_attack", {"hero": hero, "end_turn": not keep}))
    if "charge_attack" not in closed:
        moves.append(("charge_attack", {"hero": hero}))
    if "skill" not in closed:
        h = s.heroes[hero]
        for sid, entry in available_skills(CONTENT, s, hero).items():
            if h.red >= entry.red and h.blue >= entry.blue:
                for target in s.order:
                    moves.append(("skill", {"hero": hero, "skill": sid, "target": target}))
    for item in s.heroes[hero].items:
        for target in s.order:
            moves.append(("use_item", {"hero": hero, "item": item, "target": target}))
    if all(a in closed for a in ("basic_attack", "charge_attack", "skill")):
        moves.append(("pass", {"hero": hero}))
    return data.draw(st.sampled_from(moves))


def play(s, data, limit=160):
    for _ in range(limit):
        if s.outcome == "boss_defeated":
            sides = {h: next(iter(CONTENT.get("heroes", s.heroes[h].card).level3)) for h in s.order}
            run(s, "resupply", {"level3": sides}, data)
        elif s.outcome:
            return
        elif s.phase == "battlefield":
            run(s, "start_round", {}, data)
        elif s.phase == "heroes":
            name, args = hero_move(s, data)
            try:
                run(s, name, args, data)
            except RuleError:
                continue  # a target the card cannot help: refused, nothing changed
        elif s.phase == "boss":
            run(s, "boss_attack", {}, data)
        elif s.phase == "end":
            run(s, "end_round", {}, data)
        check(s)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
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
