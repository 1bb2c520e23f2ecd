"""What a text value in the state may be corrected to, picked from a list by its name.

Why: nothing at the table is typed (issue 12); a position, a card or a hero in the state
is corrected by picking.  The candidates are read off the state and the loaded content,
never decided here: the values the same field holds elsewhere in the state (every
Sentinel's location), every card of the kind the value is a card of, every key of the
collection the value is a key of (a hero's key picks among the heroes), and "none" where
the field is empty now.  A game that knows better (a board's spaces for a position, its
phases) says so with its `correction_choices(state, content, path)` hook returning the
values, or None to leave it to the state.  The session's correction still checks the
value picked, and a refusal is shown in its words.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from companion.content.pack import Content
    from companion.core.game import Game

NONE_WORDS = "none"


def _leaves(value: object, path: tuple[str, ...] = ()) -> Iterable[tuple[tuple[str, ...], object]]:
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _leaves(v, (*path, str(k)))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _leaves(v, (*path, str(i)))
    else:
        yield path, value


def _collections(value: object) -> Iterable[dict[str, object]]:
    """Every dict in the state whose values are all dicts (heroes, minions by key)."""
    if isinstance(value, dict):
        if value and all(isinstance(v, dict) for v in value.values()):
            yield value
        for v in value.values():
            yield from _collections(v)
    elif isinstance(value, list):
        for v in value:
            yield from _collections(v)


def _field(path: tuple[str, ...]) -> str:
    """The field's own name: the last part that is not a list index."""
    return next((p for p in reversed(path) if not p.isdigit()), "")


def value_name(
    value: object,
    path: str,
    state: object,
    content: Content | None,
    names: Mapping[str, str] | None = None,
    game: Game | None = None,
) -> str:
    """A state value at `path` as the table says it: the game's words for that field's
    values where it has them (`value_words`: a phase as the rulebook names it, "Game
    Phase", not "game"), the name the rules give the id (`Session.names`), else `name_of`."""
    if isinstance(value, str):
        told = game.value_words if game is not None else {}
        field = _field(tuple(path.split(".")))
        if value in told.get(field, {}):
            return told[field][value]
        if names and value in names:
            return names[value]
    return name_of(value, state, content)


def name_of(value: object, state: object, content: Content | None) -> str:
    """A value as a player knows it: a card's title, an entry's name, else its words (an
    entry of the state known by its key alone, a Direwild clan, capitalised as a name)."""
    if value is None:
        return NONE_WORDS
    text = str(value)
    card = content.by_id(text) if content is not None else None
    if card is not None and getattr(card, "title", None):
        return str(card.title)
    for collection in _collections(state):
        entry = collection.get(text)
        if isinstance(entry, dict):
            name = entry.get("name")
            if isinstance(name, str):
                return name
            named = content.by_id(str(entry.get("card", ""))) if content is not None else None
            if named is not None and getattr(named, "title", None):
                return str(named.title)
            return text.replace("_", " ").replace("-", " ").title()
    return text.replace("_", " ").replace("-", " ")


def text_choices(
    state: object,
    path: str,
    content: Content | None,
    game: Game | None = None,
    names: Mapping[str, str] | None = None,
) -> list[tuple[object, str]]:
    """(value, name) pairs the value at `path` may be picked from, the current one first."""
    parts = tuple(path.split("."))
    leaves = dict(_leaves(state))
    current = leaves.get(parts)
    field = _field(parts)
    found: list[object] = [current]
    told = (
        game.correction_choices(state, content, path)
        if game is not None and content is not None
        else None
    )
    worded = game.value_words.get(field) if game is not None else None
    if told is None and worded:  # a field the game names every value of: its phases
        told = list(worded)
    if told is not None:
        return _named([current, *told], state, content, path, names, game)
    found += [v for p, v in leaves.items() if _field(p) == field and isinstance(v, str)]
    for value in list(found):
        if not isinstance(value, str) or content is None:
            continue
        for kind, items in content.items.items():
            if value in items:
                found += list(content.ids(kind))
        for collection in _collections(state):
            if value in collection:
                found += list(collection)
    if current is None or any(v is None for p, v in leaves.items() if _field(p) == field):
        found.append(None)
    return _named(found, state, content, path, names, game)


def _named(
    found: list[object],
    state: object,
    content: Content | None,
    path: str,
    names: Mapping[str, str] | None,
    game: Game | None,
) -> list[tuple[object, str]]:
    out: list[tuple[object, str]] = []
    seen: set[object] = set()
    for value in found:
        if value in seen:
            continue
        seen.add(value)
        out.append((value, value_name(value, path, state, content, names, game)))
    return out
