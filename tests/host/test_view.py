"""What a phone shows is read from the session, in names: the real games' heroes, a die's
own face labels, a draw's options by name."""

from __future__ import annotations

import json

import pytest

from companion.core.library import Library
from companion.core.rules import Request
from companion.games import get_game
from companion.host.view import table_view, waiting_view
from tests.host.tablegame import new_session, tiny

SETUPS = {
    "direwild": {
        "players": ["stormbringer", "featherheart"],
        "minions": {"red": "inkling", "blue": "coatl"},
    },
    "kradia": {"mode": "story", "heroes": ["oakla", "warden", "archer", "mystic"], "sequence": 1},
    "hexplore": {
        "play_style": "quick_play",
        "heroes": [
            {"id": "a", "health": 30, "energy": 10, "abilities": {"attack": 9, "defend": 2},
             "skills": {"navigate": 5, "explore": 5, "survival": 5}}
        ],
    },
}  # fmt: skip


@pytest.mark.parametrize("game_id", sorted(SETUPS))
def test_each_game_shows_its_heroes_at_a_glance(game_id):
    with Library().new(get_game(game_id), SETUPS[game_id], ["demo"], None, None) as session:
        view = table_view(session)
        json.dumps(view)  # all of it travels as JSON
        assert view["game"] == get_game(game_id).title and view["waiting"] is None
        heroes = view["heroes"]
        assert heroes and all(h["name"] and h["facts"] for h in heroes)
        for hero in heroes:
            assert all("_" not in f["label"] for f in hero["facts"])


def test_a_skill_die_keypad_shows_the_hex_face(tmp_path):
    with new_session(tmp_path) as session:
        request = Request("dice", "to navigate", "", profile="skill_d10", count=2, role="skill")
        shown = waiting_view(session, request)
        assert shown["count"] == 2 and shown["die"] == "skill d10"
        assert shown["faces"][0] == {"label": "hex", "value": 1}
        assert [f["value"] for f in shown["faces"]] == list(range(1, 11))


def test_a_draw_offers_its_cards_by_name(tmp_path):
    with new_session(tmp_path, tiny()) as session:
        session.do("draw")
        shown = table_view(session)["waiting"]
        assert shown["kind"] == "draw" and shown["who"] == "Player"
        assert {o["name"] for o in shown["options"]} == {"Copper", "Silver"}


def test_a_heros_numbers_are_labelled_in_the_rulebooks_words():
    """Kradia's phone card read "Hp", "Red", "Red max": the code's spelling.  The game
    names its fields as the rulebook does (its Red and Blue Mana tracks, the HP track)."""
    with Library().new(get_game("kradia"), SETUPS["kradia"], ["demo"], None, None) as session:
        labels = {f["label"] for f in table_view(session)["heroes"][0]["facts"]}
    assert {"HP", "Max HP", "Red Mana", "Blue Mana", "Max Red Mana"} <= labels
    assert not labels & {"Hp", "Red", "Red max"}
