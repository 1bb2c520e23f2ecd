"""Every Direwild command, declared by the part of the game it belongs to.

The functions live in the rule areas; this table is the one place that says what the game
can be told to do (the core dispatches through it, never by looking names up).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.core.rules import Chance
from companion.core.tables import Commands, Decision
from companion.games.direwild import battle, chapters, heroes, phase, rounds
from companion.games.direwild.args import CharmRollArgs, SetTurnOrderArgs
from companion.games.direwild.state import DirewildState

if TYPE_CHECKING:
    from companion.content.pack import Content


def set_turn_order(d: Decision, args: SetTurnOrderArgs, chance: Chance, content: Content) -> None:
    heroes.set_turn_order(d, args)


def charm_roll(d: Decision, args: CharmRollArgs, chance: Chance, content: Content) -> None:
    chapters.charm_roll(d, args, chance)


COMMANDS: Commands[DirewildState] = Commands(
    {
        "chapter": {
            "charm_roll": charm_roll,
            "start_chapter": chapters.start_chapter,
            "unlock": heroes.unlock,
        },
        "round": {"start_round": rounds.start_round, "end_round": rounds.end_round},
        "game": {"reveal_ai_card": phase.reveal},
        "adventure": {
            "set_turn_order": set_turn_order,
            "move_hero": heroes.move,
            "resolve_battle": battle.resolve,
            "treasure_monster": battle.treasure_monster,
            "place_hero": heroes.place,
            "target_enemy": heroes.target_enemy,
            "take_wound": heroes.take_wound,
            "end_turn": heroes.end_turn,
        },
    }
)
