"""Direwild's content, typed: each kind read as the Struct its schema declares.

The core's `Content` holds items of every game without their types; reading them through these getters
gives the rules real types (a `Board`, a `Minion`) for the type checker to hold them to.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.core.rules import RuleError
from companion.games.direwild.schema import AiCard, Board, Karn, KarnCard, Minion

if TYPE_CHECKING:
    from companion.content.pack import Content


def board(content: Content, board_id: str) -> Board:
    return content.get_as("boards", board_id, Board)


def boards(content: Content) -> list[Board]:
    return content.all_as("boards", Board)


def minion(content: Content, minion_id: str) -> Minion | None:
    if content.find("minions", minion_id) is None:
        return None
    return content.get_as("minions", minion_id, Minion)


def minions(content: Content) -> list[Minion]:
    return content.all_as("minions", Minion)


def ai_card(content: Content, card_id: str) -> AiCard:
    return content.get_as("ai_cards", card_id, AiCard)


def ai_cards(content: Content) -> list[AiCard]:
    return content.all_as("ai_cards", AiCard)


def karn(content: Content) -> Karn:
    """Karn's stats: the first Karn in the installed packs."""
    items = content.all_as("karn", Karn)
    if not items:
        raise RuleError("the content has no Karn (kind 'karn')")
    return items[0]


def karn_card(content: Content, card_id: str) -> KarnCard:
    return content.get_as("karn_cards", card_id, KarnCard)


def karn_cards(content: Content) -> list[KarnCard]:
    return content.all_as("karn_cards", KarnCard)
