"""What a new game offers from the packs loaded: the group's own cards first, by name.

The group's packs are a layer over the shipped ones (pack.py): a card of theirs either
replaces a shipped card (keeping its id and its place) or is new.  The set-up wizard
lists the new ones first, then the rest in the packs' order, so a table that has made its
own boss or board finds it at the top (and a card the group merely checked against its
printed copy stays where it was: checking a card never reshuffles the choices).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from companion.content.pack import Content

T = TypeVar("T")
NAMED_IN_LINE = 3  # the cards the wizard's line names before it says "and N more"


def from_own_pack(content: Content, item_id: str) -> bool:
    """Whether the card comes from one of the group's packs (new or replacing)."""
    return content.pack_of.get(content.canonical(item_id), "") in content.own_packs


def new_of_own(content: Content, item_id: str) -> bool:
    """Whether the card is the group's own and replaces no shipped card."""
    item_id = content.canonical(item_id)
    return from_own_pack(content, item_id) and item_id not in content.replaced


def own_first(
    content: Content, items: Iterable[T], key: Callable[[T], str] | None = None
) -> list[T]:
    """`items` (ids, or cards read through `key`) with the group's new cards first, each
    group in the packs' order."""
    ident: Callable[[T], str] = key or (lambda item: str(getattr(item, "id", item)))
    listed = list(items)
    return [i for i in listed if new_of_own(content, ident(i))] + [
        i for i in listed if not new_of_own(content, ident(i))
    ]


def card_name(item: object) -> str:
    return str(getattr(item, "title", "") or getattr(item, "name", "") or getattr(item, "id", ""))


def _names(content: Content, ids: list[str]) -> str:
    names = [card_name(content.by_id(i)) for i in ids]
    shown = ", ".join(names[:NAMED_IN_LINE])
    more = len(names) - NAMED_IN_LINE
    return f"{shown} and {more} more" if more > 0 else shown


def _cards(n: int) -> str:
    return f"{n} card" if n == 1 else f"{n} cards"


def _over(content: Content, pack: str) -> str:
    return "the demo" if pack == "demo" else f"'{content.pack_title(pack)}'"


def where_cards_come_from(content: Content) -> str:
    """What the wizard says under the pack toggles: per pack of the group's, how many
    cards it lays over the shipped packs and how many it adds, by name; then where the
    rest come from.  Empty when the group plays no pack of its own."""
    lines = []
    shipped = [p for p in content.packs if p not in content.own_packs]
    for pack in content.packs:
        if pack not in content.own_packs:
            continue
        mine = [i for i, p in content.pack_of.items() if p == pack]
        over = [i for i in mine if i in content.replaced]
        added = [i for i in mine if i not in content.replaced]
        parts = []
        if over:
            under = {content.replaced[i] for i in over}
            where = " and ".join(_over(content, p) for p in shipped if p in under)
            parts.append(
                f"{_cards(len(over))} over {where or 'the demo'} ({_names(content, over)})"
            )
        if added:
            parts.append(f"{len(added)} of your own ({_names(content, added)})")
        what = " and ".join(parts) if parts else "no cards yet"
        lines.append(f"Your copy '{content.pack_title(pack)}': {what}")
    if not lines:
        return ""
    if shipped:
        rest = " and ".join(content.pack_title(p) for p in shipped)
        lines[-1] += f"; the rest from {rest}"
    return "\n".join(lines)
