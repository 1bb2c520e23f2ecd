"""The game contract: everything the core, the screens, the CLI, the phones and the camera
ask of a game's rules, declared in one place.

Why: a game is found by id (`companion.core.registry`) and then only ever talked to through
this contract, so what a game must say, and what it may say, is read here rather than
discovered by `getattr` across the app.  `Game` is the contract as a type: every hook with
the reason it exists.  `GameBase` is the contract with its defaults: a game derives from it,
declares its `commands` and `events` tables, writes `initial_state` and `legal_actions`,
and overrides only the hooks whose default does not fit it.  Each default is what a game
that says nothing about the matter means: no summary, no set-up choices, no content
checks, every content kind a card, nothing special about a roll's words.

Pure rules: no hook may roll, read a clock or touch a file (rules.py says why).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from companion.core.rules import Action, Chance, Command, Event, Request, RuleError
from companion.core.tables import Commands, Decision, Events

if TYPE_CHECKING:
    from companion.content.pack import Content
    from companion.core.headline import Headline
    from companion.jsontypes import JsonObject, JsonValue


class Game(Protocol):
    """What a game module exposes as `GAME`: the whole contract, with why each part exists.

    Grouped as the app meets them: who the game is and what it is made of; the rules
    themselves; set-up; what the table sees; the cards and the camera; corrections.
    """

    # -- who the game is and what it is made of ------------------------------------------

    id: ClassVar[str]
    """The registry's key, the first part of every content id ("direwild")."""

    title: ClassVar[str]
    """The game's name on every screen ("Kradia: Wild Hunt Festival")."""

    state_type: ClassVar[type]
    """The state's class: a correction rebuilds the state through it, so a value of the
    wrong shape is refused (core/corrections.py)."""

    content_kinds: ClassVar[Mapping[str, type]]
    """Each kind of card or board the packs hold, by the kind's name, with its schema:
    packs are loaded, edited and checked against these."""

    commands: ClassVar[Commands[Any] | None]
    """The commands, declared in one table grouped by phase (core/tables.py): `decide`
    runs them, and a phone groups its buttons by their phase.  None: a game with no
    commands (it decides nothing)."""

    events: ClassVar[Events[Any] | None]
    """The event types, each with its payload type, its handler, its words and whether it
    is news (core/tables.py): `evolve`, `describe` and `headline` read it."""

    # -- the rules -------------------------------------------------------------------------

    def initial_state(self, options: Mapping[str, object], content: Content) -> Any:
        """The state at the start of a session; RuleError for bad set-up options."""
        ...

    def decide(self, state: Any, command: Command, chance: Chance, content: Content) -> list[Event]:
        """The events a command causes.  Must not mutate `state`; RuleError in the players'
        words for a command the rules refuse."""
        ...

    def evolve(self, state: Any, event: Event) -> None:
        """Apply one of this game's events to `state` in place: how a session is folded,
        so a saved log reads the same state every time it is opened."""
        ...

    def legal_actions(self, state: Any, content: Content) -> list[Action]:
        """Every command the rules would accept now (none while the game is over): the
        buttons of the screens and the phones, and what self-play and corrections try."""
        ...

    def command_names(self) -> list[str]:
        """Every command the game knows, sorted: the CLI, the fuzzers and the refusal for
        an unknown command list them."""
        ...

    def outcome(self, state: Any) -> str | None:
        """How the game has ended, in the rules' own word ("won", "lost"), or None while
        it goes on: `Session.actions` and self-play report it, and `decide` refuses every
        command while it is set (`after_outcome` names the exceptions).  Default None: a
        game that never says it is over."""
        ...

    ends: ClassVar[str]
    """What an outcome ends, as the refusal of a command after it says ("the chapter":
    "the chapter is over (lost)").  Default "the game"."""

    after_outcome: ClassVar[Mapping[str, tuple[str, str]]]
    """By outcome, the one command the rules still take once it is set and the words that
    tell the table to give it: an outcome that closes a part of the game, not the whole
    ({"boss_defeated": ("resupply", "Resupply first")}).  Default none: every outcome
    ends the game."""

    # -- set-up ----------------------------------------------------------------------------

    setup_options: ClassVar[Sequence[JsonObject]]
    """The new-game wizard's choices as plain data (`name`, `label`, `choices` or
    `min`/`max`, `default`; ui/screens/newgame.py): Start straight away takes each
    default.  Default empty: a game with no set-up choices."""

    def setup_options_for(self, content: Content) -> list[JsonObject]:
        """The wizard's choices for the packs a group picked (their heroes and boards by
        name).  Default: `setup_options` as they are, whatever the packs."""
        ...

    def complete_setup(self, options: Mapping[str, JsonValue], content: Content) -> JsonObject:
        """The options a new game records, filled in from the packs (the group's own boss
        or board), so a session reads the same when the packs change later.  Default: the
        options as chosen."""
        ...

    def validate_content(self, content: Content) -> Iterable[tuple[str, str]]:
        """Cross-checks a pack must pass beyond each card's schema, as (item id, problem)
        pairs: a pack with problems is not loaded, an edit that makes one is refused.
        Default none."""
        ...

    # -- what the table sees ---------------------------------------------------------------

    field_words: ClassVar[Mapping[str, str]]
    """The rulebook's name for a state field whose spelling in code would read wrong on a
    screen ("hp" -> "HP"): see `rules.field_label`.  Default none."""

    value_words: ClassVar[Mapping[str, Mapping[str, str]]]
    """The rulebook's words for a field's values, by field ("phase": {"game": "Game
    Phase"}): screens show the state with them, and the correction sheet offers exactly
    those values.  Default none."""

    def summary(self, state: Any) -> str | None:
        """Where the game stands in one line ("Chapter 2, round 3"): the session list, the
        state panel's title, the phones.  Default None: no line (the title stands in)."""
        ...

    def names(self, state: Any) -> Mapping[str, str]:
        """What the table calls each thing an event names by id, where the id alone is
        not a name (a hero from a content pack): read from the state, as events hold ids.
        Default none."""
        ...

    def step_names(self, state: Any) -> Mapping[str, str]:
        """Names for the step just taken only, over `names` (the opponent on the mat now,
        not every combat's "opponent"): the result card reads them, the log does not.
        Default none."""
        ...

    def describe(self, event: Event, names: Mapping[str, str] | None = None) -> str:
        """The event in words for the action log; `names` puts each id the event carries
        as the table calls it.  Default: the events table's words, else the type and
        fields."""
        ...

    def headline(self, event: Event, names: Mapping[str, str] | None = None) -> Headline | None:
        """The event as news for the result card's headline, if it is news (core/
        headline.py).  Default: what the events table says."""
        ...

    def heading(self, event: Event) -> bool:
        """Whether the event opens a new part of the game (a round, a turn, a chapter),
        set as a heading in the action log.  Default: what the events table says
        (`Events.headings`)."""
        ...

    def answer_words(
        self, request: Request, values: object, names: Mapping[str, str]
    ) -> str | None:
        """A roll or a card drawn in the rulebook's words (who flips the Enemy AI card, a
        target roll), for the log and the result card.  Default None: the core's words
        ("Stormbringer: rolled 4 on the d6")."""
        ...

    def answer_headline(
        self, request: Request, values: object, names: Mapping[str, str]
    ) -> Headline | None:
        """A roll or a card drawn as news for the result card.  Default None: not news."""
        ...

    # -- the cards and the camera ----------------------------------------------------------

    card_kinds: ClassVar[tuple[str, ...]]
    """The content kinds that are physical cards, which get printed labels and are shown
    to the camera (vision/labels.py).  Default empty: every content kind is a card."""

    card_commands: ClassVar[Mapping[str, tuple[str, str]]]
    """A card shown to the camera with nothing waiting runs a command: by the id's kind
    or the content kind holding it, the command's name and the argument the card's id
    goes in ({"ai_cards": ("reveal_ai_card", "card")}; companion/table/card_answers.py).
    Default none: such a card only answers a draw."""

    own_codes: ClassVar[Mapping[str, str]]
    """Codes printed on the game's own components that are not the app's labels, by the
    kind the camera's classifier gives them (vision/payload.py: "hexplore_living_card"),
    each with what to tell the table when one is shown, whatever game is being played
    (companion/table/card_answers.py).  Default none: the camera names no such code."""

    played_kinds: ClassVar[tuple[str, ...] | None]
    """The kinds whose cards the table checks against its printed copies as they come
    into play (the result card's offer; core/checking.py).  Default None: every kind."""

    def faced(self, state: Any) -> list[str]:
        """The card ids a new game starts facing (a boss and its board), offered for a
        check like the cards a step brings into play.  Default none."""
        ...

    def card_checked(self, state: Any, before: object, after: object) -> None:
        """A card checked against the group's printed copy changed from `before` to
        `after`: update in place what the state copied from it at set-up (a boss's HP,
        the damage dealt kept).  Default: nothing was copied."""
        ...

    # -- corrections -----------------------------------------------------------------------

    def correction_choices(self, state: Any, content: Content, path: str) -> list[object] | None:
        """The values the correction sheet offers for the field at `path`, when the game
        knows them exactly.  Default None: the sheet gathers them from the state and the
        content (and a field with `value_words` offers those)."""
        ...

    def check_state(self, state: Any, content: Content) -> Iterable[str]:
        """Problems, in the players' words, a corrected state has beyond its shape (a
        correction with any is refused).  Default none."""
        ...


