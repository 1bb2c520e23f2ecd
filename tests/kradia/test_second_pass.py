"""Random legal play with the festival pack (Extra cards, lines held for the round, either/or
choices, conditional lines) and both house rules keeps every invariant the rulebook implies,
and every value derived from others is right after any correction.

Hypothesis (under the derandomized profile) picks among the actions the rules list and
answers every dice and card request with a legal value; `invariants` is checked after each
command.  Derived values (the boss's dice and overdrive on its HP space, the Charge Attack
choices of a roll, the round's held lines, what each hero may do) are compared between the
corrected state and the same state rebuilt from scratch out of its JSON.
"""

from __future__ import annotations

import random

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.core.corrections import apply_correction
from companion.core.rules import DIE_PROFILES, Chance, ChanceNeeded, Command, RuleError
from companion.core.selfplay import fill_inputs
from companion.games import get_game, load_game_content
from companion.games.kradia import battlefield, extras
from companion.games.kradia.effects import boss_card, dice_on_space, in_overdrive
from companion.games.kradia.schema import AILMENTS, MENTAL
from companion.games.kradia.state import KradiaState, charge_choices
from companion.games.kradia.turns import blocked
from tests.kradia.helpers import HEROES

GAME = get_game("kradia")
FESTIVAL = load_game_content(GAME, ["demo", "festival"])


def invariants(s: KradiaState) -> None:
    """What no sequence of legal commands may ever reach."""
    assert 0 <= s.boss.hp <= s.boss.max_hp
    assert 0 <= s.boss.rage < s.boss.rage_max
    assert 0 <= s.boss.attack_buff <= s.boss.attack_buff_max
    for key, h in s.heroes.items():
        card = FESTIVAL.get("heroes", h.card)
        assert 0 <= h.hp <= h.max_hp
        assert 0 <= h.red <= h.red_max and 0 <= h.blue <= h.blue_max
        assert 0 <= h.attack_buff <= 4
        assert set(h.ailments) <= set(AILMENTS) and len(set(h.ailments)) == len(h.ailments)
        assert sum(a in MENTAL for a in h.ailments) <= 1
        assert not set(h.ailments) & set(card.constitution), f"{key} suffers what it resists"
        if h.fading:
            assert h.hp == 0 and h.red == h.blue == h.attack_buff == 0 and not h.ailments
            assert not (h.stunned or h.evasion)
        assert not (h.fading and h.retired)
        assert len(set(h.items)) <= len(h.items)
    assert set(s.acted) <= set(s.order) and len(set(s.acted)) == len(s.acted)
    for held in s.battlefield.held:
        assert held.who == "boss" or held.who in s.heroes
    if s.phase == "battlefield":
        assert s.battlefield.held == [], "the round's Battlefield effect outlived the round"
    used = {f"{s.boss.id}/{x.id}" for x in boss_card(FESTIVAL, s).extra_cards if x.once}
    assert set(s.extras_used) - used <= {u for u in s.extras_used if not u.startswith(s.boss.id)}
    able = [k for k, h in s.heroes.items() if not (h.fading or h.retired)]
    if s.outcome is None:
        assert able and s.boss.hp > 0
    if s.outcome == "lost":
        assert not able
    if s.phase == "heroes" and s.outcome is None:
        assert s.turn is not None and s.turn not in s.acted
    if s.charge is not None:
        assert s.charge.hero == s.turn
    assert msgspec.convert(msgspec.to_builtins(s), KradiaState, strict=True) == s


def play(s: KradiaState, data: st.DataObject, limit: int = 120) -> None:
    for _ in range(limit):
        actions = GAME.legal_actions(s, FESTIVAL)
        if not actions:
            return
        action = data.draw(st.sampled_from(actions))
        rng = random.Random(data.draw(st.integers(0, 2**32)))
        run_festival(s, action["do"], fill_inputs(action, rng), data)
        invariants(s)


