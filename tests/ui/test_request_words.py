"""What the Dice and Cards panels say is asked for: names, never ids (issue 12)."""

from __future__ import annotations

from companion.core.rules import Request, request_words


def test_a_draw_with_no_name_from_the_rules_says_draw_a_card() -> None:
    request = Request("draw", "the battlefield", "table", deck="battlefield")
    assert request_words(request) == "Draw a card\nthe battlefield"


def test_a_draw_the_rules_name_a_drawer_for_says_who() -> None:
    request = Request("draw", "a retainer", "oakla", deck="retainers", who="Oakla")
    assert request_words(request) == "Oakla: draw a card\na retainer"


def test_a_choice_is_a_pick_not_a_card_and_survives_the_save() -> None:
    from companion.core.rules import Chance, ChanceNeeded

    chance = Chance([])
    try:
        chance.choose(("keep the 1", "take a wound and reroll"), why="Reflexes?", role="reflexes")
    except ChanceNeeded as asked:
        request = asked.request
    else:
        raise AssertionError("choose asked nothing")
    assert request.choice and request.options == ("keep the 1", "take a wound and reroll")
    assert request_words(request) == "Choose\nReflexes?"
    assert request.describe() == "choose (Reflexes?)"
    assert Request.from_json(request.to_json()) == request
    plain = Request("draw", "a retainer", "oakla", deck="retainers")
    assert "choice" not in plain.to_json()  # what older saves hold stays as it was


def test_the_cards_panel_asks_in_two_lines_what_to_show_then_how() -> None:
    from companion.ui.panels.scanner import draw_prompt

    flip = Request("draw", "flip the top Enemy AI card", "stormbringer", deck="ai")
    assert draw_prompt(flip) == ("Flip the top Enemy AI card\nHold it up to the camera, or tap it:")
    named = Request("draw", "Resupply: draw 1 Item card", "oakla", deck="items", who="Oakla")
    assert draw_prompt(named).split("\n")[0] == "Oakla: Resupply: draw 1 Item card"