class GameBase:
    """The contract's defaults (each hook's meaning is on `Game`): a game derives from it.

    Commands come from the declared `commands` table and events from the `events` table;
    a game sets both, writes `initial_state` and `legal_actions`, and overrides only the
    hooks whose default does not fit.
    """

    id: ClassVar[str] = ""
    title: ClassVar[str] = ""
    state_type: ClassVar[type] = object
    content_kinds: ClassVar[Mapping[str, type]] = {}
    commands: ClassVar[Commands[Any] | None] = None
    events: ClassVar[Events[Any] | None] = None
    setup_options: ClassVar[Sequence[JsonObject]] = ()
    field_words: ClassVar[Mapping[str, str]] = {}
    value_words: ClassVar[Mapping[str, Mapping[str, str]]] = {}
    card_kinds: ClassVar[tuple[str, ...]] = ()
    card_commands: ClassVar[Mapping[str, tuple[str, str]]] = {}
    own_codes: ClassVar[Mapping[str, str]] = {}
    played_kinds: ClassVar[tuple[str, ...] | None] = None
    ends: ClassVar[str] = "the game"
    after_outcome: ClassVar[Mapping[str, tuple[str, str]]] = {}

    # -- the rules -------------------------------------------------------------------------

    def initial_state(self, options: Mapping[str, object], content: Content) -> Any:
        raise NotImplementedError(f"{self.title} does not set up a game yet")

    def decide(self, state: Any, command: Command, chance: Chance, content: Content) -> list[Event]:
        over = self.outcome(state)
        if over and self.after_outcome.get(over, ("",))[0] != command.name:
            raise RuleError(outcome_refusal(self, over))
        if self.commands is None:
            raise RuleError(f"{self.title} has no command '{command.name}' (it knows: )")
        d = Decision(state, self.evolve, self.events)
        self.commands.run(command.name, self.title, d, command.args, chance, content)
        return d.events

    def evolve(self, state: Any, event: Event) -> None:
        if self.events is None or event.type not in self.events:
            raise KeyError(f"{self.id} cannot apply event {event.type}")
        self.events.apply(state, event.type, event.data)

    def legal_actions(self, state: Any, content: Content) -> list[Action]:
        raise NotImplementedError(f"{self.title} does not list its legal actions yet")

    def command_names(self) -> list[str]:
        return self.commands.names() if self.commands is not None else []

    def outcome(self, state: Any) -> str | None:
        return None

    # -- set-up ----------------------------------------------------------------------------

    def setup_options_for(self, content: Content) -> list[JsonObject]:
        return list(self.setup_options)

    def complete_setup(self, options: Mapping[str, JsonValue], content: Content) -> JsonObject:
        return dict(options)

    def validate_content(self, content: Content) -> Iterable[tuple[str, str]]:
        return []

    # -- what the table sees ---------------------------------------------------------------

    def summary(self, state: Any) -> str | None:
        return None

    def names(self, state: Any) -> Mapping[str, str]:
        return {}

    def step_names(self, state: Any) -> Mapping[str, str]:
        return {}

    def describe(self, event: Event, names: Mapping[str, str] | None = None) -> str:
        if self.events is not None:
            typed = self.events.describe(event.type, event.data, names)
            if typed is not None:
                return typed
        details = ", ".join(f"{k} {v}" for k, v in event.data.items())
        return f"{event.type}: {details}" if details else event.type

    def headline(self, event: Event, names: Mapping[str, str] | None = None) -> Headline | None:
        if self.events is not None:
            return self.events.headline(event.type, event.data, names)
        return None

    def heading(self, event: Event) -> bool:
        return self.events is not None and self.events.is_heading(event.type)

    def answer_words(
        self, request: Request, values: object, names: Mapping[str, str]
    ) -> str | None:
        return None

    def answer_headline(
        self, request: Request, values: object, names: Mapping[str, str]
    ) -> Headline | None:
        return None

    # -- the cards and the camera ----------------------------------------------------------

    def faced(self, state: Any) -> list[str]:
        return []

    def card_checked(self, state: Any, before: object, after: object) -> None:
        return None

    # -- corrections -----------------------------------------------------------------------

    def correction_choices(self, state: Any, content: Content, path: str) -> list[object] | None:
        return None

    def check_state(self, state: Any, content: Content) -> Iterable[str]:
        return []


def outcome_refusal(game: Game, outcome: str) -> str:
    """The one refusal of a command once the game has an outcome, for every game: what
    ended and how, in the game's words for the outcome where it has them, and the one
    step the rules still take after it, if any ("the battle is over (boss defeated):
    Resupply first").  Why here: the rules of each game say how it ends, never what a
    command is told after it, so no game can refuse its own commands differently."""
    how = game.value_words.get("outcome", {}).get(outcome) or outcome.replace("_", " ")
    then = game.after_outcome.get(outcome)
    return f"{game.ends} is over ({how.lower()})" + (f": {then[1]}" if then else "")


def field_label(game: Game, key: str) -> str:
    """A state field's name as the table says it: the game's own word for it where it
    has one (`Game.field_words`), else the field's name in plain words."""
    return game.field_words.get(key) or key.replace("_", " ").capitalize()


if TYPE_CHECKING:

    def _declared(game: GameBase) -> Game:
        """Type-checked, never run: GameBase meets the whole contract."""
        return game
