"""Forms read from the schemas: a field added to a schema appears with no screen code."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec
import pytest

from companion.content import forms
from companion.content.schema import Item
from companion.games import get_game


class Charm(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    kind: Literal["glow", "hum"]
    power: int = 1


class Trinket(Item, kw_only=True):
    """A throw-away kind of card, never shipped: only its schema says what it holds."""

    weight: Annotated[int, msgspec.Meta(ge=1, le=9, title="How heavy")]
    colour: Literal["red", "blue"] = "red"
    note: str = ""
    text: str = ""
    charms: list[Charm] = []
    best: Charm | None = None
    shelf: int | Literal["floor"] = "floor"
    spots: dict[str, int] = {}
    sides: Annotated[str, msgspec.Meta(extra={"choices": ["up", "down"]})] = "up"
    tags: list[Annotated[str, msgspec.Meta(extra={"choices": ["old", "new"]})]] = []


def test_every_field_of_a_new_schema_appears_with_its_kind_and_bounds():
    form = forms.form_for(Trinket)
    names = [f.name for f in form.fields]
    assert names == [
        "id", "name", "weight", "colour", "note", "text", "charms", "best", "shelf", "spots",
        "sides", "tags", "demo",
    ]  # fmt: skip
    weight = form.find("weight")
    assert (weight.kind, weight.minimum, weight.maximum, weight.label) == ("int", 1, 9, "How heavy")
    assert weight.required
    colour = form.find("colour")
    assert colour.kind == "choice" and colour.choices == ("red", "blue") and colour.default == "red"
    assert form.find("demo").kind == "bool"
    assert form.find("note").kind == "text" and not form.find("note").long
    assert form.find("text").long
    charms = form.find("charms")
    assert charms.kind == "list" and charms.item.kind == "struct"
    assert charms.item.find("kind").choices == ("glow", "hum")
    best = form.find("best")
    assert best.kind == "struct" and best.nullable and best.blank() is None
    shelf = form.find("shelf")
    assert shelf.kind == "either" and [o.kind for o in shelf.options] == ["int", "choice"]
    spots = form.find("spots")
    assert spots.kind == "mapping" and spots.item.kind == "int" and spots.key.kind == "text"
    assert form.find("sides").kind == "choice" and form.find("sides").choices == ("up", "down")
    tags = form.find("tags")  # a list of words from a vocabulary: a picker per entry
    assert tags.item.kind == "choice" and tags.item.choices == ("old", "new")


def test_a_new_card_holds_the_required_fields_and_converts_once_filled():
    card = forms.new_card(Trinket)
    assert card == {"id": "", "weight": 1}
    card["id"] = "tiny/trinket/a"
    assert msgspec.convert(card, Trinket).weight == 1


def test_renamed_fields_are_asked_for_as_written():
    form = forms.form_for(get_game("hexplore").content_kinds["opponents"])
    action = form.find("actions").item
    assert "raise" in [f.name for f in action.fields]


@pytest.mark.parametrize("game_id", ["direwild", "kradia", "hexplore"])
def test_every_kind_of_every_game_has_a_form(game_id):
    game = get_game(game_id)
    tree = forms.forms_for(game)
    assert set(tree.forms) == set(game.content_kinds)
    for form in tree.forms.values():
        assert form.find("name").kind == "text"


def test_a_cards_name_comes_first_and_entries_are_named_in_the_singular():
    minion = forms.form_for(get_game("direwild").content_kinds["minions"])
    assert [f.name for f in minion.fields][:3] == ["id", "name", "level"]
    assert minion.fields[-1].name == "demo"
    assert minion.find("id").hidden and minion.find("demo").hidden  # not printed on a card
    assert minion.find("abilities").item.label == "Ability"
    assert minion.find("hit_effects").item.label == "Hit effect"


def test_effect_lines_pick_from_the_games_vocabulary():
    minion = forms.form_for(get_game("direwild").content_kinds["minions"])
    effect = minion.find("hit_effects").item
    kinds = effect.find("kind").choices
    assert "poison" in kinds and "knockback" in kinds and effect.find("kind").kind == "choice"
    level = minion.find("level")
    assert level.kind == "either" and "acolyte" in level.options[1].choices


def test_saved_cards_leave_defaults_out():
    form = forms.form_for(Trinket)
    card = {"id": "tiny/trinket/a", "weight": 3, "colour": "red", "note": "", "charms": []}
    assert forms.without_defaults(form, card) == {"id": "tiny/trinket/a", "weight": 3}


def test_a_summary_reads_like_the_card():
    effect = forms.form_for(get_game("direwild").content_kinds["minions"]).find("hit_effects")
    line = forms.summary({"kind": "poison", "amount": 2}, effect.item)
    assert line == "Poison, Amount 2"  # the rulebook's words, never the schema's keys


class Line(msgspec.Struct, kw_only=True):
    """An effect line that may offer a choice of lines (Kradia's `either`)."""

    damage: int = 0
    either: list[Line] = []


def test_a_schema_holding_itself_is_read_one_level_at_a_time():
    form = forms.form_for(Trinket.__class__("T", (Item,), {"__annotations__": {"line": Line}}))
    line = form.find("line")
    inner = line.find("either").item
    assert inner.kind == "struct" and inner.find("either").item.find("damage").kind == "int"


def test_a_field_naming_another_card_says_which_kind_it_names() -> None:
    """Ids of the pack's other cards are picked by name in the editor, never typed: the
    schema says which kind a field names (`card_of`), and the form carries it."""
    form_for = forms.form_for
    board = form_for(get_game("kradia").content_kinds["battlefield_boards"])
    cards = board.find("cards")
    assert cards.item is not None and cards.item.refers == "battlefield_cards"
    story = form_for(get_game("kradia").content_kinds["story_sequences"])
    assert story.find("bosses").item.refers == "bosses"
    circumstance = form_for(get_game("hexplore").content_kinds["circumstances"])
    encounter = circumstance.find("encounter")
    assert encounter.refers == "opponents" and not encounter.required
    assert board.find("name").refers == ""  # a name is typed


def _shown(form: forms.FormField) -> list[forms.FormField]:
    return [f for f in forms.fields_of(form) if not f.hidden]


@pytest.mark.parametrize("game_id", ["direwild", "kradia", "hexplore"])
def test_every_field_a_player_sees_is_named_in_words_not_schema_keys(game_id):
    """Issue 24: labels from the rulebooks' vocabulary.  A field without a title would be
    labelled from its key ("Track length", "Hit effects"): every field shown, at every
    depth, whose key is not a plain word has a title the schema gives, and every choice
    is shown in words."""
    game = get_game(game_id)
    untitled = []

    def walk(form: forms.FormField, where: str, depth: int = 0) -> None:
        for f in _shown(form):
            if "_" in f.name.strip("_") and not f.titled:
                untitled.append(f"{where}.{f.name} ({f.label})")
            if f.kind == forms.CHOICE and f.choices and not f.among:
                words = [f.choice_label(c) for c in f.choices]
                assert all("_" not in w for w in words), (where, f.name, words)
            inner = f.item if f.kind in (forms.LIST, forms.MAPPING) else f
            if inner is not None and inner.kind == forms.STRUCT and depth < 3:
                walk(inner, f"{where}.{f.name}", depth + 1)

    for kind, schema in game.content_kinds.items():
        walk(forms.form_for(schema), kind)
    assert not untitled, untitled


def test_a_hexplore_default_action_is_one_of_the_cards_actions_never_typed():
    action = forms.form_for(get_game("hexplore").content_kinds["opponents"]).find("actions").item
    default = action.find("default")
    assert default.kind == forms.CHOICE and default.among == "key"
    key = action.find("key")
    assert key.choice_label("mastery2") == "Second Mastery" and key.label == "Action"
    folded = [f.name for f in action.fields if f.more]
    assert "raise" in folded and "health" not in folded  # a few cards print it: under More


@pytest.mark.parametrize("game_id", ["direwild", "kradia", "hexplore"])
def test_every_kinds_template_makes_a_card_the_loader_accepts(game_id):
    """A new card starts from its kind's template (the game's data): once named, it loads
    and passes the game's checks as it is."""
    from companion.core import workshop

    game = get_game(game_id)
    templates = forms.templates_for(game)
    assert set(templates) <= set(game.content_kinds)
    for kind, schema in game.content_kinds.items():
        card = forms.new_card(schema, forms.template_for(game, kind))
        card["id"], card["name"] = workshop.new_card_id(game_id, kind, "Tried"), "Tried"
        msgspec.convert(card, schema)
        if kind in templates:
            assert workshop.card_problems(game_id, kind, card) == [], (kind, card)


def test_templates_lay_out_the_usual_card():
    direwild, kradia, hexplore = (get_game(g) for g in ("direwild", "kradia", "hexplore"))
    assert forms.template_for(direwild, "minions")["level"] == 1
    boss = forms.template_for(kradia, "bosses")
    assert len(boss["chart"]) >= 4 and boss["chart"][0]["min"] == 2
    opponent = forms.template_for(hexplore, "opponents")
    assert [a["key"] for a in opponent["actions"]] == ["attack", "mastery", "special"]
