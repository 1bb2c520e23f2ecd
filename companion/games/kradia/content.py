"""Typed reading of the loaded Kradia content: each getter returns its card's own type, so
the rules are checked against the schema (`schema.py`) instead of reading `Any`."""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar

from companion.games.kradia.schema import (
    BattlefieldBoard,
    BattlefieldCard,
    Boss,
    Hero,
    ItemCard,
    Retainer,
    StorySequence,
)

if TYPE_CHECKING:
    from companion.content.pack import Content

T = TypeVar("T")


def _typed(content: Content, kind: str, item_id: str, cls: type[T]) -> T:
    card = content.get(kind, item_id)
    if not isinstance(card, cls):
        raise TypeError(f"{item_id} is a {type(card).__name__}, not a {cls.__name__}")
    return card


def hero(content: Content, card_id: str) -> Hero:
    return _typed(content, "heroes", card_id, Hero)


def boss(content: Content, boss_id: str) -> Boss:
    return _typed(content, "bosses", boss_id, Boss)


def item(content: Content, item_id: str) -> ItemCard:
    return _typed(content, "items", item_id, ItemCard)


def retainer(content: Content, retainer_id: str) -> Retainer:
    return _typed(content, "retainers", retainer_id, Retainer)


def board(content: Content, board_id: str) -> BattlefieldBoard:
    return _typed(content, "battlefield_boards", board_id, BattlefieldBoard)


def battlefield_card(content: Content, card_id: str) -> BattlefieldCard:
    return _typed(content, "battlefield_cards", card_id, BattlefieldCard)


def sequence(content: Content, sequence_id: str) -> StorySequence:
    return _typed(content, "story_sequences", sequence_id, StorySequence)


def bosses(content: Content) -> list[Boss]:
    """Every boss, in file order."""
    return [boss(content, i) for i in content.ids("bosses")]


def sequences(content: Content) -> list[StorySequence]:
    return [sequence(content, i) for i in content.ids("story_sequences")]
