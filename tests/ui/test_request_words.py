"""What the Dice and Cards panels say is asked for: names, never ids (issue 12)."""

from __future__ import annotations

from companion.core.rules import Request
from companion.ui.panels.dice import request_words


def test_a_draw_with_no_name_from_the_rules_says_draw_a_card() -> None:
    request = Request("draw", "the battlefield", "table", deck="battlefield")
    assert request_words(request) == "Draw a card\nthe battlefield"


def test_a_draw_the_rules_name_a_drawer_for_says_who() -> None:
    request = Request("draw", "a retainer", "oakla", deck="retainers", who="Oakla")
    assert request_words(request) == "Oakla: draw a card\na retainer"
