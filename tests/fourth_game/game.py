"""The Dash game object: wiring only, each hook handed to the file that holds its part."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.core.game import GameBase
from companion.core.rules import Action
from tests.fourth_game import headlines, legal, setup
from tests.fourth_game.commands import COMMANDS
from tests.fourth_game.events import EVENTS
from tests.fourth_game.schema import CONTENT_KINDS, validate_content
from tests.fourth_game.state import DashState
from tests.fourth_game.words import FIELD_WORDS, VALUE_WORDS

if TYPE_CHECKING:
    from companion.content.pack import Content

_ = headlines  # registers the news on EVENTS


class Dash(GameBase):
    id = "dash"
    title = "Dash"
    state_type = DashState
    content_kinds = CONTENT_KINDS
    commands = COMMANDS
    events = EVENTS
    setup_options = setup.SETUP_OPTIONS
    field_words = FIELD_WORDS
    value_words = VALUE_WORDS
    ends = "the race"

    def initial_state(self, options: dict[str, Any], content: Content) -> DashState:
        return setup.initial_state(options, content)

    def legal_actions(self, state: DashState, content: Content) -> list[Action]:
        return legal.legal_actions(state, content)

    def validate_content(self, content: Content) -> list[tuple[str, str]]:
        return validate_content(content)

    def outcome(self, state: DashState) -> str | None:
        return state.outcome

    def summary(self, state: DashState) -> str:
        lead = max(state.square.values())
        return f"Leader on square {lead} of {state.length}"


GAME = Dash()
