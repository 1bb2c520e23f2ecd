"""The state round-trips through msgspec, set-up refuses bad options in words, and the
session core's generic correction and undo work on Direwild's state."""

from __future__ import annotations

import msgspec
import pytest

from companion.core.rules import RuleError
from companion.core.session import Session
from companion.games import get_game, load_game_content

GAME = get_game("direwild")


@pytest.fixture(scope="module")
def content():
    return load_game_content(GAME)


def test_state_round_trips_strictly(content, tmp_path):
    s = Session.create(
        tmp_path / "a.session",
        GAME,
        {
            "players": ["stormbringer", "shadowleaf"],
            "minions": {"red": "inkling"},
            "heroes_at": {"stormbringer": "C2"},
        },
        content=content,
    )
    s.correct("phase", "adventure")  # the heroes' turns
    s.do("resolve_battle", {"hero": "stormbringer", "enemy": "red", "creature": {"attack": 9}})
    s.answer([3])
    data = msgspec.to_builtins(s.state)
    back = msgspec.convert(data, GAME.state_type, strict=True)
    assert msgspec.to_builtins(back) == data
    assert data["last_battle"]["winner"] == "hero"
    s.close()
    reopened = Session.open(tmp_path / "a.session")
    assert msgspec.to_builtins(reopened.state) == data
    reopened.close()


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"players": "stormbringer"}, "players must list 2 to 4 clans"),
        ({"players": ["stormbringer"]}, "players must list 2 to 4 clans"),
        ({"players": ["stormbringer", "purple"]}, "'purple' is not a clan"),
        ({"players": ["stormbringer", "stormbringer"]}, "only one player"),
        ({"players": ["stormbringer", "shadowleaf"], "chapter": 4}, "chapter must be 1, 2 or 3"),
        ({"players": ["stormbringer", "shadowleaf"], "ai_deck": "easy"}, "ai_deck must be one of"),
        ({"players": ["stormbringer", "shadowleaf"], "board": "moon"}, "no board 'moon'"),
        (
            {"players": ["stormbringer", "shadowleaf"], "minions": {"pink": "inkling"}},
            "'pink' is not a Minion Track slot",
        ),
        (
            {"players": ["stormbringer", "shadowleaf"], "minions": {"red": "dragon"}},
            "no minion 'dragon'",
        ),
        (
            {"players": ["stormbringer", "shadowleaf"], "heroes_at": {"stormbringer": "Z9"}},
            "off the board",
        ),
        (
            {"players": ["stormbringer", "shadowleaf"], "heroes_at": {"bloodmaker": "C2"}},
            "'bloodmaker' is not playing",
        ),
        ({"players": ["stormbringer", "shadowleaf"], "colour": "red"}, "unknown set-up option"),
    ],
)
def test_bad_setup_is_refused_in_words(content, options, message):
    with pytest.raises(RuleError, match=message):
        GAME.initial_state(options, content)


def test_correction_then_rules_carry_on_and_undo_survives_reopen(content, tmp_path):
    path = tmp_path / "b.session"
    s = Session.create(
        path,
        GAME,
        {"players": ["stormbringer", "shadowleaf"], "minions": {"red": "inkling"}},
        content=content,
    )
    s.correct("enemies.red.position", "C2")
    s.correct("enemies.red.active", True)
    with pytest.raises(RuleError):
        s.correct("enemies.red.stamina", "lots")
    s.do("start_round")
    s.do("reveal_ai_card", {"card": "standard-3"})
    assert s.state.enemies["red"].path == ["C2"]  # no hero on the board: it waits
    s.undo()
    assert s.state.phase == "game" and s.state.ai_card is None
    s.close()
    again = Session.open(path)
    assert again.state.phase == "game"
    assert "direwild/ai/standard-3" in again.state.ai_deck
    again.close()


def test_a_wrong_answer_loses_nothing(content, tmp_path):
    s = Session.create(
        tmp_path / "c.session",
        GAME,
        {
            "players": ["stormbringer", "shadowleaf"],
            "minions": {"red": "inkling"},
            "heroes_at": {"stormbringer": "C2"},
        },
        content=content,
    )
    s.correct("phase", "adventure")  # the heroes' turns
    s.do("resolve_battle", {"hero": "stormbringer", "enemy": "red", "creature": {"attack": 4}})
    with pytest.raises(RuleError, match="not a face of the d3"):
        s.answer([6])
    assert s.request is not None and s.request.profile == "d3"
    s.answer([2])
    assert s.state.last_battle.hero_total == 6
    s.close()


def test_summary_and_log_text(content, tmp_path):
    s = Session.create(
        tmp_path / "d.session",
        GAME,
        {"players": ["stormbringer", "shadowleaf"], "minions": {"red": "inkling"}},
        content=content,
    )
    s.do("start_round")
    s.do("reveal_ai_card", {"card": "noise-3"})
    assert GAME.summary(s.state) == "Chapter 1, round 1"
    lines = [s.describe(r) for tx in s.history() for r in tx]
    assert "Red minion flips face up and is active (the 1st player made too much noise)" in lines
    s.close()


def test_no_set_up_starts_the_first_clans_at_chapter_one(content):
    state = GAME.initial_state({}, content)
    assert state.players == ["stormbringer", "shadowleaf"]
    assert state.chapter == 1 and state.board == content.all("boards")[0].id


def test_every_demo_item_has_a_name_and_the_decks_have_ten_cards(content):
    assert len([c for c in content.all("ai_cards") if c.deck == "normal"]) == 10
    assert len([c for c in content.all("ai_cards") if c.deck == "hardcore"]) == 10
    assert len(content.ids("karn_cards")) == 15
    named = {m.name for m in content.all("minions")}
    for n in [
        "Abomination",
        "Coatl",
        "Chuddle",
        "Doomsayer",
        "Glug",
        "Gryk",
        "Inkling",
        "Krorik",
        "Lycoan",
        "Necrid",
        "Slagmar",
        "Spitefiend",
        "Timbergrist",
        "Varhyr",
    ]:
        assert n in named
    assert {b.land for b in content.all("boards")} == {"redmill", "blightwood", "dungeon"}
