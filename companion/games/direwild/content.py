"""Direwild's content, typed: each kind read as the Struct its schema declares.

The core's `Content` holds items of every game as `Any`; reading them through these getters
gives the rules real types (a `Board`, a `Minion`) for the type checker to hold them to.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar

from companion.core.rules import RuleError
from companion.games.direwild.schema import AiCard, Board, Karn, KarnCard, Minion

if TYPE_CHECKING:
    from companion.content.pack import Content

T = TypeVar("T")


def _typed(item: object, kind: type[T]) -> T:
    assert isinstance(item, kind), f"{item!r} is not a {kind.__name__}"
    return item


def board(content: Content, board_id: str) -> Board:
    return _typed(content.get("boards", board_id), Board)


def boards(content: Content) -> list[Board]:
    return [_typed(b, Board) for b in content.all("boards")]


def minion(content: Content, minion_id: str) -> Minion | None:
    found = content.find("minions", minion_id)
    return None if found is None else _typed(found, Minion)


def minions(content: Content) -> list[Minion]:
    return [_typed(m, Minion) for m in content.all("minions")]


def ai_card(content: Content, card_id: str) -> AiCard:
    return _typed(content.get("ai_cards", card_id), AiCard)


def ai_cards(content: Content) -> list[AiCard]:
    return [_typed(c, AiCard) for c in content.all("ai_cards")]


def karn(content: Content) -> Karn:
    """Karn's stats: the first Karn in the installed packs."""
    items = content.all("karn")
    if not items:
        raise RuleError("the content has no Karn (kind 'karn')")
    return _typed(items[0], Karn)


def karn_card(content: Content, card_id: str) -> KarnCard:
    return _typed(content.get("karn_cards", card_id), KarnCard)


def karn_cards(content: Content) -> list[KarnCard]:
    return [_typed(c, KarnCard) for c in content.all("karn_cards")]
