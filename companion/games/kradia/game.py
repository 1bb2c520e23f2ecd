"""Kradia: Wild Hunt Festival.  The app runs the boss (HP track, dice, chart, overdrive,
rage), the heroes' HP, Mana, ailments and states, the battlefield, and story mode."""

from __future__ import annotations

from typing import Any

from companion.core.rules import Action, Chance, Decision, GameBase, RuleError
from companion.games.kradia import actions, battlefield, boss, story
from companion.games.kradia.content_check import validate_content
from companion.games.kradia.effects import can_be_hit
from companion.games.kradia.events import KradiaEvents
from companion.games.kradia.legal import legal_actions
from companion.games.kradia.schema import CONTENT_KINDS
from companion.games.kradia.setup import initial_state
from companion.games.kradia.state import KradiaState
from companion.games.kradia.turns import begin_next_turn


class KradiaGame(KradiaEvents, GameBase):
    id = "kradia"
    title = "Kradia: Wild Hunt Festival"
    state_type = KradiaState
    content_kinds = CONTENT_KINDS
    card_kinds = ("items", "retainers", "battlefield_cards")
    # The app's set-up wizard (plain data, see companion/ui/screens/newgame.py); every other
    # option has a default read from the packs: the first four heroes (heroes), each Level 3
    # card's first side (level3), the first story sequence, boss, level, start_player,
    # items, retainers and battlefield.
    setup_options = [
        {
            "name": "mode",
            "label": "Mode",
            "choices": ["story", "challenge"],
            "default": "story",
            "choice_labels": {"story": "Story: Level 1 to 4", "challenge": "Challenge: Level 4"},
        },
        {"name": "sequence", "label": "Story boss sequence", "choices": [1, 2], "default": 1},
        {"name": "players", "label": "Players at the table", "min": 1, "max": 4, "default": 4},
    ]

    def initial_state(self, options: dict[str, Any], content: Any) -> KradiaState:
        return initial_state(dict(options or {}), content)

    def legal_actions(self, state: KradiaState, content: Any) -> list[Action]:
        return legal_actions(state, content)

    def validate_content(self, content: Any) -> list[tuple[str, str]]:
        return validate_content(content)

    def summary(self, state: KradiaState) -> str:
        boss = state.boss.id.rsplit("/", 1)[-1].replace("-", " ").title()
        mode = "Challenge" if state.mode == "challenge" else f"Level {state.level}"
        tail = {"won": ", won", "lost": ", lost", "boss_defeated": ", boss defeated"}
        return f"{mode} vs {boss}, round {state.round}{tail.get(state.outcome or '', '')}"

    # -- the round -------------------------------------------------------------------------

    def cmd_start_round(
        self, d: Decision, args: dict[str, Any], chance: Chance, content: Any
    ) -> None:
        s = d.state
        if s.outcome:
            raise RuleError(
                "the battle is over" + (": Resupply first" if s.outcome == "boss_defeated" else "")
            )
        if s.phase != "battlefield":
            raise RuleError(f"the round is under way (now: {s.phase} phase)")
        d.emit("RoundStarted", round=s.round + 1)
        battlefield.select(d, args, chance, content)
        if s.outcome:
            return
        d.emit("PhaseChanged", phase="heroes")
        begin_next_turn(d, content)

    def cmd_basic_attack(self, d, args, chance, content) -> None:
        actions.basic_attack(d, args, chance, content)

    def cmd_charge_attack(self, d, args, chance, content) -> None:
        actions.charge_attack(d, args, chance, content)

    def cmd_skill(self, d, args, chance, content) -> None:
        actions.skill(d, args, chance, content)

    def cmd_use_item(self, d, args, chance, content) -> None:
        actions.use_item(d, args, chance, content)

    def cmd_pass(self, d, args, chance, content) -> None:
        actions.pass_turn(d, args, chance, content)

    def cmd_end_turn(self, d, args, chance, content) -> None:
        actions.end_turn(d, args, chance, content)

    def cmd_summon_retainer(self, d, args, chance, content) -> None:
        actions.summon_retainer(d, args, chance, content)

    def cmd_boss_attack(self, d, args, chance, content) -> None:
        boss.attack(d, chance, content)

    def cmd_end_round(
        self, d: Decision, args: dict[str, Any], chance: Chance, content: Any
    ) -> None:
        s = d.state
        if s.outcome:
            raise RuleError("the battle is over")
        if s.phase != "end":
            raise RuleError(f"the round ends after the boss's attack (now: {s.phase} phase)")
        i = s.order.index(s.start_player)
        clockwise = s.order[i + 1 :] + s.order[: i + 1]
        nxt = next((h for h in clockwise if can_be_hit(s, h)), s.start_player)
        d.emit("StartPlayerPassed", hero=nxt)
        d.emit("PhaseChanged", phase="battlefield")

    def cmd_resupply(self, d, args, chance, content) -> None:
        story.resupply(d, args, chance, content)
