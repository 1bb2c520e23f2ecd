"""The pack workshop: make a pack, save cards through the game's own loader, drafts,
export and import, labels, and the scanner knowing the new cards."""

from __future__ import annotations

import json
import zipfile

import pytest

from companion.content.pack import ContentError
from companion.core import workshop
from companion.core.library import Library
from companion.games import get_game, load_game_content

MINION = {"name": "Bog Hound", "level": 1, "attack": 9, "hp": 3}


def test_lists_the_shipped_demo_with_its_cards_counted(home):
    packs = workshop.list_packs("direwild")
    demo = next(p for p in packs if p.shipped)
    assert demo.counts["minions"] > 0 and demo.counts["boards"] > 0
    assert not demo.draft and demo.cards == sum(demo.counts.values())


def test_new_empty_pack_lives_in_the_user_folder_and_is_clean(home):
    info = workshop.new_pack("direwild", "Our Cards")
    assert info.slug == "our-cards" and info.title == "Our Cards"
    assert info.path.is_relative_to(home) and not info.shipped
    assert info.cards == 0
    with pytest.raises(workshop.WorkshopError, match="already"):
        workshop.new_pack("direwild", "our cards")


def test_a_copy_of_the_demo_holds_the_same_cards(home):
    demo = next(p for p in workshop.list_packs("kradia") if p.shipped)
    copy = workshop.new_pack("kradia", "Ours", from_pack=demo.slug)
    assert copy.counts == demo.counts and not copy.draft
    content = load_game_content(get_game("kradia"), ["ours"])
    assert len(content.ids("bosses")) == demo.counts["bosses"]


def test_a_shipped_pack_cannot_be_changed(home):
    demo = next(p for p in workshop.list_packs("direwild") if p.shipped)
    with pytest.raises(workshop.WorkshopError, match="make a copy"):
        workshop.save_card("direwild", demo.slug, "minions", MINION)


def test_a_saved_card_gets_an_id_and_loads_as_the_game_reads_it(home):
    workshop.new_pack("direwild", "Ours")
    assert workshop.save_card("direwild", "ours", "minions", MINION) == []
    content = load_game_content(get_game("direwild"), ["ours"])
    (minion,) = content.all("minions")
    assert minion.id == "direwild/minion/bog-hound" and minion.attack == 9


def test_a_card_with_a_problem_makes_a_draft_that_no_game_starts_with(home):
    workshop.new_pack("direwild", "Ours")
    bad = {**MINION, "attack": "lots"}
    problems = workshop.save_card("direwild", "ours", "minions", bad)
    assert problems and "attack" in problems[0].field
    assert workshop.pack_info("direwild", "ours").draft
    # nothing typed is lost
    assert workshop.cards("direwild", "ours", "minions")[0]["attack"] == "lots"
    with pytest.raises(ContentError, match="is a draft"):
        Library(home / "sessions").new(get_game("direwild"), {}, ["ours"])
    # fixed: clean again
    fixed = {**workshop.cards("direwild", "ours", "minions")[0], "attack": 8}
    assert workshop.save_card("direwild", "ours", "minions", fixed) == []
    assert not workshop.pack_info("direwild", "ours").draft


def test_card_problems_name_the_field(home):
    problems = workshop.card_problems("direwild", "minions", {"id": "direwild/minion/x", "hp": 3})
    assert problems[0].path == ("level",) or problems[0].path == ("attack",)
    nested = workshop.card_problems(
        "direwild",
        "minions",
        {**MINION, "id": "direwild/minion/x", "hit_effects": [{"kind": "sneeze"}]},
    )
    assert nested[0].path[:3] == ("hit_effects", 0, "kind")
    wrong_id = workshop.card_problems("direwild", "minions", {**MINION, "id": "Bog Hound"})
    assert wrong_id[0].path == ("id",)


def test_renaming_a_card_replaces_it_and_deleting_removes_it(home):
    workshop.new_pack("direwild", "Ours")
    workshop.save_card("direwild", "ours", "minions", MINION)
    old = "direwild/minion/bog-hound"
    renamed = {**MINION, "id": "direwild/minion/fen-hound", "name": "Fen Hound"}
    workshop.save_card("direwild", "ours", "minions", renamed, replaces=old)
    assert [c["id"] for c in workshop.cards("direwild", "ours", "minions")] == [
        "direwild/minion/fen-hound"
    ]
    workshop.delete_card("direwild", "ours", "minions", "direwild/minion/fen-hound")
    assert workshop.cards("direwild", "ours", "minions") == []


