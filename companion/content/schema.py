"""The base every content kind's schema builds on.

We use msgspec rather than pydantic: the same library validates content files and
converts the session state to and from JSON, and its conversion is fast enough that
resuming a 10,000-event session stays well inside 50 ms.  `forbid_unknown_fields`
turns a typo such as `atack:` into an error instead of a silent default.
"""

from __future__ import annotations

import re
from typing import Annotated

import msgspec

ID_PATTERN = re.compile(r"^[a-z0-9]+/[a-z0-9_-]+/[a-z0-9_-]+$")


class Item(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """One piece of content: a minion, a boss, a card, a board.

    `id` is `<game>/<kind>/<slug>` as on QR labels.  `demo: true` marks items whose
    numbers we invented because the rulebook does not print them.
    """

    # made from the name when the editor saves a card; the demo mark is ours, not printed
    id: Annotated[str, msgspec.Meta(extra={"hidden": True})]
    name: str = ""
    demo: Annotated[bool, msgspec.Meta(extra={"hidden": True})] = False

    @property
    def slug(self) -> str:
        return self.id.rsplit("/", 1)[-1]

    @property
    def title(self) -> str:
        return self.name or self.slug.replace("-", " ").title()


def card_of(kind: str) -> msgspec.Meta:
    """Marks a text field that holds the id of another card of the pack (of `kind`): the
    card editor offers that kind's cards by name instead of asking for an id."""
    return msgspec.Meta(extra={"refers": kind})
