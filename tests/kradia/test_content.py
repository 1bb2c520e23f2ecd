"""The demo pack loads, and broken content is reported with what is wrong."""

from __future__ import annotations

import pytest

from companion.content.pack import ContentError
from companion.content.yamlines import load_text
from companion.games import load_game_content
from tests.kradia.helpers import CONTENT, GAME


def test_demo_pack_has_what_the_issue_asks_for():
    assert len(CONTENT.all("heroes")) >= 4
    levels = sorted(str(b.level) for b in CONTENT.all("bosses"))
    assert levels.count("challenge") == 1
    assert len(CONTENT.all("story_sequences")) == 2
    assert len(CONTENT.all("battlefield_cards")) == 3
    oakla = CONTENT.get("heroes", "kradia/hero/oakla")
    assert oakla.constitution == ["sleep"]
    thorn = oakla.skills[0].levels
    assert [(e.effects[0].damage, e.effects[1].heal) for e in thorn] == [(2, 2), (3, 2)]


def _check(text: str) -> list[str]:
    with pytest.raises(ContentError) as err:
        load_game_content(GAME, ["demo"], load_text(text, "test.yaml"))
    return [p.message for p in err.value.problems]


BOSS = """
bosses:
  - id: kradia/boss/broken
    level: 1
    hp: 10
    dice: [{hp_at_most: 10, dice: 2}]
    chart:
      - {min: 2, max: 6, effects: [{target: start_player, damage: 1}]}
      - {min: 6, max: 11, effects: [{target: everyone, damage: 1, ailments: [itch]}]}
    rage: {length: 3, effects: []}
"""


def test_broken_boss_chart_is_explained():
    messages = _check(BOSS)
    assert any("both cover a sum of 6" in m for m in messages)
    assert any("no row for a dice sum of 12" in m for m in messages)
    assert any("unknown target 'everyone'" in m for m in messages)
    assert any("unknown ailment 'itch'" in m for m in messages)


def test_typo_field_has_file_and_line():
    with pytest.raises(ContentError) as err:
        load_game_content(
            GAME,
            ["demo"],
            load_text(
                "items:\n  - {id: kradia/item/x, effects: [{target: self, heall: 2}]}\n", "t.yaml"
            ),
        )
    problem = err.value.problems[0]
    assert problem.file == "t.yaml" and problem.line == 2
    assert "heall" in problem.message


# a board with its three cards and only the space for "sun" of the 15 it needs
ONE_SPACE_BOARD = """
battlefield_boards:
  - id: kradia/battlefield-board/half
    cards: [kradia/battlefield-card/sun, kradia/battlefield-card/moon, kradia/battlefield-card/star]
    spaces:
      - {path: [sun]}
"""


def test_board_missing_a_space_is_reported():
    messages = _check(ONE_SPACE_BOARD)
    assert any("no space for the cards coming up moon" in m for m in messages)


def test_hero_needs_a_two_sided_level3_card_and_six_charges():
    text = """
heroes:
  - id: kradia/hero/half
    hp: 5
    red_max: 2
    blue_max: 2
    skills: []
    level3: {only: []}
    charge: [{roll: 1, effects: []}]
    charge_level4: []
"""
    messages = _check(text)
    assert any("two sides" in m for m in messages)
    assert any("charge: needs exactly one entry for each roll 1 to 6" in m for m in messages)


def test_each_missing_board_space_is_named_once():
    """Two orders of the cards start with the same symbol: the space for it is one
    space, named once."""
    messages = [m for m in _check(ONE_SPACE_BOARD) if "no space for the cards coming up" in m]
    assert len(messages) == 1, "one problem naming every missing space"
    paths = messages[0].split("coming up ", 1)[1].split("; ")
    assert len(paths) == len(set(paths)) == 14  # 15 spaces a board needs, 1 there
    assert "sun" not in paths and "moon" in paths