def run_festival(s, name, args, data):
    """Decide with answers drawn as requests come (any legal die face, any option)."""
    answers: list = []
    while True:
        try:
            events = GAME.decide(s, Command(name, args), Chance(answers), FESTIVAL)
            break
        except ChanceNeeded as need:
            req = need.request
            if req.kind == "dice":
                faces = DIE_PROFILES[req.profile]
                answers.append([data.draw(st.sampled_from(faces)) for _ in range(req.count)])
            else:
                answers.append(data.draw(st.sampled_from(req.options)))
    for e in events:
        GAME.evolve(s, e)


def festival_state(data: st.DataObject) -> KradiaState:
    start = data.draw(st.sampled_from(HEROES))
    opts = {
        "mode": "story",
        "heroes": list(HEROES),
        "boss": data.draw(st.sampled_from(["thicket-hydra", "bramble-boar"])),
        "battlefield": data.draw(st.sampled_from(["moonlit-marsh", "festival-grounds"])),
        "start_player": start,
        "items": {"oakla": ["spirit-charm", "wake-bell"], "mystic": ["bomb", "elixir"]},
        "resupply_stun": data.draw(st.sampled_from(["stays", "removed"])),
        "confused_items": data.draw(st.sampled_from(["allowed", "forbidden"])),
    }
    return GAME.initial_state(opts, FESTIVAL)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_festival_play_keeps_invariants(data):
    state = festival_state(data)
    invariants(state)
    play(state, data)


# -- corrections -----------------------------------------------------------------------


def derived(s: KradiaState) -> dict:
    """Every value the rules read off others rather than keep."""
    boss = boss_card(FESTIVAL, s)
    out = {
        "dice": dice_on_space(boss, s.boss.hp),
        "overdrive": in_overdrive(boss, s.boss.hp),
        "charge": charge_choices(s.charge.roll) if s.charge else None,
        "round_lines": battlefield.round_lines(FESTIVAL, s),
        "extras": [x.id for x in extras.in_play(s, FESTIVAL)],
        "legal": GAME.legal_actions(s, FESTIVAL),
    }
    if s.phase == "heroes" and s.turn and not s.outcome:
        out["blocked"] = blocked(FESTIVAL, s, s.turn)
    return out


def same_cards(s: KradiaState, board) -> list[list[str]]:
    """The spaces the marker could really be on given the cards face up: the same symbols
    revealed in another order ("the marker is really on the other space")."""
    now = s.battlefield.path
    found = [
        sp.path for sp in board.spaces if len(sp.path) == len(now) and set(sp.path) == set(now)
    ]
    return found or [list(now)]


def ailment_sets(s: KradiaState, hero: str) -> list[list[str]]:
    """Ailments the table could really show on `hero` (none their constitution resists)."""
    resists = FESTIVAL.get("heroes", s.heroes[hero].card).constitution
    sets = [[], ["blind"], ["fear"], ["poison", "sleep"]]
    return [a for a in sets if not set(a) & set(resists)]


def corrections(s: KradiaState, data: st.DataObject) -> tuple[str, object]:
    hero = data.draw(st.sampled_from(HEROES))
    board = FESTIVAL.get("battlefield_boards", s.battlefield.board)
    return data.draw(
        st.sampled_from(
            [
                ("boss.hp", data.draw(st.integers(1, s.boss.max_hp))),
                (f"heroes.{hero}.hp", data.draw(st.integers(1, s.heroes[hero].max_hp))),
                (f"heroes.{hero}.ailments", data.draw(st.sampled_from(ailment_sets(s, hero)))),
                (f"heroes.{hero}.level", data.draw(st.integers(1, 2))),
                ("battlefield.path", data.draw(st.sampled_from(same_cards(s, board)))),
                ("boss.attack_buff", data.draw(st.integers(0, s.boss.attack_buff_max))),
            ]
        )
    )


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_derived_values_are_right_after_any_correction(data):
    state = festival_state(data)
    play(state, data, limit=data.draw(st.integers(0, 20)))
    if state.outcome:
        return
    path, value = corrections(state, data)
    try:
        corrected = apply_correction(state, KradiaState, path, value)
    except RuleError:
        return
    scratch = msgspec.convert(msgspec.to_builtins(corrected), KradiaState, strict=True)
    assert derived(corrected) == derived(scratch)
    boss = boss_card(FESTIVAL, corrected)
    legal = derived(corrected)["legal"]
    if corrected.phase == "boss":
        label = next(a["label"] for a in legal if a["do"] == "boss_attack")
        assert f"({dice_on_space(boss, corrected.boss.hp)} dice)" in label
    # and play goes on from the corrected table without a rule breaking
    play(corrected, data, limit=10)


