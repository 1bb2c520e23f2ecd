"""`companion content cards | set | add`: the group's copy over the demo, from the terminal.

Each test runs the real `companion` command as a new user would, with a fresh user data
folder: reading what is in play, writing a card into the group's pack, and a game started
afterwards (or a scenario naming the pack) playing the group's numbers.  A refusal says
what is wrong in one line, exits 2 and leaves every pack file as it was.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from companion.core.edits import EditError, parse_assignment, parse_value

COMPANION = Path(sys.executable).parent / "companion"


@pytest.fixture
def cli(home):
    def run(*args: str) -> subprocess.CompletedProcess:
        env = {**os.environ, "COMPANION_HOME": str(home)}
        command = [str(COMPANION)] if COMPANION.exists() else [sys.executable, "-m", "companion"]
        return subprocess.run(
            [*command, *args], capture_output=True, text=True, env=env, timeout=120
        )

    return run


def _files(home: Path) -> dict[str, bytes]:
    """Every file of the group's packs, by path: what a refusal must leave untouched."""
    root = home / "content"
    if not root.is_dir():
        return {}
    return {str(p.relative_to(root)): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def _cards(cli, game: str) -> dict[str, dict]:
    run = cli("content", "cards", game, "--json")
    assert run.returncode == 0, run.stderr
    return {row["id"]: row for row in json.loads(run.stdout)}


def _pack_cards(home: Path, game: str, pack: str, kind: str) -> dict[str, dict]:
    data = yaml.safe_load((home / "content" / game / pack / f"{kind}.yaml").read_text())
    return {card["id"]: card for card in data[kind]}


# -- cards ----------------------------------------------------------------------------------


def test_cards_lists_every_card_in_play_with_its_pack_and_whether_it_is_checked(cli):
    rows = _cards(cli, "direwild")
    inkling = rows["direwild/minion/inkling"]
    assert inkling == {
        "id": "direwild/minion/inkling",
        "name": "Inkling",
        "kind": "minions",
        "pack": "demo",
        "checked": False,
    }
    assert {r["kind"] for r in rows.values()} >= {"minions", "ai_cards", "karn_cards"}
    table = cli("content", "cards", "direwild")
    assert table.returncode == 0, table.stderr
    lines = table.stdout.splitlines()
    assert "Minions (16):" in lines
    assert any(line.split()[:2] == ["Inkling", "unchecked"] for line in lines)
    checked = sum(1 for r in rows.values() if r["checked"])
    assert lines[-1] == f"{checked} of {len(rows)} cards checked against your copy"


# -- set --------------------------------------------------------------------------------------


def test_set_writes_the_group_copy_reports_it_checked_and_a_new_game_plays_it(cli, home):
    run = cli("content", "set", "direwild", "Inkling", "attack=6")
    assert run.returncode == 0, run.stderr
    assert "made your direwild pack 'Our copy' (our-copy)" in run.stdout
    assert "attack 7 -> 6" in run.stdout
    card = _pack_cards(home, "direwild", "our-copy", "minions")["direwild/minion/inkling"]
    assert card["attack"] == 6 and "demo" not in card and card["hit_effects"][0]["amount"] == 2
    rows = _cards(cli, "direwild")
    assert rows["direwild/minion/inkling"]["checked"] is True
    assert rows["direwild/minion/inkling"]["pack"] == "our-copy"
    assert rows["direwild/minion/coatl"] == {**rows["direwild/minion/coatl"], "checked": False}
    assert cli("content", "cards", "direwild").stdout.splitlines()[-1].startswith("1 of ")

    # the worked example of Book 2 (the Inkling tie at 7), now against an Inkling of 6
    setup = home / "setup.yaml"
    setup.write_text(
        "players: [stormbringer, featherheart]\n"
        "minions: {green: inkling}\n"
        "heroes_at: {stormbringer: C10}\n"
    )
    assert cli("new", "direwild", "--setup", str(setup)).stdout.strip() == "direwild-1"
    for path, value in (("heroes.stormbringer.stamina", 1), ("phase", "adventure")):
        fix = json.dumps({"path": path, "value": value})
        assert cli("do", "direwild-1", "correct", "--with", fix).returncode == 0
    battle = {
        "hero": "stormbringer",
        "enemy": "green",
        "creature": {"attack": 5, "move": 1, "flight": 2, "knockback": 2},
    }
    assert cli("do", "direwild-1", "resolve_battle", "--with", json.dumps(battle)).returncode == 0
    assert cli("answer", "direwild-1", "1").returncode == 0
    state = json.loads(cli("state", "--json", "direwild-1").stdout)
    assert state["last_battle"]["enemy_total"] == 6
    assert state["last_battle"]["winner"] == "hero"


def test_a_boss_set_by_name_starts_a_new_game_with_the_group_hp(cli, home):
    run = cli("content", "set", "kradia", "bramble boar", "hp=10")
    assert run.returncode == 0, run.stderr
    assert cli("new", "kradia").returncode == 0
    boss = json.loads(cli("state", "--json", "kradia-1").stdout)["boss"]
    assert boss["id"] == "kradia/boss/bramble-boar"
    assert boss["max_hp"] == 10 and boss["hp"] == 10


def test_set_dotted_fields_by_slug_and_matches(cli, home):
    run = cli("content", "set", "direwild", "coatl", "hit_effects.0.amount=3", "level=acolyte")
    assert run.returncode == 0, run.stderr
    assert "hit_effects.0.amount 1 -> 3" in run.stdout and "level 1 -> acolyte" in run.stdout
    coatl = _pack_cards(home, "direwild", "our-copy", "minions")["direwild/minion/coatl"]
    assert coatl["hit_effects"] == [{"kind": "poison", "amount": 3}]
    assert coatl["abilities"][0]["when"] == "revealed"  # the rest as it was in play
    added = cli("content", "set", "direwild", "coatl", "hit_effects.1={kind: rage}")
    assert added.returncode == 0, added.stderr
    coatl = _pack_cards(home, "direwild", "our-copy", "minions")["direwild/minion/coatl"]
    assert coatl["hit_effects"][1] == {"kind": "rage"}

    same = cli("content", "set", "direwild", "direwild/minion/gryk", "--matches")
    assert same.returncode == 0, same.stderr
    assert "it matches" in same.stdout
    gryk = _pack_cards(home, "direwild", "our-copy", "minions")["direwild/minion/gryk"]
    assert gryk["attack"] == 6 and "demo" not in gryk
    assert _cards(cli, "direwild")["direwild/minion/gryk"]["checked"] is True
    before = _files(home)
    again = cli("content", "set", "direwild", "Gryk", "--matches")
    assert again.returncode == 0 and "already checked" in again.stdout
    assert _files(home) == before


def test_with_two_packs_set_asks_which_and_writes_where_told(cli, home):
    assert cli("content", "new", "direwild", "Our copy").returncode == 0
    assert cli("content", "new", "direwild", "Friday").returncode == 0
    before = _files(home)
    run = cli("content", "set", "direwild", "Coatl", "attack=5")
    assert run.returncode == 2
    assert run.stderr.strip() == (
        "companion: you have 2 Direwild packs, 'friday' and 'our-copy': say which with --pack"
    )
    assert _files(home) == before
    run = cli("content", "set", "direwild", "Coatl", "attack=5", "--pack", "friday")
    assert run.returncode == 0, run.stderr
    assert _cards(cli, "direwild")["direwild/minion/coatl"]["pack"] == "friday"
    # the card is in 'friday' now: that is where it is set, and nowhere else
    assert cli("content", "set", "direwild", "Coatl", "hp=4").returncode == 0
    elsewhere = cli("content", "set", "direwild", "Coatl", "hp=5", "--pack", "our-copy")
    assert elsewhere.returncode == 2 and "already in your pack 'friday'" in elsewhere.stderr


# -- add --------------------------------------------------------------------------------------


def test_add_makes_a_card_from_its_kind_template_and_prints_its_id(cli, home):
    run = cli("content", "add", "direwild", "minion", "name=Ink Wraith", "attack=5")
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines()[-1] == "direwild/minion/ink-wraith"
    card = _pack_cards(home, "direwild", "our-copy", "minions")["direwild/minion/ink-wraith"]
    assert card["name"] == "Ink Wraith" and card["attack"] == 5
    row = _cards(cli, "direwild")["direwild/minion/ink-wraith"]
    assert row["pack"] == "our-copy" and row["checked"] is True
    twice = cli("content", "add", "direwild", "minions", "name=Ink Wraith")
    assert twice.stdout.strip() == "direwild/minion/ink-wraith-2"
    boss = cli("content", "add", "kradia", "Boss", "name=Thorn King")
    assert boss.returncode == 0, boss.stderr
    assert boss.stdout.splitlines()[-1] == "kradia/boss/thorn-king"
    assert cli("content", "check").returncode == 0


# -- refusals ---------------------------------------------------------------------------------

REFUSALS = [
    (("set", "nope", "inkling", "attack=6"), "unknown game 'nope'"),
    (
        ("set", "direwild", "Inklin", "attack=6"),
        "there is no Direwild card called 'Inklin' (did you mean Inkling?)",
    ),
    (
        ("set", "direwild", "Inkling", "atack=6"),
        "Inkling (minion) has no field 'atack': its fields are name, level, attack, hp,",
    ),
    (("set", "direwild", "Inkling", "hp=0"), "Inkling: hp must be 1 or more"),
    (("set", "direwild", "Inkling", "attack=seven"), "Inkling: Attack must be a whole number"),
    (("set", "kradia", "Bramble Boar", "hp=0"), "Bramble Boar: hp must be at least 1"),
    (
        ("set", "kradia", "Bramble Boar", "hp=14"),
        "Bramble Boar: dice: every HP space up to 14 needs a dice count",
    ),
    (
        ("set", "hexplore", "Grove Lynx", "name=Lynx"),
        "'Grove Lynx' names two cards: hexplore/circumstance/grove-lynx (circumstance), "
        "hexplore/opponent/grove-lynx (opponent); give the id",
    ),
    (("set", "direwild", "Inkling", "attack"), "'attack' is not FIELD=VALUE"),
    (("set", "direwild", "Inkling", "=6"), "'=6' is not FIELD=VALUE"),
    (
        ("set", "direwild", "Inkling", "hit_effects.0.kind=bogus"),
        "Inkling: hit_effects.0.kind: 'bogus' is not one of the choices (poison, rage,",
    ),
    (("set", "direwild", "Inkling", "hit_effects.4.amount=1"), "hit_effects.4 is past the end"),
    (("set", "direwild", "Inkling"), "say what to change (FIELD=VALUE), or --matches"),
    (("add", "direwild", "goblin", "name=Gob"), "Direwild has no kind of card called 'goblin'"),
    (("add", "direwild", "minion", "name=Gob", "atack=3"), "has no field 'atack'"),
    (("add", "direwild", "minion", "name=Gob", "hp=0"), "Gob: hp must be 1 or more"),
]


@pytest.mark.parametrize("with_pack", [False, True], ids=["no-pack-yet", "pack-exists"])
@pytest.mark.parametrize(("args", "said"), REFUSALS, ids=[" ".join(a) for a, _ in REFUSALS])
def test_a_refusal_is_one_line_exit_2_and_writes_nothing(cli, home, args, said, with_pack):
    if with_pack and args[1] != "nope":
        assert cli("content", "new", args[1], "Our copy").returncode == 0
    before = _files(home)
    run = cli("content", *args)
    assert run.returncode == 2, run.stdout + run.stderr
    assert said in run.stderr
    assert len(run.stderr.strip().splitlines()) == 1 and run.stderr.startswith("companion: ")
    assert "Traceback" not in run.stderr and run.stdout == ""
    assert _files(home) == before


# -- a scenario naming a folder of the group's cards ---------------------------------------


def test_a_scenario_with_the_group_pack_over_the_demo_plays_its_numbers(cli, tmp_path):
    pack = tmp_path / "our-inkling"
    pack.mkdir()
    # written under an id of its own: it takes the demo Inkling's place by kind and name
    (pack / "minions.yaml").write_text(
        "game: direwild\n"
        "minions:\n"
        "  - {id: direwild/minion/our-inkling, name: Inkling, level: 1, attack: 6, hp: 3,\n"
        "     hit_effects: [{kind: poison, amount: 2}]}\n"
    )
    scenario = tmp_path / "inkling-of-six.yaml"
    scenario.write_text(
        yaml.safe_dump(
            {
                "title": "Our copy's Inkling attacks for 6, so the hero's 7 wins",
                "game": "direwild",
                "content": ["demo", str(pack)],
                "setup": {
                    "players": ["stormbringer", "featherheart"],
                    "minions": {"green": "inkling"},
                    "heroes_at": {"stormbringer": "C10"},
                },
                "steps": [
                    {"do": "correct", "with": {"path": "heroes.stormbringer.stamina", "value": 1}},
                    {"do": "correct", "with": {"path": "phase", "value": "adventure"}},
                    {
                        "do": "resolve_battle",
                        "with": {
                            "hero": "stormbringer",
                            "enemy": "green",
                            "creature": {"attack": 5, "move": 1, "flight": 2, "knockback": 2},
                        },
                        "dice": [1],
                    },
                    {
                        "expect": {
                            "last_battle.hero_total": 7,
                            "last_battle.enemy_total": 6,
                            "last_battle.winner": "hero",
                        }
                    },
                ],
            },
            sort_keys=False,
        )
    )
    run = cli("scenario", "run", str(scenario))
    assert run.returncode == 0, run.stdout + run.stderr
    assert "1 held" in run.stdout


# -- FIELD=VALUE on its own -------------------------------------------------------------------


def test_values_read_as_yaml_scalars_and_flow_collections():
    assert parse_value("6") == 6 and parse_value("2.5") == 2.5 and parse_value("true") is True
    assert parse_value("Ink Wraith") == "Ink Wraith"
    assert parse_value("Ink: the Second") == "Ink: the Second"  # a mapping only in braces
    assert parse_value("[5, 6]") == [5, 6]
    assert parse_value("{kind: poison, amount: 1}") == {"kind": "poison", "amount": 1}
    assert parse_assignment("hit_effects.0.amount=1").path == ("hit_effects", 0, "amount")
    assert parse_assignment("name=a=b").value == "a=b"
    for bad in ("attack", "=1", "hit effects=1", "a..b=1", "x=[1, 2"):
        with pytest.raises(EditError):
            parse_assignment(bad)
