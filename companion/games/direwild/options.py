"""The new-game wizard's choices for Direwild, as plain data (the app turns them into
touch choices; `setup.initial_state` still checks whatever it is given).  With no board
chosen, each chapter is played on the first board of its land in the packs, or on the
group's own board of that land if they drew one (`complete_setup`, recorded when the game
starts); the boards on offer are the packs' own, by name and land, the group's first
(`setup_options_for`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from companion.content.offer import new_of_own, own_first
from companion.games.direwild import content as typed
from companion.games.direwild.chapters import LANDS
from companion.games.direwild.schema import Board
from companion.games.direwild.setup import AI_MODES, DEFAULT_PLAYERS
from companion.games.direwild.state import CLANS, HOUSE_RULES
from companion.jsontypes import JsonObject, JsonValue

if TYPE_CHECKING:
    from companion.content.pack import Content

SETUP_OPTIONS: list[JsonObject] = [
    {
        "name": "players",
        "label": "Clans at the table (2 to 4)",
        "pick": list(CLANS),
        "default": list(DEFAULT_PLAYERS),
        "choice_labels": {clan: clan.capitalize() for clan in CLANS},
    },
    {
        "name": "chapter",
        "label": "Chapter",
        "choices": [1, 2, 3],
        "default": 1,
        "choice_labels": {str(n): f"Chapter {n}" for n in (1, 2, 3)},
    },
    {
        "name": "ai_deck",
        "label": "Enemy AI deck",
        "choices": list(AI_MODES),
        "default": "normal",
        "choice_labels": {mode: mode.capitalize() for mode in AI_MODES},
    },
    # House rules: passages careful players read two ways; the default is the app's reading
    # (docs/rulings/direwild.md quotes each passage).
    {
        "name": "karn_presence",
        "label": "House rule: Karn's presence drains a Fatal Wound",
        "choices": list(HOUSE_RULES["karn_presence"]),
        "default": HOUSE_RULES["karn_presence"][0],
        "choice_labels": {
            "with_heroes": "Only while a hero is on the land board",
            "always": "Whenever Karn is on the land board",
        },
    },
    {
        "name": "minion_counts",
        "label": "House rule: minions drawn by player count",
        "choices": list(HOUSE_RULES["minion_counts"]),
        "default": HOUSE_RULES["minion_counts"][0],
        "choice_labels": {
            "printed": "As printed (2 players: two level 4s in chapter 2)",
            "one_per_player": "One minion per player in every chapter",
        },
    },
    {
        "name": "treasure_monster_loss",
        "label": "House rule: losing to a Treasure Monster",
        "choices": list(HOUSE_RULES["treasure_monster_loss"]),
        "default": HOUSE_RULES["treasure_monster_loss"][0],
        "choice_labels": {
            "fatal_wound": "Costs a Fatal Wound, like any lost battle",
            "no_wound": "Costs nothing but the turn's battle",
        },
    },
]


def _board_name(board: Board) -> str:
    """A board by its name, with its land unless the name says it already."""
    name = board.name or board.slug
    land = board.land.capitalize()
    return name if land.casefold() in name.casefold() else f"{name} ({land})"


def own_board(content: Content, chapter: object) -> str | None:
    """The group's own board (new, not a copy over a shipped one) of the chapter's land."""
    land = LANDS.get(chapter) if isinstance(chapter, int) else None
    for board in typed.boards(content):
        if board.land == land and new_of_own(content, board.id):
            return board.id
    return None


def complete_setup(options: Mapping[str, JsonValue], content: Content) -> JsonObject:
    """The options a new game records: with no board chosen, the group's own board of
    the chapter's land when they have one (else the rules take the land's first)."""
    out: JsonObject = dict(options)
    if out.get("board") is None:
        board = own_board(content, out.get("chapter", 1))
        if board is not None:
            out["board"] = board
    return out


def setup_options_for(content: Content) -> list[JsonObject]:
    """The wizard's choices for the packs loaded: the clans, chapter, AI deck, and a board
    from the packs (by the name on the board file and its land, the group's first), or
    the chapter's own."""
    boards = own_first(content, typed.boards(content))
    yours = any(new_of_own(content, b.id) for b in boards)
    board: JsonObject = {
        "name": "board",
        "label": "Board",
        "choices": [None, *(b.id for b in boards)],
        "default": None,
        "choice_labels": {
            "None": "The chapter's land (your board first)" if yours else "The chapter's own",
            **{b.id: _board_name(b) for b in boards},
        },
    }
    return [*SETUP_OPTIONS, board]