# -- set-up, house rules, Extra cards, choices ---------------------------------------------


def test_the_wizard_lists_each_house_rule_with_the_reading_chosen_as_default():
    from companion.games.kradia.options import setup_options_for

    demo = {o["name"]: o for o in setup_options_for(load_game_content(GAME))}
    assert demo["resupply_stun"]["default"] == "stays"
    assert demo["resupply_stun"]["choices"] == ["stays", "removed"]
    assert demo["confused_items"]["default"] == "allowed"
    assert all("kradia/" not in label for label in demo["confused_items"]["choice_labels"].values())
    assert "battlefield" not in demo, "one board: nothing to choose"
    both = {o["name"]: o for o in setup_options_for(FESTIVAL)}
    assert both["battlefield"]["choice_labels"] == {
        "kradia/battlefield-board/festival-grounds": "Festival Grounds",
        "kradia/battlefield-board/moonlit-marsh": "Moonlit Marsh",
    }


def test_a_house_rule_the_game_does_not_know_is_refused_in_words():
    opts = {"mode": "story", "heroes": list(HEROES), "sequence": 1, "resupply_stun": "maybe"}
    try:
        GAME.initial_state(opts, FESTIVAL)
    except RuleError as err:
        assert "stays or removed" in err.message and "maybe" in err.message
    else:
        raise AssertionError("an unknown house rule value was accepted")


def test_a_set_up_without_house_rules_plays_the_default_readings():
    from companion.games.kradia.house import house_rule

    state = GAME.initial_state({"mode": "story", "heroes": list(HEROES)}, FESTIVAL)
    assert state.house == {}
    assert house_rule(state.house, "resupply_stun") == "stays"
    assert house_rule(state.house, "confused_items") == "allowed"


def test_an_old_cleansed_event_still_removes_the_stun_it_removed_then():
    from companion.games.kradia.events import EVENTS, Cleansed

    assert EVENTS.read("Cleansed", {"hero": "warden"}) == Cleansed(hero="warden", stun=True)


def hydra() -> KradiaState:
    opts = {"mode": "story", "heroes": list(HEROES), "boss": "thicket-hydra"}
    return GAME.initial_state(opts, FESTIVAL)


def test_an_extra_card_left_to_the_table_is_listed_by_name_until_it_is_discarded():
    state = hydra()
    listed = [a for a in GAME.legal_actions(state, FESTIVAL) if a["do"] == "use_extra"]
    assert [(a["label"], a["with"]) for a in listed] == [
        ("Extra card: Severed Head", {"extra": "severed-head"})
    ], "only the card whose moment the table decides is offered"
    for e in GAME.decide(
        state, Command("use_extra", {"extra": "severed-head"}), Chance(), FESTIVAL
    ):
        GAME.evolve(state, e)
    assert state.boss.hp == 8
    assert not [a for a in GAME.legal_actions(state, FESTIVAL) if a["do"] == "use_extra"]


def test_an_answer_not_on_the_card_is_refused_and_the_choice_still_waits(tmp_path):
    from companion.core.session import Session

    opts = {"mode": "story", "heroes": list(HEROES), "items": {"oakla": ["spirit-charm"]}}
    with Session.create(tmp_path / "g.session", GAME, opts, packs=["demo", "festival"]) as session:
        session.do("start_round", {"card": "kradia/battlefield-card/moon"})
        session.do("use_item", {"hero": "oakla", "item": "spirit-charm"})
        request = session.request
        assert request is not None and list(request.options) == ["2 Red Mana", "2 Blue Mana"]
        before = msgspec.to_builtins(session.state)
        try:
            session.answer("3 Red Mana")
        except RuleError:
            pass
        else:
            raise AssertionError("an outcome not on the card was accepted")
        assert msgspec.to_builtins(session.state) == before and session.request == request
        session.answer("2 Red Mana")
        assert session.state.heroes["oakla"].red == 2 and session.request is None
