"""Every HEXplore command, declared in one table grouped by the phase of the Game Turn it
belongs to.  The rules themselves live in the rule-area modules named beside each."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

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
HexCommand = Callable[[Decision, Any, Chance, HexContent], None]


def typed(fn: HexCommand) -> CommandFn:
    """A rule that reads the packs through HEXplore's typed view of them.  `wraps` keeps the
    rule reachable behind the wrapper, so the core reads the rule's own Struct of details
    and converts them before it runs (`Commands.run`)."""

    @functools.wraps(fn)
    def run(d: Decision, args: CommandArgs, chance: Chance, content: Content) -> None:
        fn(d, args, chance, HexContent.of(content))

    return run


PHASES: dict[str, dict[str, HexCommand]] = {
    # before the game begins (setting_out.py)
    "set-up": {
        "search_starting_gear": search_starting_gear,
        "quick_play_power_ups": quick_play_power_ups,
        "place_acropolis": place_acropolis,
        "roll_starting_location": roll_starting_location,
        "take_starting_bonus": take_starting_bonus,
    },
    # 1. Movement: a Wander or Roam a card or a failed Navigate calls for
    "movement": {"wander": wander, "roam": roam},
    # 2. the Skill phase (skills.py)
    "skills": {"roll_skills": roll_skills, "end_skill_phase": end_skill_phase},
    # 3. the Circumstance (circumstance.py)
    "circumstance": {
        "roll_circumstance": roll_circumstance,
        "settle_circumstance": settle_circumstance,
    },
    # combat, in any phase: start (combat.py), declare (declare.py), the opponent's
    # action (opponent.py), the Resolution phase (resolve.py)
    "combat": {
        "start_combat": start_combat,
        "add_opponent": add_opponent,
        "declare": declare,
        "opponent_action": opponent_action,
        "resolve_round": resolve_round,
        "give_single_reward": give_single_reward,
        "sustain": sustain,
    },
    # 5. the Magi phase and the Fate Tracker (fate.py)
    "magi": {
        "end_game_turn": end_game_turn,
        "fate_tracker_symbol": fate_tracker_symbol,
        "defeat_sentinel": defeat_sentinel,
    },
    # whenever a card, an item or the group says so
    "any time": {
        "gain": gain_found,
        "inflict": inflict_condition,
        "cure": cure_condition,
        "raise_difficulty": raise_difficulty,
        "heal": heal,
        "revive": revive,
        "teleport": teleport,
        "gear_upgrade": gear_upgrade,
        "buy_gear_upgrade": buy_gear_upgrade,
        "gain_workshop_supplies": gain_workshop_supplies,
        "rank_up": rank_up,
        "join_ally": join_ally,
        "gain_relic": gain_relic,
        "wield_relic": wield_relic,
        "ally_leaves": ally_leaves,
    },
}

COMMANDS: Commands[HexploreState] = Commands(
    {phase: {name: typed(fn) for name, fn in cmds.items()} for phase, cmds in PHASES.items()}
)
