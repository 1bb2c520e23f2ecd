"""Typed reading of the loaded Kradia content: each getter returns its card's own type, so
the rules are checked against the schema (`schema.py`) instead of reading untyped items."""

from __future__ import annotations

from typing import TYPE_CHECKING

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


def hero(content: Content, card_id: str) -> Hero:
    return content.get_as("heroes", card_id, Hero)


def boss(content: Content, boss_id: str) -> Boss:
    return content.get_as("bosses", boss_id, Boss)


def item(content: Content, item_id: str) -> ItemCard:
    return content.get_as("items", item_id, ItemCard)


def retainer(content: Content, retainer_id: str) -> Retainer:
    return content.get_as("retainers", retainer_id, Retainer)


def board(content: Content, board_id: str) -> BattlefieldBoard:
    return content.get_as("battlefield_boards", board_id, BattlefieldBoard)


def battlefield_card(content: Content, card_id: str) -> BattlefieldCard:
    return content.get_as("battlefield_cards", card_id, BattlefieldCard)


def sequence(content: Content, sequence_id: str) -> StorySequence:
    return content.get_as("story_sequences", sequence_id, StorySequence)


def bosses(content: Content) -> list[Boss]:
    """Every boss, in file order."""
    return [boss(content, i) for i in content.ids("bosses")]


def sequences(content: Content) -> list[StorySequence]:
    return [sequence(content, i) for i in content.ids("story_sequences")]
