"""The group's copy as a layer over the demo, and cards checked at the table (issue 24).

The layer: a card of the group's with a demo card's id, or its kind and name, replaces it;
two of the group's packs defining one card are refused in words; a pack of the group's
needs only the cards it changes.  The check: logged as one step, so the rules use the new
numbers from then on, one Undo takes it back (from the pack too), and the file folds to
one state whatever the pack folder holds later.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec
import pytest
import yaml

from companion.content.pack import ContentError, default_packs
from companion.core import our_copy, workshop
from companion.core.library import Library
from companion.core.rules import RuleError
from companion.core.session import Session
from companion.games import get_game, load_game_content

INKLING = "direwild/minion/inkling"


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("COMPANION_HOME", str(tmp_path))
    return tmp_path


def own_pack(home: Path, game: str, slug: str, cards: dict[str, list[dict[str, Any]]]) -> Path:
    folder = home / "content" / game / slug
    folder.mkdir(parents=True)
    (folder / "pack.yaml").write_text(yaml.safe_dump({"game": game, "pack": slug.title()}))
    (folder / "cards.yaml").write_text(yaml.safe_dump({"game": game, **cards}))
    return folder


def test_a_card_of_the_groups_replaces_the_demo_card_of_its_id(home: Path) -> None:
    own_pack(
        home,
        "direwild",
        "ours",
        {"minions": [{"id": INKLING, "name": "Inkling", "level": 1, "attack": 9, "hp": 3}]},
    )
    content = load_game_content(get_game("direwild"), ["demo", "ours"])
    assert content.get("minions", INKLING).attack == 9
    assert content.pack_of[INKLING] == "ours" and content.replaced[INKLING] == "demo"
    assert content.checked(INKLING)
    assert not content.checked("direwild/minion/coatl"), "the demo's numbers are unchecked"
    # the group's pack alone holds no board, Karn or AI cards: it borrows the demo's
    assert content.all("boards") and content.all("ai_cards")
    assert default_packs("direwild") == ["demo", "ours"]


def test_a_card_named_like_a_demo_card_takes_its_place_and_its_id(home: Path) -> None:
    own_pack(
        home,
        "direwild",
        "ours",
        {
            "minions": [
                {
                    "id": "direwild/minion/our-inkling",
                    "name": "inkling",
                    "level": 1,
                    "attack": 8,
                    "hp": 3,
                }
            ]
        },
    )
    content = load_game_content(get_game("direwild"), ["demo", "ours"])
    assert content.get("minions", INKLING).attack == 8
    assert content.get("minions", "direwild/minion/our-inkling").attack == 8, "its own id too"
    names = [m.title for m in content.all("minions")]
    assert names.count("Inkling") + names.count("inkling") == 1, names


def test_two_of_the_groups_packs_defining_one_card_are_refused_in_words(home: Path) -> None:
    card = {"id": INKLING, "name": "Inkling", "level": 1, "attack": 9, "hp": 3}
    own_pack(home, "direwild", "friday", {"minions": [card]})
    own_pack(home, "direwild", "saturday", {"minions": [{**card, "attack": 6}]})
    with pytest.raises(ContentError) as err:
        load_game_content(get_game("direwild"), ["demo", "friday", "saturday"])
    (problem,) = err.value.problems
    assert "Inkling is in two of your packs, 'Friday' and 'Saturday'" in problem.message


def test_a_partial_pack_of_the_groups_is_checked_over_the_demo(home: Path) -> None:
    own_pack(
        home,
        "direwild",
        "ours",
        {"minions": [{"id": INKLING, "name": "Inkling", "level": 1, "attack": 9, "hp": 3}]},
    )
    assert workshop.pack_problems("direwild", "ours") == []


def boss_chart_damage(session: Session, boss: str, row: int) -> int:
    return int(session.content.get("bosses", boss).chart[row].effects[0].damage)


def test_a_check_applies_from_its_step_and_undo_takes_it_back_from_the_pack(home: Path) -> None:
    session = Library().new(get_game("kradia"), {}, None)
    session.subscribe(our_copy.follow_undo)
    boss = session.state.boss.id
    card = msgspec.to_builtins(session.content.get("bosses", boss))
    card["hp"] -= 2  # fewer HP: the dice bands still cover every space
    card["chart"][0]["effects"][0]["damage"] += 2
    before_damage = boss_chart_damage(session, boss, 0)
    our_copy.keep(session, boss, card)
    assert boss_chart_damage(session, boss, 0) == before_damage + 2
    assert session.state.boss.max_hp == card["hp"] == session.state.boss.hp
    pack = home / "content" / "kradia" / "our-copy" / "bosses.yaml"
    assert yaml.safe_load(pack.read_text())["bosses"][0]["hp"] == card["hp"]
    session.undo()
    assert boss_chart_damage(session, boss, 0) == before_damage
    assert session.state.boss.max_hp == card["hp"] + 2
    assert yaml.safe_load(pack.read_text())["bosses"] == [], "the pack lets go of it too"
    session.redo()
    assert boss_chart_damage(session, boss, 0) == before_damage + 2
    assert yaml.safe_load(pack.read_text())["bosses"][0]["hp"] == card["hp"]


def test_the_file_folds_to_one_state_whatever_the_pack_holds_later(home: Path) -> None:
    session = Library().new(get_game("kradia"), {}, None)
    boss = session.state.boss.id
    start_hp = session.state.boss.max_hp
    session.do("start_round")
    card = msgspec.to_builtins(session.content.get("bosses", boss))
    card["hp"] = start_hp - 2
    our_copy.keep(session, boss, card)
    state = session.to_json()
    path = session.path
    session.close()
    # the group edits the card again between evenings: the log still says what was played
    workshop.save_card("kradia", "our-copy", "bosses", {**card, "hp": start_hp - 4}, replaces=boss)
    again = Session.open(path)
    assert again.to_json() == state
    assert again.content.get("bosses", boss).hp == start_hp - 2
    again.undo()  # back to before the check: the numbers the game started with
    assert again.content.get("bosses", boss).hp == start_hp
    assert again.state.boss.max_hp == start_hp
    # a new game plays what the group's pack holds now
    fresh = Library().new(get_game("kradia"), {}, None)
    assert fresh.state.boss.max_hp == start_hp - 4


def test_a_check_the_game_cannot_play_is_refused_and_nothing_is_written(home: Path) -> None:
    session = Library().new(get_game("kradia"), {}, None)
    boss = session.state.boss.id
    rows = len(session.chain.alive)
    card = msgspec.to_builtins(session.content.get("bosses", boss))
    with pytest.raises(RuleError):
        our_copy.keep(session, boss, {**card, "hp": 0})
    with pytest.raises(RuleError, match="no card"):
        our_copy.keep(session, "kradia/boss/nobody-at-all", None)
    assert len(session.chain.alive) == rows
    assert not (home / "content" / "kradia").exists() or not list(
        (home / "content" / "kradia").glob("*/bosses.yaml")
    )


def test_the_log_says_what_a_check_changed_in_the_cards_words(home: Path) -> None:
    session = Library().new(get_game("direwild"), {"players": ["stormbringer", "shadowleaf"]}, None)
    card = msgspec.to_builtins(session.content.get("minions", INKLING))
    result = our_copy.keep(session, INKLING, {**card, "attack": card["attack"] + 2})
    words = session.describe(session.history_of(result.tx)[0])
    assert (
        words
        == f"Inkling checked against your card: attack {card['attack']} -> {card['attack'] + 2}"
    )
    result = our_copy.keep(session, "direwild/minion/coatl", None)
    assert session.describe(session.history_of(result.tx)[0]) == (
        "Coatl checked against your card: it matches"
    )


def test_a_check_is_exported_as_a_scenario_step_that_plays_again(
    home: Path, tmp_path: Path
) -> None:
    from companion.core.transfer import export_scenario
    from companion.scenario.runner import run_file

    session = Library().new(
        get_game("direwild"), {"players": ["stormbringer", "shadowleaf"]}, ["demo"]
    )
    session.do("check_card", {"card": INKLING, "numbers": {"attack": 11}})
    text = export_scenario(session)
    doc = yaml.safe_load(text)
    (step,) = [s for s in doc["steps"] if s.get("do") == "check_card"]
    assert step["with"]["card"] == INKLING and step["with"]["numbers"]["attack"] == 11
    path = tmp_path / "exported.yaml"
    path.write_text(text)
    outcome = run_file(path)
    assert outcome.passed, outcome