def test_export_then_import_into_a_fresh_home(home, tmp_path, monkeypatch):
    workshop.new_pack("kradia", "Ours", from_pack="demo")
    boss_id = workshop.cards("kradia", "ours", "bosses")[0]["id"]
    first = workshop.cards("kradia", "ours", "bosses")[0]
    boss = {**first, "hp": first["hp"] - 2}
    assert workshop.save_card("kradia", "ours", "bosses", boss) == []
    shared = workshop.export_pack("kradia", "ours")
    with zipfile.ZipFile(shared) as zf:
        manifest = json.loads(zf.read("manifest.json"))
    assert (manifest["game"], manifest["pack"], manifest["version"]) == ("kradia", "ours", 1)

    monkeypatch.setenv("COMPANION_HOME", str(tmp_path / "other"))
    info = workshop.import_pack(shared)
    assert info.title == "Ours" and not info.shipped
    content = load_game_content(get_game("kradia"), ["ours"])
    assert content.get("bosses", boss_id).hp == first["hp"] - 2
    with pytest.raises(workshop.WorkshopError, match="already .* called 'ours'"):
        workshop.import_pack(shared)
    assert workshop.import_pack(shared, replace=True).slug == "ours"


def test_an_import_with_problems_names_them_and_installs_nothing(home, tmp_path):
    bad = tmp_path / "bad.pack.zip"
    with zipfile.ZipFile(bad, "w") as zf:
        zf.writestr(
            "manifest.json",
            json.dumps(
                {
                    "format": "table-companion-pack",
                    "version": 1,
                    "game": "direwild",
                    "pack": "broken",
                    "name": "Broken",
                }
            ),
        )
        zf.writestr(
            "cards/minions.yaml",
            "minions:\n  - {id: direwild/minion/a, level: 1, attack: x, hp: 3}\n"
            "  - {id: direwild/minion/b, level: 1, attack: 2}\n",
        )
    with pytest.raises(ContentError) as caught:
        workshop.import_pack(bad)
    assert len(caught.value.problems) == 2
    assert not any(p.slug == "broken" for p in workshop.list_packs("direwild"))
    assert not list((home).glob("import-*"))


def test_an_import_refuses_paths_out_of_the_pack(home, tmp_path):
    bad = tmp_path / "evil.pack.zip"
    with zipfile.ZipFile(bad, "w") as zf:
        zf.writestr(
            "manifest.json",
            json.dumps(
                {"format": "table-companion-pack", "version": 1, "game": "direwild", "pack": "evil"}
            ),
        )
        zf.writestr("cards/../../x.yaml", "minions: []\n")
    with pytest.raises(workshop.WorkshopError, match="should not"):
        workshop.import_pack(bad)
    not_a_pack = tmp_path / "notes.pack.zip"
    not_a_pack.write_text("hello")
    with pytest.raises(workshop.WorkshopError, match="not a zip"):
        workshop.import_pack(not_a_pack)


def test_labels_for_a_pack_are_a_pdf(home):
    workshop.new_pack("direwild", "Ours")
    workshop.save_card("direwild", "ours", "minions", MINION)
    out, count = workshop.labels_pdf("direwild", "ours")
    assert out.read_bytes().startswith(b"%PDF") and count == 1


def test_the_scanner_knows_a_new_packs_card_at_once(home):
    from companion.table.card_answers import card_name, offer_card
    from vision.payload import encode

    workshop.new_pack("hexplore", "Ours", from_pack="demo")
    opponent = {**workshop.cards("hexplore", "ours", "opponents")[0]}
    opponent.update(id="hexplore/opponent/marsh-wisp", name="Marsh Wisp")
    assert workshop.save_card("hexplore", "ours", "opponents", opponent) == []
    session = Library(home / "sessions").new(get_game("hexplore"), None, ["ours"])
    assert card_name(session, "hexplore/opponent/marsh-wisp") == "Marsh Wisp"
    offer = offer_card(session, encode("hexplore/opponent/marsh-wisp"))
    assert "not in this game's content" not in offer.message


def test_a_new_card_named_like_another_gets_its_own_id(home):
    workshop.new_pack("direwild", "Ours")
    workshop.save_card("direwild", "ours", "minions", MINION)
    workshop.save_card("direwild", "ours", "minions", {**MINION, "attack": 4})
    ids = [c["id"] for c in workshop.cards("direwild", "ours", "minions")]
    assert ids == ["direwild/minion/bog-hound", "direwild/minion/bog-hound-2"]


def test_problems_are_said_in_words():
    problems = workshop.card_problems(
        "direwild", "minions", {"id": "direwild/minion/x", "name": "X", "level": 1, "hp": 3}
    )
    assert [(p.path, p.message) for p in problems] == [(("attack",), "needs to be filled in")]
    problems = workshop.card_problems(
        "direwild", "minions", {**MINION, "id": "direwild/minion/x", "attack": "x"}
    )
    assert problems[0].message == "must be a whole number"
