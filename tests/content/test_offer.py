"""What a new game offers and records from the packs (companion/content/offer.py and each
game's `setup_options_for` / `complete_setup`): the group's own cards first, by name, and
with no pack of the group's exactly what a new game did before (old saves read the same).
"""

from __future__ import annotations

from typing import Any

import pytest

from companion.content.offer import own_first, where_cards_come_from
from companion.core import workshop
from companion.games import get_game, load_game_content


def ours(game_id: str, kind: str, base: dict[str, Any], **changes: Any) -> dict[str, Any]:
    """`base` as a card of the group's pack 'Our copy' (made if need be)."""
    if not any(p.slug == "our-copy" for p in workshop.list_packs(game_id)):
        workshop.new_pack(game_id, "Our copy")
    card = {k: v for k, v in base.items() if k != "demo"} | changes
    assert workshop.save_card(game_id, "our-copy", kind, card) == []
    return card


@pytest.mark.parametrize("game_id", ["direwild", "hexplore", "kradia"])
def test_with_only_the_demo_nothing_changes(home, game_id: str) -> None:
    game = get_game(game_id)
    content = load_game_content(game, ["demo"])
    assert where_cards_come_from(content) == ""
    assert game.complete_setup({}, content) == {}
    assert game.complete_setup({"mode": "story"}, content) == {"mode": "story"}
    for option in game.setup_options_for(content):
        assert "/" not in " ".join(str(v) for v in (option.get("choice_labels") or {}).values())
        if option["name"] == "story_boss":
            assert option["default"] is None  # the sequence's own, as before


def test_kradia_a_new_level_1_boss_is_first_and_recorded_from_the_cli(home) -> None:
    game = get_game("kradia")
    sequence = workshop.cards("kradia", "demo", "story_sequences")[0]
    opener = next(
        b for b in workshop.cards("kradia", "demo", "bosses") if b["id"] == sequence["bosses"][0]
    )
    mine = ours("kradia", "bosses", opener, id="kradia/boss/thornback", name="Thornback")
    content = load_game_content(game, ["demo", "our-copy"])
    option = next(o for o in game.setup_options_for(content) if o["name"] == "story_boss")
    assert option["choices"][:3] == [None, mine["id"], opener["id"]]
    assert option["default"] == mine["id"]
    assert option["choice_labels"][mine["id"]] == "Thornback"
    # nobody named a boss: the group's is recorded, with the first sequence after it
    assert game.complete_setup({}, content) == {"boss": mine["id"], "sequence": sequence["id"]}
    # anything named stands
    assert game.complete_setup({"sequence": 2}, content) == {"sequence": 2}
    assert game.complete_setup({"mode": "challenge"}, content) == {"mode": "challenge"}
    state = game.initial_state(game.complete_setup({}, content), content)
    assert state.boss.id == mine["id"] and state.sequence == sequence["id"]
    # the wizard's "The sequence's own" keeps the sequence's boss
    state = game.initial_state({"story_boss": None, "sequence": sequence["id"]}, content)
    assert state.boss.id == opener["id"]
    words = where_cards_come_from(content)
    assert words == (
        "Your copy 'Our copy': 1 of your own (Thornback); the rest from Demo cards "
        "(invented numbers)"
    )


def test_direwild_the_groups_board_of_the_chapters_land(home) -> None:
    game = get_game("direwild")
    demo = workshop.cards("direwild", "demo", "boards")
    first = demo[0]
    mine = ours("direwild", "boards", first, id="direwild/board/our-field", name="Our Field")
    content = load_game_content(game, ["demo", "our-copy"])
    board = next(o for o in game.setup_options_for(content) if o["name"] == "board")
    assert board["choices"][:2] == [None, mine["id"]]
    assert board["choice_labels"][mine["id"]] == f"Our Field ({first['land'].capitalize()})"
    land_chapter = {"redmill": 1, "blightwood": 2, "dungeon": 3}[first["land"]]
    done = game.complete_setup({"chapter": land_chapter}, content)
    assert done == {"chapter": land_chapter, "board": mine["id"]}
    assert game.initial_state(done, content).board == mine["id"]
    other = next(n for n in (1, 2, 3) if n != land_chapter)
    assert game.complete_setup({"chapter": other}, content) == {"chapter": other}
    assert game.complete_setup({"board": first["id"]}, content) == {"board": first["id"]}


def test_own_first_keeps_a_checked_copy_in_its_place(home) -> None:
    game = get_game("kradia")
    demo = workshop.cards("kradia", "demo", "bosses")
    ours("kradia", "bosses", demo[1], hp=demo[1]["hp"])  # checked: same id, real numbers
    content = load_game_content(game, ["demo", "our-copy"])
    assert own_first(content, content.ids("bosses")) == content.ids("bosses")
    assert "1 card over the demo" in where_cards_come_from(content)
