"""The set-up the wizard offers and the default set-up both come from the packs' heroes."""

from __future__ import annotations

from companion.games import get_game, load_game_content
from companion.games.hexplore.options import SETUP_OPTIONS

GAME = get_game("hexplore")
CONTENT = load_game_content(GAME)


def test_the_wizard_offers_the_packs_heroes_by_name() -> None:
    options = GAME.setup_options_for(CONTENT)
    heroes = options[0]
    assert [c["id"] for c in heroes["pick"]] == [
        "stormcaller",
        "verdant-keeper",
        "soul-reaver",
        "floromancer",
    ]
    assert list(heroes["choice_labels"].values())[2] == "Soul Reaver (Den Troll)"
    assert options == SETUP_OPTIONS  # the fallback list is the demo pack's own


def test_the_default_set_up_is_the_first_two_heroes_of_the_packs() -> None:
    state = GAME.initial_state({}, CONTENT)
    assert list(state.heroes) == ["stormcaller", "verdant-keeper"]
    assert [h.name for h in state.heroes.values()] == [
        "Stormcaller (Sprite)",
        "Verdant Keeper (Wood Elf)",
    ]
    assert state.difficulty == "starter" and state.play_style == "standard"
