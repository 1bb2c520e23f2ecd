"""Every HEXplore command, declared in one table grouped by the phase of the Game Turn it
belongs to.  The rules themselves live in the rule-area modules named beside each."""

from __future__ import annotations

from companion.core.tables import Commands
from companion.games.hexplore.circumstance import roll_circumstance, settle_circumstance
from companion.games.hexplore.combat import (
    cure_condition,
    inflict_condition,
    raise_difficulty,
    start_combat,
)
from companion.games.hexplore.declare import declare
from companion.games.hexplore.fate import defeat_sentinel, end_game_turn, fate_tracker_symbol
from companion.games.hexplore.opponent import opponent_action
from companion.games.hexplore.resolve import resolve_round
from companion.games.hexplore.skills import (
    end_skill_phase,
    gain_found,
    roam,
    roll_skills,
    wander,
)
from companion.games.hexplore.state import HexploreState

COMMANDS: Commands[HexploreState] = Commands(
    {
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
            "declare": declare,
            "opponent_action": opponent_action,
            "resolve_round": resolve_round,
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
        },
    }
)
