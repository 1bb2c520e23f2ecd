"""Words the action log and AI walk-through use for units, cards and distances."""

from __future__ import annotations

from companion.games.direwild.board import SLOTS


def name(unit: str | None) -> str:
    """A unit as the table says it: 'Red minion', 'Karn', 'Stormbringer'."""
    if not unit:
        return "a hero"
    if unit in SLOTS:
        return f"{unit.title()} minion"
    return unit.title()


def short(item_id: str) -> str:
    """A card or board by the name on its label (the part after the last slash).  The log
    and the result card get the packs' names in its place (`Session.names`)."""
    return item_id.rsplit("/", 1)[-1]


def squares(n: int) -> str:
    return f"{n} square{'s' if n != 1 else ''}"
