"""The demo pack loads, carries the rulebook's printed numbers, and bad cards are refused."""

from __future__ import annotations

import pytest

from companion.content.pack import ContentError
from companion.content.yamlines import load_text
from companion.games import get_game, load_game_content


@pytest.fixture(scope="module")
def content():
    return load_game_content(get_game("hexplore"))


def test_printed_opponents(content) -> None:
    fox = content.get("opponents", "hexplore/opponent/giant-fox")
    assert (fox.level, fox.health, fox.energy, fox.demo) == (1, 4, 5, False)
    hexed = fox.rolled(6)
    assert (hexed.target, hexed.health, hexed.piercing, hexed.defend) == ("dual", 3, 2, 1)
    assert fox.rolled(4).cost == 2 and fox.rolled(2).key == "attack"
    villagers = content.get("opponents", "hexplore/opponent/mindwiped-villagers")
    assert (villagers.soul_shield, villagers.energy) == (5, 4)
    tharanos = content.get("opponents", "hexplore/opponent/tharanos")
    breath = tharanos.rolled(4)
    assert (breath.name, breath.cost, breath.default) == ("Rotten Breath", 4, "defend")
    assert tharanos.rewards.single == ["+2 Attack", "Workshop Supplies"]
    hathowyr = content.get("opponents", "hexplore/opponent/hathowyr")
    assert (hathowyr.health, hathowyr.influence, hathowyr.energy) == (48, 42, 38)
    assert content.get("opponents", "hexplore/opponent/adrimon").soul_shield == 140


def test_invented_numbers_are_marked_demo(content) -> None:
    for hero in content.all("heroes"):
        assert hero.demo, hero.id


def _load(text: str):
    return load_game_content(get_game("hexplore"), [], load_text(text, "bad.yaml"))


def test_an_encounter_missing_an_action_face_is_refused() -> None:
    with pytest.raises(ContentError) as err:
        _load("""
opponents:
  - id: hexplore/opponent/half
    kind: encounter
    type: creature
    level: 2
    health: 5
    actions:
      - {key: attack, target: single, health: 2}
      - {key: special, target: group, health: 1}
""")
    assert "no action for action die 4, 5" in str(err.value)
    assert "bad.yaml" in str(err.value)


def test_a_mastery_without_a_default_and_a_typo_are_refused() -> None:
    with pytest.raises(ContentError) as err:
        _load("""
opponents:
  - id: hexplore/opponent/typo
    kind: boss
    type: dragon
    level: 12
    health: 5
    actions:
      - {key: attack, target: single, health: 2}
      - {key: defend, target: none, defend: 2}
      - {key: mastery, cost: 2, target: single, health: 2}
      - {key: mastery2, cost: 2, default: defend, target: single, health: 2}
      - {key: special, target: group, health: 1, conditions: [{condition: sleepy}]}
      - {key: special2, target: quad, health: 1}
""")
    text = str(err.value)
    for words in (
        "level must be 1 to 10",
        "type 'dragon'",
        "names no default action",
        "unknown condition 'sleepy'",
        "target 'quad'",
    ):
        assert words in text


def test_unknown_field_names_the_line() -> None:
    with pytest.raises(ContentError) as err:
        _load("heroes:\n  - {id: hexplore/hero/x, role: r, race: s, helth: 3}\n")
    assert "bad.yaml:2" in str(err.value)
