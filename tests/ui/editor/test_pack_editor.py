"""The pack editor by touch: make a pack, enter a card, see problems live, save a draft."""

from __future__ import annotations

import pytest

from companion.core import workshop
from tests.ui.editor.driver import EditorDriver
from tests.ui.kivyharness import AppTestCase

pytestmark = [pytest.mark.ui]


class TestPackEditor(AppTestCase):
    def test_make_a_pack_and_enter_a_minion(self) -> None:
        self.start_app()
        d = EditorDriver(self)
        d.tap("Your cards")
        assert self.app.root.current == "packs"
        d.shoot("01-packs")
        d.tap("New Direwild pack")
        d.shoot("02-new-pack")
        d.tap("Make the pack")
        assert "Made 'Our Direwild'" in d.notice(), d.notice()
        d.shoot("03-kinds")
        d.tap("Minions (0)")
        d.tap("New minion")
        d.shoot("04-new-card")
        assert "give the card its name" in d.box("name").problem.text
        d.type_text("Bog Hound", "name")
        assert d.box("name").problem.text == ""
        d.choose("Number", "level")
        d.number(2, "level")
        d.number(11, "attack")
        d.number(3, "hp")
        d.open("hit_effects", 0)  # the template's hit effect, opened from its line
        d.choose("Knockback", "hit_effects", 0, "kind")
        d.number(2, "hit_effects", 0, "amount")
        assert "treasure_monster_wins" not in [p[0] for p in d.screen.card_form.boxes]
        d.more()  # the fields a few minions print, folded until asked for
        d.choose("Yes", "attacks_flying")
        d.shoot("05-card-form")
        d.save()
        assert "Saved Bog Hound." in d.notice(), d.notice()
        d.shoot("06-cards")
        (card,) = workshop.cards("direwild", "our-direwild", "minions")
        assert card["attack"] == 11 and card["level"] == 2 and card["hp"] == 3
        assert card["hit_effects"] == [{"kind": "knockback", "amount": 2}]
        assert card["attacks_flying"] is True and "demo" not in card

    def test_a_card_starts_from_a_shipped_card_by_name(self) -> None:
        """Adding a card offers the installed shipped cards of its kind by name: a copy
        of one opens on the form, to edit and save under a name of its own."""
        self.start_app()
        workshop.new_pack("hexplore", "Ours")
        shipped = workshop.cards("hexplore", "demo", "opponents")[0]
        d = EditorDriver(self)
        d.tap("Your cards")
        d.tap(
            "Open",
            within=next(
                r
                for r in d.screen.ids.body.children
                if getattr(r, "pack_slug", "") == "hexplore/ours"
            ),
        )
        d.tap(next(b for b in d.screen.ids.body.children if b.text.startswith("Opponents (")))
        d.tap("Start from a shipped card")
        d.shoot("08-start-from")
        d.tap(shipped["name"])
        assert d.screen.page == "card" and d.screen.original is None
        d.type_text("Our Fox", "name")
        d.save()
        assert d.notice() == "Saved Our Fox.", d.notice()
        (card,) = workshop.cards("hexplore", "ours", "opponents")
        assert [a["name"] for a in card["actions"]] == [a["name"] for a in shipped["actions"]]
        assert card["id"] != shipped["id"] and "demo" not in card

    def test_a_card_with_a_problem_is_saved_as_a_draft_and_the_wizard_refuses_it(self) -> None:
        self.start_app()
        workshop.new_pack("kradia", "Ours")
        d = EditorDriver(self)
        d.tap("Your cards")
        d.tap(
            "Open",
            within=next(
                r
                for r in self.app.screen("packs").ids.body.children
                if getattr(r, "pack_slug", "") == "kradia/ours"
            ),
        )
        d.tap("Bosses (0)")
        d.tap("New boss")
        d.type_text("Half Done", "name")
        assert d.notice() == "", d.notice()  # the template's boss is a whole one
        d.number(30, "hp")  # more HP than its Attack dice cover
        assert "dice" in d.notice(), d.notice()
        d.save()
        assert "draft" in d.notice()
        assert workshop.pack_info("kradia", "ours").draft
        d.tap("Back")
        d.tap("Back")
        d.shoot("07-draft")
        d.tap("Back")
        d.tap("New game")
        d.tap("Kradia: Wild Hunt Festival")
        new = self.app.screen("new")
        assert any("a draft" in getattr(w, "text", "") for w in new.ids.packs.children)
        assert "ours" not in new.chosen_packs()


class TestBoardsOpenTheBoardEditor(AppTestCase):
    def test_a_direwild_board_is_drawn_in_the_board_editor_and_saved_to_the_pack(self) -> None:
        self.start_app()
        workshop.new_pack("direwild", "Ours", from_pack="demo")
        board = workshop.cards("direwild", "ours", "boards")[0]
        d = EditorDriver(self)
        d.tap("Your cards")
        d.tap(
            "Open",
            within=next(
                r
                for r in d.screen.ids.body.children
                if getattr(r, "pack_slug", "") == "direwild/ours"
            ),
        )
        d.tap(next(b for b in d.screen.ids.body.children if b.text.startswith("Boards (")))
        d.tap(board["name"])
        d.tap("Draw it on the board")
        assert self.app.root.current == "own_editor"
        editor = self.app.screen("own_editor").children[0].children[0]
        editor.edit(editor.draft.set_altar, "A1")  # one edit, as a tap on A1 makes it
        d.tap("Save board", within=editor)
        d.shoot("board-editor-from-pack")
        assert editor.status.startswith("Saved") or "Not saved" in editor.status
        saved = workshop.cards("direwild", "ours", "boards")
        assert [b["altar"] for b in saved if b["id"] == board["id"]] == ["A1"]
        d.tap("Back to the cards")
        assert self.app.root.current == "packs" and d.screen.page == "cards"
