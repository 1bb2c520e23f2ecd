"""Every HEXplore command, declared in one table grouped by the phase of the Game Turn it
belongs to.  The rules themselves live in the rule-area modules named beside each."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TypeVar

from companion.content.pack import Content
from companion.core.rules import Chance
from companion.core.tables import CommandArgs, CommandFn, Commands, Decision
from companion.games.hexplore.allies import ally_leaves, join_ally
from companion.games.hexplore.circumstance import roll_circumstance, settle_circumstance
from companion.games.hexplore.combat import (
    add_opponent,
    cure_condition,
    inflict_condition,
    raise_difficulty,
    start_combat,
)
from companion.games.hexplore.content import HexContent
from companion.games.hexplore.declare import declare
from companion.games.hexplore.fate import defeat_sentinel, end_game_turn, fate_tracker_symbol
from companion.games.hexplore.keywords import heal, revive, sustain, teleport
from companion.games.hexplore.levelling import (
    buy_gear_upgrade,
    gain_workshop_supplies,
    gear_upgrade,
    rank_up,
)
from companion.games.hexplore.opponent import opponent_action
from companion.games.hexplore.relics import gain_relic, wield_relic
from companion.games.hexplore.resolve import resolve_round
from companion.games.hexplore.rewards import give_single_reward
from companion.games.hexplore.setting_out import (
    place_acropolis,
    quick_play_power_ups,
    roll_starting_location,
    search_starting_gear,
    take_starting_bonus,
)
from companion.games.hexplore.skills import (
    end_skill_phase,
    gain_found,
    roam,
    roll_skills,
    wander,
)
from companion.games.hexplore.state import HexploreState

# A rule takes its command's own Struct of details (args.py); the table holds them all.
Details = TypeVar("Details", bound=CommandArgs)


def typed(fn: Callable[[Decision, Details, Chance, HexContent], None]) -> CommandFn:
    """A rule that reads the packs through HEXplore's typed view of them.  `wraps` keeps the
    rule reachable behind the wrapper, so the core reads the rule's own Struct of details
    and converts them before it runs (`Commands.run`)."""

    @functools.wraps(fn)
    def run(d: Decision, args: Details, chance: Chance, content: Content) -> None:
        fn(d, args, chance, HexContent.of(content))

    return run


PHASES: dict[str, dict[str, CommandFn]] = {
    # before the game begins (setting_out.py)
    "set-up": {
        "search_starting_gear": typed(search_starting_gear),
        "quick_play_power_ups": typed(quick_play_power_ups),
        "place_acropolis": typed(place_acropolis),
        "roll_starting_location": typed(roll_starting_location),
        "take_starting_bonus": typed(take_starting_bonus),
    },
    # 1. Movement: a Wander or Roam a card or a failed Navigate calls for
    "movement": {"wander": typed(wander), "roam": typed(roam)},
    # 2. the Skill phase (skills.py)
    "skills": {"roll_skills": typed(roll_skills), "end_skill_phase": typed(end_skill_phase)},
    # 3. the Circumstance (circumstance.py)
    "circumstance": {
        "roll_circumstance": typed(roll_circumstance),
        "settle_circumstance": typed(settle_circumstance),
    },
    # combat, in any phase: start (combat.py), declare (declare.py), the opponent's
    # action (opponent.py), the Resolution phase (resolve.py)
    "combat": {
        "start_combat": typed(start_combat),
        "add_opponent": typed(add_opponent),
        "declare": typed(declare),
        "opponent_action": typed(opponent_action),
        "resolve_round": typed(resolve_round),
        "give_single_reward": typed(give_single_reward),
        "sustain": typed(sustain),
    },
    # 5. the Magi phase and the Fate Tracker (fate.py)
    "magi": {
        "end_game_turn": typed(end_game_turn),
        "fate_tracker_symbol": typed(fate_tracker_symbol),
        "defeat_sentinel": typed(defeat_sentinel),
    },
    # whenever a card, an item or the group says so
    "any time": {
        "gain": typed(gain_found),
        "inflict": typed(inflict_condition),
        "cure": typed(cure_condition),
        "raise_difficulty": typed(raise_difficulty),
        "heal": typed(heal),
        "revive": typed(revive),
        "teleport": typed(teleport),
        "gear_upgrade": typed(gear_upgrade),
        "buy_gear_upgrade": typed(buy_gear_upgrade),
        "gain_workshop_supplies": typed(gain_workshop_supplies),
        "rank_up": typed(rank_up),
        "join_ally": typed(join_ally),
        "gain_relic": typed(gain_relic),
        "wield_relic": typed(wield_relic),
        "ally_leaves": typed(ally_leaves),
    },
}

COMMANDS: Commands[HexploreState] = Commands(PHASES)
