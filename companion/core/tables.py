"""The one shape every game has: typed events beside their handlers, commands in a table.

Why: a saved session is only as durable as the meaning of its events.  Each event type is
one msgspec Struct, so a misspelt or missing field is caught when the rules emit it, not
when a player reopens the file months later; each has a version, and an upcaster turns an
older stored version into the current one, so renaming a field never makes old saves read
as damaged.  Commands are declared in one table grouped by phase, so what a game can do is
read in one place rather than discovered by `getattr` across a class hierarchy.
`Decision` (what a command's handler emits through) and `GameBase` (the base every game
builds on) live here beside the tables they read; `companion.core.rules` holds the
contract they are built on and imports nothing of this.
"""

from __future__ import annotations

import copy
import inspect
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

import msgspec

from companion.core.rules import Chance, Event, RuleError

if TYPE_CHECKING:
    from companion.content.pack import Content
    from companion.core.headline import Headline

S = TypeVar("S")
E = TypeVar("E", bound="EventData")

VERSION_KEY = "_v"  # stored beside an event's fields when its version is above 1


class EventData(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """One event type's payload.  The class name is the event type stored in the log.

    Bump `version` when the fields change and register an upcaster from the old version.
    """

    version: ClassVar[int] = 1


Handler = Callable[[S, Any], None]
Text = Callable[[Any], str]
Said = Callable[[Any], "Headline | None"]
Upcaster = Callable[[dict[str, object]], dict[str, object]]


@dataclass(frozen=True)
class EventKind(Generic[S]):
    """What the core knows of one event type: its payload, how it folds, how it reads."""

    data_type: type[EventData]
    apply: Handler[S]
    text: Text | None
    headline: Said | None = None  # the news this event is, if any (core/headline.py)
    heading: bool = False  # it opens a new part of the game: a heading in the log


class EventTypeError(ValueError):
    """A stored or emitted event does not fit its declared type."""


class Events(Generic[S]):
    """A game's event types, each with its handler (and words) registered beside it."""

    def __init__(self) -> None:
        self.kinds: dict[str, EventKind[S]] = {}
        self.upcasters: dict[tuple[str, int], Upcaster] = {}

    def on(
        self,
        data_type: type[E],
        text: Callable[[E], str] | None = None,
        headline: Callable[[E], Headline | None] | None = None,
    ) -> Callable[[Callable[[S, E], None]], Callable[[S, E], None]]:
        """Register the handler that folds `data_type` into the state, with its words and
        the headline it makes on the result card (if it is news)."""

        def register(handler: Callable[[S, E], None]) -> Callable[[S, E], None]:
            name = data_type.__name__
            if name in self.kinds:
                raise ValueError(f"event type {name} is registered twice")
            self.kinds[name] = EventKind(data_type, handler, text, headline)
            return handler

        return register

    def tell(
        self, data_type: type[E], headline: Callable[[E], Headline | None]
    ) -> Callable[[E], Headline | None]:
        """Give a registered event its headline (a game's headlines module keeps them
        together, beside the events they read)."""
        name = data_type.__name__
        kind = self.kinds[name]
        self.kinds[name] = replace(kind, headline=headline)
        return headline

    def headings(self, *data_types: type[EventData]) -> None:
        """Mark registered events that open a new part of the game (a chapter, a round, a
        hero's turn): the action log sets each as a heading.  The rules say it, so the log
        never reads it out of an event type's name."""
        for data_type in data_types:
            name = data_type.__name__
            self.kinds[name] = replace(self.kinds[name], heading=True)

    def is_heading(self, type_name: str) -> bool:
        kind = self.kinds.get(type_name)
        return kind is not None and kind.heading

    def upcast(self, type_name: str, from_version: int) -> Callable[[Upcaster], Upcaster]:
        """Register how a stored `type_name` of `from_version` becomes `from_version + 1`."""

        def register(fn: Upcaster) -> Upcaster:
            self.upcasters[(type_name, from_version)] = fn
            return fn

        return register

    def __contains__(self, type_name: object) -> bool:
        return type_name in self.kinds

    def __iter__(self) -> Iterator[str]:
        return iter(self.kinds)

    def read(self, type_name: str, data: Mapping[str, object]) -> EventData:
        """A stored event as its current typed payload, upcast from older versions."""
        kind = self.kinds[type_name]
        fields = dict(data)
        version = _version(type_name, fields.pop(VERSION_KEY, 1))
        target = kind.data_type.version
        if version > target:
            raise EventTypeError(
                f"{type_name} was saved by a newer version of the app (v{version}, "
                f"this one knows v{target})"
            )
        while version < target:
            upcaster = self.upcasters.get((type_name, version))
            if upcaster is None:
                raise EventTypeError(f"{type_name} v{version} has no upcaster to v{version + 1}")
            fields = upcaster(fields)
            version += 1
        try:
            return msgspec.convert(fields, kind.data_type)
        except msgspec.ValidationError as exc:
            raise EventTypeError(f"{type_name}: {exc}") from None

    def write(self, event: EventData) -> tuple[str, dict[str, object]]:
        """A typed payload as the (type, fields) the log stores."""
        name = type(event).__name__
        if name not in self.kinds:
            raise EventTypeError(f"{name} is not an event type of this game")
        fields: dict[str, object] = msgspec.to_builtins(event)
        if event.version > 1:
            fields[VERSION_KEY] = event.version
        return name, fields

    def check(self, type_name: str, data: Mapping[str, object]) -> dict[str, object]:
        """Validate an event emitted by name and fields; returns the fields as stored."""
        return self.write(self.read(type_name, data))[1]

    def apply(self, state: S, type_name: str, data: Mapping[str, object]) -> None:
        self.kinds[type_name].apply(state, self.read(type_name, data))

    def describe(
        self, type_name: str, data: Mapping[str, object], names: Mapping[str, str] | None = None
    ) -> str | None:
        """The event's words; with `names`, every value (or key) that is exactly one of
        its ids reads as its name, so a text written with ids says names."""
        kind = self.kinds.get(type_name)
        if kind is None or kind.text is None:
            return None
        if not names:
            return kind.text(self.read(type_name, data))
        try:
            event = self.read(type_name, named_fields(data, names))
        except EventTypeError:  # a field whose type holds only ids: the words keep them
            event = self.read(type_name, data)
        text = kind.text(event)
        # a name may open the line ("the opponent: health -9")
        return text[:1].upper() + text[1:]

    def headline(
        self, type_name: str, data: Mapping[str, object], names: Mapping[str, str] | None = None
    ) -> Headline | None:
        """The event's headline, if the game says it is news; ids read as names, as in
        `describe`."""
        kind = self.kinds.get(type_name)
        if kind is None or kind.headline is None:
            return None
        try:
            event = self.read(type_name, named_fields(data, names) if names else data)
        except EventTypeError:  # a field whose type holds only ids: the words keep them
            event = self.read(type_name, data)
        return kind.headline(event)


def _version(type_name: str, stored: object) -> int:
    """The version stored beside an event's fields (1 when none is)."""
    if isinstance(stored, int | float | str | bytes):
        return int(stored)
    raise TypeError(f"{type_name}: its version {stored!r} is not a number")


def named_fields(data: Mapping[str, object], names: Mapping[str, str]) -> dict[str, object]:
    """An event's fields with every id in their values named; the field names stay (an
    event's `opponent` field is not the opponent a name map calls "opponent")."""
    return {key: named(value, names) for key, value in data.items()}


def named(value: object, names: Mapping[str, str]) -> object:
    """`value` with every string (and mapping key) that is an id in `names` replaced."""
    if isinstance(value, str):
        return names.get(value, value)
    if isinstance(value, dict):
        return {named(k, names): named(v, names) for k, v in value.items()}
    if isinstance(value, list):
        return [named(v, names) for v in value]
    return value


CommandFn = Callable[["Decision", Any, "Chance", "Content"], None]


class CommandArgs(msgspec.Struct, kw_only=True):
    """One command's details, typed: a handler that declares its `args` as a subclass gets
    them checked and converted once, at the edge (`Commands.run`), and reads fields, not
    `args.get("hero")` with a check of its own.  Unknown details are left to the core's
    `unused_details`, which names them in words, so they are ignored here."""


def _args_type(fn: CommandFn) -> type[CommandArgs] | None:
    """The Struct a handler declares for its details, or None for a handler that still
    takes the raw mapping.  A wrapper made with `functools.wraps` is looked through to the
    rule it wraps, whose module names the Struct."""
    rule = inspect.unwrap(fn)
    params = list(inspect.signature(rule).parameters.values())
    declared: object = params[1].annotation if len(params) > 1 else None
    if isinstance(declared, str):  # postponed annotations: only this one is resolved, since
        # the others (Content, Chance) are often imported for the type checker alone
        declared = getattr(rule, "__globals__", {}).get(declared)
    if isinstance(declared, type) and issubclass(declared, CommandArgs):
        return declared
    return None


def _in_words(name: str, exc: msgspec.ValidationError) -> str:
    """msgspec's complaint ("Expected `int`, got `str` - at `$.count`") as a player reads
    it: which detail of which command, and what it should be."""
    text = str(exc)
    where = ""
    if " - at `$." in text:
        text, _, path = text.partition(" - at `$.")
        where = path.rstrip("`")
    kinds = {
        "int": "a whole number",
        "str": "a name",
        "bool": "yes or no",
        "array": "a list",
        "object": "named values",
        "null": "left out",
    }
    if text.startswith("Object missing required field `"):
        field = text.removeprefix("Object missing required field `").rstrip("`")
        field = f"{where}.{field}" if where else field
        return f"'{name}' needs its {field.replace('_', ' ')}"
    if text.startswith("Expected `"):
        wanted = text.removeprefix("Expected `").split("`", 1)[0]
        what = " or ".join(kinds.get(k.strip(), k.strip()) for k in wanted.split("|"))
        return f"the {where.replace('_', ' ') or 'details'} of '{name}' must be {what}"
    return f"the details of '{name}' are not right: {text[:1].lower()}{text[1:]}"


class Commands(Generic[S]):
    """A game's commands, declared in one table grouped by the phase they belong to.

    A handler is `fn(d, args, chance, content)`; `args` is either a `CommandArgs` subclass
    (its details checked and converted once, here) or the raw mapping."""

    def __init__(self, phases: Mapping[str, Mapping[str, CommandFn]]) -> None:
        self.phases = {phase: dict(cmds) for phase, cmds in phases.items()}
        self._by_name: dict[str, CommandFn] = {}
        self._phase_of: dict[str, str] = {}
        self._args: dict[str, type[CommandArgs] | None] = {}
        for phase, cmds in self.phases.items():
            for name, fn in cmds.items():
                if name in self._by_name:
                    raise ValueError(f"command {name} is declared twice")
                self._by_name[name] = fn
                self._phase_of[name] = phase
                self._args[name] = _args_type(fn)

    def names(self) -> list[str]:
        return sorted(self._by_name)

    def phase_of(self, name: str) -> str:
        return self._phase_of[name]

    def args_type(self, name: str) -> type[CommandArgs] | None:
        """The Struct `name` declares for its details (None: it reads the raw mapping)."""
        return self._args.get(name)

    def get(self, name: str, title: str) -> CommandFn:
        fn = self._by_name.get(name)
        if fn is None:
            known = ", ".join(self.names())
            raise RuleError(f"{title} has no command '{name}' (it knows: {known})")
        return fn

    def run(
        self,
        name: str,
        title: str,
        d: Decision,
        args: Mapping[str, object],
        chance: Chance,
        content: Content,
    ) -> None:
        """Decide `name` through its handler, its details typed first where it declares
        them: a detail of the wrong kind is refused in words before any rule runs."""
        handler = self.get(name, title)
        declared = self._args.get(name)
        if declared is None:
            handler(d, dict(args), chance, content)
            return
        try:
            typed = msgspec.convert(dict(args), declared, strict=True)
        except msgspec.ValidationError as exc:
            raise RuleError(_in_words(name, exc)) from None
        handler(d, typed, chance, content)


class Decision:
    """Builds a command's events while keeping a scratch state up to date.

    Rules often decide step by step ("move, then check adjacency, then battle"); emitting
    through a Decision applies each event to a private copy so the next step sees it,
    while the caller's state stays untouched.
    """

    def __init__(
        self,
        state: Any,
        evolve: Callable[[Any, Event], None],
        events: Events[Any] | None = None,
    ) -> None:
        self.state = copy.deepcopy(state)
        self.events: list[Event] = []
        self._evolve = evolve
        self._table = events

    def emit(self, event: str | EventData, /, **data: object) -> Event:
        """Record one event: a typed payload, or (for older code) a type name and fields.

        Both are checked against the game's declared event types, so a bad field is a bug
        found here, not in a save file later.
        """
        if isinstance(event, str):
            name = event
            if self._table is not None and name in self._table:
                data = self._table.check(name, data)
        else:
            if self._table is None:
                raise TypeError("typed events need the game's `events` table")
            name, data = self._table.write(event)
        out = Event(name, data)
        self._evolve(self.state, out)
        self.events.append(out)
        return out
