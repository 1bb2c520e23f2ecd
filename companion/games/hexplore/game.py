"""The HEXplore It game object: the rule areas mixed onto the core's `GameBase`."""

from __future__ import annotations

from typing import Any

from companion.content.pack import Content
from companion.core.rules import Action, Chance, Command, Event, GameBase, RuleError
from companion.games.hexplore import content as content_mod
from companion.games.hexplore.combat import CombatRules
from companion.games.hexplore.common import CommonRules, in_combat
from companion.games.hexplore.declare import DeclareRules
from companion.games.hexplore.fate import FateRules
from companion.games.hexplore.hexcontent import HexContent
from companion.games.hexplore.legal import legal_actions
from companion.games.hexplore.opponent import OpponentRules
from companion.games.hexplore.options import SETUP_OPTIONS
from companion.games.hexplore.resolve import ResolveRules
from companion.games.hexplore.rewards import RewardEvents
from companion.games.hexplore.setup import initial_state
from companion.games.hexplore.skills import SkillRules
from companion.games.hexplore.state import HexploreState


class HexploreGame(
    FateRules,
    SkillRules,
    CombatRules,
    DeclareRules,
    OpponentRules,
    ResolveRules,
    RewardEvents,
    CommonRules,
    GameBase,
):
    id = "hexplore"
    title = "HEXplore It: The Forests of Adrimon"
    version = "1"
    state_type = HexploreState
    content_kinds = content_mod.CONTENT_KINDS
    card_kinds = ("opponents", "circumstances")
    setup_options = SETUP_OPTIONS

    def initial_state(self, options: dict[str, Any], content: Content) -> HexploreState:
        return initial_state(options, HexContent.of(content))

    def decide(
        self, state: HexploreState, command: Command, chance: Chance, content: Content
    ) -> list[Event]:
        """Once the heroes have won or lost, the table has nothing left to tell the rules."""
        if state.outcome:
            raise RuleError(f"the game is over (the heroes {state.outcome})")
        return super().decide(state, command, chance, HexContent.of(content))

    def legal_actions(self, state: HexploreState, content: Content) -> list[Action]:
        return legal_actions(state, HexContent.of(content))

    def validate_content(self, content: Any):
        return content_mod.validate(content)

    def summary(self, state: HexploreState) -> str:
        text = f"Turn {state.turn}, Fate Cycle {state.fate.cycle} ({state.fate.tracker})"
        if in_combat(state):
            text += f", fighting {state.combat.opponent.name} (round {state.combat.round})"
        if state.outcome:
            text += f", {state.outcome}"
        return text
