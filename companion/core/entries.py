"""The core's own log rows, typed like the games' events: one Struct per row the session
writes itself, read and written only through `read` and `written`.

Why: a transaction's first row says what kind of transaction it is (`SessionStarted`,
`CommandIssued`, `RequestAnswered`, `Corrected`, `CardChecked`, `Undone`, `Redone`) and
its last one how it ended (`RequestOpened`, `CommandDone`).  Every release reads these
rows, so their fields are as durable as a game's events: declared once here, checked
when written, and read into the same shape by the log, the engine and the narrator
instead of each picking keys out of a dict.  Old saves read unchanged: a field a row may
lack has the default the reading code always assumed, fields a row has beyond these are
left alone (never forbidden), and a row is written with exactly the keys it always had
(`label` and `auto` only when given), so a file written now reads in an older release.
"""

from __future__ import annotations

import msgspec

from companion.core.rules import Command, Request


class Entry(msgspec.Struct, kw_only=True):
    """One row the core writes.  The class name is the row type stored in the log."""


class SessionStarted(Entry):
    game: str = ""
    options: dict[str, object] = {}


class CommandIssued(Entry):
    """A game command by name.  `label` is the rules' words for it (the listed action's
    label), `auto` marks a step the session took by itself."""

    name: str
    args: dict[str, object] = {}
    label: str | msgspec.UnsetType = msgspec.UNSET
    auto: bool | msgspec.UnsetType = msgspec.UNSET

    @property
    def command(self) -> Command:
        return Command(self.name, dict(self.args or {}))


class Asked(msgspec.Struct):
    """The command a request is part of, as `RequestOpened` holds it."""

    name: str
    args: dict[str, object] = {}


class RequestOpened(Entry):
    """The command waits on chance: what it asks, and the answers given so far."""

    command: Asked
    request: dict[str, object]
    answers: list[object] = []

    @property
    def asked(self) -> Request:
        return Request.from_json(self.request)


def _dice() -> dict[str, object]:
    return {"kind": "dice"}


class RequestAnswered(Entry):
    """The table's answer to a request, and what gave it (the keypad, a die, a phone)."""

    values: object = None
    by: str = ""
    request: dict[str, object] = msgspec.field(default_factory=_dice)

    @property
    def asked(self) -> Request:
        return Request.from_json(self.request)


class CommandDone(Entry):
    pass


class Corrected(Entry):
    """A state field set to what the table shows."""

    path: str
    value: object = None
    previous: object = None


class CardChecked(Entry):
    """The table checked a card against the printed one (core/checking.py)."""

    kind: str
    id: str
    before: dict[str, object] = {}
    after: dict[str, object] = {}
    matches: bool = False
    pack: str = ""
    pack_before: str = ""


class Undone(Entry):
    tx: int | None = None


class Redone(Entry):
    tx: int | None = None


ENTRIES: dict[str, type[Entry]] = {
    kind.__name__: kind
    for kind in (
        SessionStarted,
        CommandIssued,
        RequestOpened,
        RequestAnswered,
        CommandDone,
        Corrected,
        CardChecked,
        Undone,
        Redone,
    )
}


def is_entry(row_type: str) -> bool:
    """Whether `row_type` is the core's (a game may not emit an event of that name)."""
    return row_type in ENTRIES


def read(row_type: str, data: dict[str, object]) -> Entry | None:
    """The core's row as its Struct; None for a game's event.  A row that does not fit
    raises ValueError (the caller names the file damaged)."""
    kind = ENTRIES.get(row_type)
    if kind is None:
        return None
    try:
        return msgspec.convert(data, kind)
    except msgspec.ValidationError as exc:
        raise ValueError(f"{row_type}: {exc}") from None


def written(entry: Entry) -> tuple[str, dict[str, object]]:
    """The row type and data to append for `entry`."""
    data: dict[str, object] = msgspec.to_builtins(entry)
    return type(entry).__name__, data
