"""The Direwild rules object, assembled: the command table, the typed events, what is legal
now, set-up, and the checks a content pack must pass (schema.py)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from companion.core.game import GameBase
from companion.core.headline import Headline
from companion.core.rules import Action, Event, Request
from companion.games.direwild import headlines, legal, setup
from companion.games.direwild.commands import COMMANDS
from companion.games.direwild.events import EVENTS, fold
from companion.games.direwild.options import SETUP_OPTIONS, complete_setup, setup_options_for
from companion.games.direwild.schema import CONTENT_KINDS, validate_content
from companion.games.direwild.state import DirewildState
from companion.games.direwild.words import FIELD_WORDS, VALUE_WORDS
from companion.jsontypes import JsonObject, JsonValue

if TYPE_CHECKING:
    from companion.content.pack import Content


class Direwild(GameBase):
    id = "direwild"
    title = "Direwild"
    state_type = DirewildState
    content_kinds = CONTENT_KINDS
    commands = COMMANDS
    events = EVENTS
    card_kinds = ("minions", "ai_cards", "karn_cards")
    # the cards whose numbers the table checks against its own as they come into play
    played_kinds = ("minions", "ai_cards", "karn_cards", "karn")
    # An Enemy AI card shown to the camera with nothing waiting is the card flipped for the
    # Game Phase (docs/cards.md): the scanner runs this command with it.
    card_commands = {"ai_cards": ("reveal_ai_card", "card")}
    setup_options = SETUP_OPTIONS
    # an outcome ends the chapter; a chapter won (not the last) leads to the next one
    ends = "the chapter"
    after_outcome = {"chapter_won": ("start_chapter", "start the next chapter")}
    # the rulebook's words for the state's own words (a phase): screens showing the state
    value_words = VALUE_WORDS
    field_words = FIELD_WORDS

    # -- set-up and summary -------------------------------------------------------------

    def initial_state(self, options: Mapping[str, object], content: Content) -> DirewildState:
        return setup.initial_state(dict(options or {}), content)

    def setup_options_for(self, content: Content) -> list[JsonObject]:
        """The wizard's choices, with the boards of the packs chosen."""
        return setup_options_for(content)

    def complete_setup(self, options: Mapping[str, JsonValue], content: Content) -> JsonObject:
        """The options a new game records: the group's own board for the chapter's land,
        if they drew one and chose no other (options.py)."""
        return complete_setup(options, content)

    def summary(self, state: DirewildState) -> str:
        text = f"Chapter {state.chapter}, round {state.round}"
        if state.outcome:
            text += f" ({state.outcome.replace('_', ' ')})"
        return text

    def outcome(self, state: DirewildState) -> str | None:
        """A chapter won, the campaign won, or lost (state.py)."""
        return state.outcome

    def validate_content(self, content: Content) -> list[tuple[str, str]]:
        return validate_content(content)

    def evolve(self, state: DirewildState, event: Event) -> None:
        fold(state, event)

    def legal_actions(self, state: DirewildState, content: Content) -> list[Action]:
        return legal.legal_actions(state, content)

    def answer_words(
        self, request: Request, values: object, names: Mapping[str, str]
    ) -> str | None:
        """A card drawn in the rules' words: the Enemy AI card is the enemies', flipped by
        the first player ("The 1st player flips the top card in the Enemy AI deck"); a
        minion is drawn for the table.  Rolls keep the core's words."""
        return headlines.answer_words(request, values, names)

    def answer_headline(
        self, request: Request, values: object, names: Mapping[str, str]
    ) -> Headline | None:
        return headlines.answer_headline(request, values, names)
