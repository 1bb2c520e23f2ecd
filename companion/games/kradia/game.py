"""Kradia: Wild Hunt Festival.  The app runs the boss (HP track, dice, chart, overdrive,
rage), the heroes' HP, Mana, ailments and states, the battlefield, and story mode."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from companion.core.game import GameBase
from companion.core.rules import Action, Request
from companion.games.kradia import headlines
from companion.games.kradia.commands import COMMANDS
from companion.games.kradia.events import EVENTS
from companion.games.kradia.legal import legal_actions
from companion.games.kradia.options import complete_setup, from_wizard, setup_options_for
from companion.games.kradia.schema import CONTENT_KINDS, Boss, validate_content
from companion.games.kradia.setup import initial_state
from companion.games.kradia.state import KradiaState
from companion.games.kradia.words import FIELD_WORDS, VALUE_WORDS
from companion.jsontypes import JsonObject, JsonValue

if TYPE_CHECKING:
    from companion.content.pack import Content


class KradiaGame(GameBase):
    id = "kradia"
    title = "Kradia: Wild Hunt Festival"
    state_type = KradiaState
    commands = COMMANDS
    events = EVENTS
    content_kinds = CONTENT_KINDS
    card_kinds = ("items", "retainers", "battlefield_cards")
    # the cards whose numbers the table checks against its own as they come into play
    played_kinds = ("bosses", "battlefield_cards", "battlefield_boards")
    # the rulebook's words for the state's own words (a phase): screens showing the state
    value_words = VALUE_WORDS
    field_words = FIELD_WORDS
    # an outcome ends the battle; a story boss defeated leads to the Resupply
    ends = "the battle"
    after_outcome = {"boss_defeated": ("resupply", "Resupply first")}
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

    def setup_options_for(self, content: Content) -> list[JsonObject]:
        """The wizard's choices for the packs chosen: their heroes, story sequences,
        Challenge bosses and Level 3 sides by name (options.py)."""
        return setup_options_for(content)

    def complete_setup(self, options: Mapping[str, JsonValue], content: Content) -> JsonObject:
        """The options a new game records: a story game nobody chose a boss for faces
        the group's own Level 1 boss, if they made one (options.py)."""
        return complete_setup(options, content)

    def initial_state(self, options: Mapping[str, object], content: Content) -> KradiaState:
        return initial_state(from_wizard(dict(options or {})), content)

    def faced(self, state: KradiaState) -> list[str]:
        """The cards a new game starts facing: the boss and its battlefield board."""
        return [state.boss.id, state.battlefield.board]

    def card_checked(self, state: KradiaState, before: object, card: object) -> None:
        """A boss's HP checked against the printed card: the track follows the card, the
        damage already dealt kept."""
        if isinstance(card, Boss) and card.id == state.boss.id:
            dealt = state.boss.max_hp - state.boss.hp
            state.boss.max_hp = card.hp
            state.boss.hp = max(card.hp - dealt, 0)

    def answer_words(
        self, request: Request, values: object, names: Mapping[str, str]
    ) -> str | None:
        """A Battlefield card revealed by the Start Player, in the rulebook's words."""
        return headlines.answer_words(request, values, names)

    def legal_actions(self, state: KradiaState, content: Content) -> list[Action]:
        return legal_actions(state, content)

    def validate_content(self, content: Content) -> list[tuple[str, str]]:
        return validate_content(content)

    def outcome(self, state: KradiaState) -> str | None:
        """A story boss defeated (the next level follows), the game won, or lost."""
        return state.outcome

    def summary(self, state: KradiaState) -> str:
        boss = state.boss.id.rsplit("/", 1)[-1].replace("-", " ").title()
        mode = "Challenge" if state.mode == "challenge" else f"Level {state.level}"
        tail = {"won": ", won", "lost": ", lost", "boss_defeated": ", boss defeated"}
        return f"{mode} vs {boss}, round {state.round}{tail.get(state.outcome or '', '')}"
