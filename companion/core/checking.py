"""Cards checked against the group's copy while playing: the log's part of the layer.

Why a module: DESIGN 11 makes the group's copy a layer over the demo pack, filled in at
the table.  When the table checks a card, the session logs a `CardChecked` transaction
holding the card before and after, so the change applies from that step on, one Undo
takes it back, and the file folds to one state whatever the pack folder holds later: the
content a session starts from is the packs as loaded with every card the log changed put
back as it was before its first check (`base`), and the content the rules read now is
that base with each check still in the history applied in order (`current`).
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping

import msgspec

from companion.content.diff import changes
from companion.content.forms import fields_of, form_for
from companion.content.pack import Content
from companion.content.schema import Item
from companion.core.entries import CardChecked
from companion.core.game import Game
from companion.core.rules import RuleError


def _copy(content: Content) -> Content:
    out = copy.copy(content)
    out.items = {kind: dict(items) for kind, items in content.items.items()}
    out.sources = dict(content.sources)
    out.pack_of = dict(content.pack_of)
    return out


def _put(content: Content, game: Game, check: CardChecked, side: str) -> None:
    card = check.after if side == "after" else check.before
    item: Item = msgspec.convert(card, game.content_kinds[check.kind], strict=True)
    content.items.setdefault(check.kind, {})[item.id] = item
    content.pack_of[item.id] = check.pack if side == "after" else check.pack_before


def base_content(loaded: Content, game: Game, checks: Iterable[tuple[int, CardChecked]]) -> Content:
    """The content the session started from: each card a check changed, as it was before
    the first check of it (the pack folder already holds the newer numbers)."""
    out: Content | None = None
    seen: set[str] = set()
    for _tx, check in checks:
        if check.id in seen or check.kind not in game.content_kinds:
            continue
        seen.add(check.id)
        out = out or _copy(loaded)
        _put(out, game, check, "before")
    return out or loaded


def current_content(
    base: Content, game: Game, checks: Iterable[tuple[int, CardChecked]], alive: list[int]
) -> Content:
    """`base` with every check still in the game's history applied, oldest first."""
    live = set(alive)
    out: Content | None = None
    for tx, check in checks:
        if tx in live and check.kind in game.content_kinds:
            out = out or _copy(base)
            _put(out, game, check, "after")
    return out or base


def checked_card(
    game: Game,
    content: Content,
    card_id: str,
    card: Mapping[str, object] | None,
    pack: str,
) -> CardChecked:
    """The `CardChecked` entry for the table's word on one card: `card` is the printed
    card's numbers (None: they match).  Refused in words if the card is unknown or the
    numbers are not ones the game can play with; nothing is written then."""
    item_id = content.canonical(card_id)
    kind = content.kind_of(item_id)
    if kind is None:
        raise RuleError(f"there is no card {card_id} in this game's packs")
    before = content.by_id(item_id)
    after: dict[str, object] = {**msgspec.to_builtins(before), **(card or {})}
    after["id"] = item_id
    after.pop("demo", None)
    try:
        item: Item = msgspec.convert(after, game.content_kinds[kind], strict=True)
    except msgspec.ValidationError as exc:
        raise RuleError(f"{getattr(before, 'title', item_id)}: {exc}") from None
    trial = _copy(content)
    trial.items[kind][item_id] = item
    problems = [m for i, m in game.validate_content(trial) if i == item_id]
    if problems:
        raise RuleError(f"{item.title}: {problems[0]}")
    return CardChecked(
        kind=kind,
        id=item_id,
        before=msgspec.to_builtins(before),
        after=msgspec.to_builtins(item),
        matches=card is None,
        pack=pack,
        pack_before=content.pack_of.get(item_id, ""),
    )


def ids_in(value: object) -> Iterable[str]:
    """Every string in an event's data, a command's arguments or an answer."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping):
        for v in value.values():
            yield from ids_in(v)
    elif isinstance(value, list | tuple):
        for v in value:
            yield from ids_in(v)


def unchecked(
    content: Content, values: Iterable[object], kinds: Iterable[str] | None = None
) -> list[str]:
    """The cards of `kinds` (the game's `played_kinds`; every kind if None) named in
    `values` whose numbers are still the demo's, once each, in the order named: what the
    result card offers to check against the group's printed cards."""
    wanted = set(kinds) if kinds is not None else None
    # rules that name a card by the last part of its id (the slug) name it as well
    slugs = {
        item_id.rsplit("/", 1)[-1]: item_id
        for kind, items in content.items.items()
        if wanted is None or kind in wanted
        for item_id in items
    }
    out: list[str] = []
    for text in (t for v in values for t in ids_in(v)):
        item_id = content.canonical(slugs.get(text, text))
        kind = content.kind_of(item_id)
        if item_id in out or kind is None or (wanted is not None and kind not in wanted):
            continue
        if not content.checked(item_id):
            out.append(item_id)
    return out


def field_labels(game: Game, kind: str) -> dict[str, str]:
    """A kind's fields as the card editor labels them (the rulebook's words)."""
    schema = game.content_kinds.get(kind)
    return {f.name: f.label for f in fields_of(form_for(schema))} if schema else {}


def checked_words(check: CardChecked, names: Mapping[str, str], game: Game) -> str:
    """The log's line for a check, in the table's words: what matched or what changed."""
    name = names.get(check.id) or str(check.after.get("name") or check.id)
    if check.matches:
        return f"{name} checked against your card: it matches"
    labels = field_labels(game, check.kind)
    said = [
        f"{_path_words(path, labels)} {_shown(old)} -> {_shown(new)}"
        for path, old, new in changes(check.before, check.after)
        if path[0] not in ("id", "demo")
    ]
    return f"{name} checked against your card: " + ("; ".join(said) or "it matches")


def _path_words(path: tuple[str | int, ...], labels: Mapping[str, str]) -> str:
    """`("chart", 0, "effects", 0, "damage")` as "attack chart 1, effects 1, damage"."""
    words: list[str] = []
    for part in path:
        if isinstance(part, int):
            words[-1] += f" {part + 1}"
        else:
            words.append(
                labels.get(part, part.replace("_", " ")) if not words else part.replace("_", " ")
            )
    return ", ".join(w.lower() for w in words)


def _shown(value: object) -> str:
    if isinstance(value, list):
        return f"{len(value)} entries" if value and isinstance(value[0], dict) else str(value)
    return "none" if value is None else str(value)
