"""Setting up a battle refuses bad options in words a player understands."""

from __future__ import annotations

import msgspec
import pytest

from companion.core.rules import RuleError
from companion.games.kradia.state import KradiaState
from tests.kradia.helpers import CONTENT, GAME, options


@pytest.mark.parametrize(
    ("extra", "words"),
    [
        ({"heroes": ["oakla", "warden", "archer"]}, "name the 4 heroes"),
        ({"heroes": ["oakla", "oakla", "archer", "mystic"]}, "only once"),
        ({"heroes": ["oakla", "warden", "archer", "nobody"]}, "no hero 'nobody'"),
        ({"mode": "coop"}, "mode must be"),
        ({"boss": "moth-queen"}, "Level 2 boss; the heroes are Level 1"),
        ({"level": 5}, "level must be 1, 2, 3 or 4"),
        ({"level": 3, "level3": {"oakla": "bloom"}}, "choose the side of Warden's Level 3"),
        ({"start_player": "boss"}, "start player must be one of the heroes"),
        ({"players": 0}, "players must be 1 to 4"),
        ({"items": {"nobody": ["potion"]}}, "who is not playing"),
        ({"items": {"oakla": ["sword"]}}, "no item card 'sword'"),
        ({"mode": "challenge", "level": 2}, "fully levelled up (Level 4)"),
    ],
)
def test_bad_setup_is_refused(extra, words):
    with pytest.raises(RuleError) as err:
        GAME.initial_state(options(**extra), CONTENT)
    assert words in err.value.message


def test_challenge_needs_a_challenge_boss():
    opts = options(
        mode="challenge",
        boss="stone-wyrm",
        sequence=None,
        level3={"oakla": "bloom", "warden": "guardian", "archer": "scout", "mystic": "healer"},
    )
    opts["level"] = 4
    with pytest.raises(RuleError, match="not a Challenge boss"):
        GAME.initial_state(opts, CONTENT)


def test_story_boss_finds_its_sequence():
    state = GAME.initial_state(options(sequence=None, boss="marsh-toad"), CONTENT)
    assert state.sequence == "kradia/story/sequence-2"
    assert state.boss.hp == 11 and state.boss.id == "kradia/boss/marsh-toad"


def test_state_round_trips_strictly():
    state = GAME.initial_state(options(items={"oakla": ["potion"]}), CONTENT)
    data = msgspec.to_builtins(state)
    again = msgspec.convert(data, KradiaState, strict=True)
    assert again == state
    assert "kradia/item/potion" not in again.item_deck


def test_the_wizard_defaults_set_up_both_modes():
    """The set-up wizard's defaults alone start a story game and a challenge game."""
    defaults = {o["name"]: o["default"] for o in GAME.setup_options}
    story = GAME.initial_state(defaults, CONTENT)
    assert story.boss.id == "kradia/boss/bramble-boar" and story.heroes["oakla"].level == 1
    assert story.heroes["oakla"].level3_side is None
    challenge = GAME.initial_state({**defaults, "mode": "challenge"}, CONTENT)
    assert challenge.boss.id == "kradia/boss/wild-hunt-king"
    assert challenge.heroes["archer"].level3_side == "sniper"
    assert challenge.heroes["warden"].level3_side == "guardian"  # each card's first side


def test_the_default_set_up_comes_from_the_packs():
    """No options at all: the first four heroes, the first story sequence's Level 1 boss."""
    state = GAME.initial_state({}, CONTENT)
    assert state.order == [i.rsplit("/", 1)[-1] for i in CONTENT.ids("heroes")[:4]]
    assert state.mode == "story" and state.sequence == CONTENT.ids("story_sequences")[0]
    first = CONTENT.get("story_sequences", state.sequence).bosses[0]
    assert state.boss.id == first and state.start_player == state.order[0]
