"""The HEXplore It game object, assembled from its parts: the state, the typed events,
the declared commands, the legal actions and the set-up."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from companion.content.pack import Content
from companion.core.game import GameBase
from companion.core.headline import Headline
from companion.core.rules import Action, Event, Request
from companion.core.tables import named_fields
from companion.games.hexplore import headlines, schema
from companion.games.hexplore.commands import COMMANDS
from companion.games.hexplore.common import in_combat
from companion.games.hexplore.content import HexContent
from companion.games.hexplore.events import EVENTS, OpponentActed
from companion.games.hexplore.legal import legal_actions
from companion.games.hexplore.options import SETUP_OPTIONS, setup_options_for
from companion.games.hexplore.setup import initial_state
from companion.games.hexplore.state import OPPONENT, HexploreState, standing
from companion.games.hexplore.words import FIELD_WORDS, VALUE_WORDS
from companion.jsontypes import JsonObject

ORDINALS = {2: "second", 3: "third", 4: "fourth", 5: "fifth", 6: "sixth"}


class HexploreGame(GameBase):
    id = "hexplore"
    title = "HEXplore It: The Forests of Adrimon"
    state_type = HexploreState
    content_kinds = schema.CONTENT_KINDS
    card_kinds = ("opponents", "circumstances")
    # the Living Card codes printed on the game's own cards (the camera names them)
    own_codes = {
        "hexplore_living_card": "That is a HEXplore It Living Card: read it on "
        "hexploreit.com, then carry on. The app has nothing to do for it."
    }
    # the cards whose numbers the table checks against its own as they come into play
    played_kinds = ("opponents", "circumstances", "allies")
    setup_options = SETUP_OPTIONS
    # the rulebook's words for the state's own words (a phase): screens showing the state
    value_words = VALUE_WORDS
    field_words = FIELD_WORDS
    commands = COMMANDS
    events = EVENTS

    def names(self, state: HexploreState) -> dict[str, str]:
        """Heroes and allies come from the packs by id (a slug, not a name); the log and the
        result card say their names."""
        return {
            # "opponent", "opponent2" ... are roles in a combat, not cards: the log holds
            # every combat's lines, so the words cannot be today's opponents' names
            OPPONENT: "the opponent",
            **{f"{OPPONENT}{n}": f"the {word} opponent" for n, word in ORDINALS.items()},
            **{aid: ally.name for aid, ally in state.allies.items() if ally.name},
            **{hid: hero.name for hid, hero in state.heroes.items() if hero.name},
        }

    def step_names(self, state: HexploreState) -> dict[str, str]:
        """The opponents on the mat by name, for the step just taken (headlines.py)."""
        return headlines.step_names(state)

    def headline(self, event: Event, names: Mapping[str, str] | None = None) -> Headline | None:
        """The event as news (headlines.py); an opponent's action is named by who acted."""
        if event.type == "OpponentActed":
            payload = EVENTS.read(event.type, named_fields(event.data, names or {}))
            assert isinstance(payload, OpponentActed)
            return headlines.acted(payload, names or {})
        return super().headline(event, names)

    def answer_words(
        self, request: Request, values: object, names: Mapping[str, str]
    ) -> str | None:
        """A target roll reads as one (headlines.py)."""
        return headlines.answer_words(request, values, names)

    def card_checked(self, state: HexploreState, before: object, after: object) -> None:
        """An opponent on the mat checked against the printed card: its Vitals move by
        what the card's changed (the Difficulty's per-hero Vitals kept, damage kept)."""
        if not isinstance(after, schema.Opponent) or state.combat is None:
            return
        if not isinstance(before, schema.Opponent):
            return  # never: both are the card's kind, read through its schema
        for foe in [state.combat.opponent, *state.combat.extra]:
            if foe.id != after.id:
                continue
            for vital in ("health", "energy", "influence"):
                change = getattr(after, vital) - getattr(before, vital)
                if change and (vital != "influence" or foe.max_influence):
                    setattr(foe, f"max_{vital}", max(getattr(foe, f"max_{vital}") + change, 0))
                    setattr(foe, vital, max(getattr(foe, vital) + change, 0))

    def initial_state(self, options: Mapping[str, object], content: Content) -> HexploreState:
        return initial_state(options, HexContent.of(content))

    def setup_options_for(self, content: Content) -> list[JsonObject]:
        """The wizard's choices for the packs a group picked (their heroes, by name)."""
        return setup_options_for(HexContent.of(content))

    def legal_actions(self, state: HexploreState, content: Content) -> list[Action]:
        return legal_actions(state, HexContent.of(content))

    def validate_content(self, content: Content) -> Iterable[tuple[str, str]]:
        return schema.validate_content(content)

    def outcome(self, state: HexploreState) -> str | None:
        """The heroes won or lost (a combat's own end is the combat's, not the game's)."""
        return state.outcome

    def summary(self, state: HexploreState) -> str:
        text = f"Turn {state.turn}, Fate Cycle {state.fate.cycle} ({state.fate.tracker})"
        if in_combat(state) and state.combat is not None:
            c = state.combat
            names = " and ".join(o.name for _, o in standing(c))
            text += f", fighting {names} (round {c.round})"
        if state.outcome:
            text += f", {state.outcome}"
        return text
