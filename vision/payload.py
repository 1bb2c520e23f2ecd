"""What a card's QR label says, and what any code the camera reads turns out to be.

A label reads `TC1/<GAME>/<KIND>/<SLUG>/<CHECK>`, for example `TC1/DW/MINION/INKLING/3CEF`:

- `TC1` marks the format and its version, so a future format can change without an old
  label being misread;
- the card id `<game>/<kind>/<slug>` in upper case, the three shipped games shortened to
  two letters, `_` written as `.`: every character is in the QR alphanumeric set, which
  packs 5.5 bits a character instead of 8, so the code stays at version 2 or 3;
- `<CHECK>` is the CRC-16/CCITT of everything before it, in hex.  CRC-16 catches every
  error burst of 16 bits or fewer, so one wrong character, or two neighbours swapped,
  can never turn one card's label into another's; and because the format is canonical
  (`encode(decode(text)) == text`), a text that is not exactly a label is not a card.

Any other code (a shop's link, a Wi-Fi code, another game's) is reported as unknown and
never opened; HEXplore It's own Living Card codes are recognised and named as such.
"""

from __future__ import annotations

import binascii
import re
from dataclasses import dataclass

FORMAT = "TC1"
# The shipped games' two-letter codes; any other game is written in full.
GAME_CODES: dict[str, str] = {"direwild": "DW", "kradia": "KR", "hexplore": "HX"}
_CODE_GAMES = {code: game for game, code in GAME_CODES.items()}
QR_ALPHANUMERIC = frozenset("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:")

_PART = re.compile(r"^[A-Z0-9.-]+$")
_GAME_PART = re.compile(r"^[A-Z0-9]+$")
_CHECK = re.compile(r"^[0-9A-F]{4}$")
# A card id as a label carries it, `<game>/<kind>/<slug>` in lower case: the same pattern
# as the content packs' ids (`companion.content.schema.ID_PATTERN`), written here so the
# camera adapter imports nothing of the app; tests/table/test_adapter_facts.py holds the
# two equal.
ID_PATTERN = re.compile(r"^[a-z0-9]+/[a-z0-9_-]+/[a-z0-9_-]+$")
_OURS = re.compile(r"^TC(\d+)/")
_HEXPLORE = re.compile(
    r"^(?:https?://)?(?:[a-z0-9-]+\.)*hexploreit\.com(?P<path>[/?#:].*)?$", re.IGNORECASE
)

# What a read code turned out to be.
CARD = "card"
LIVING_CARD = "hexplore_living_card"
UNKNOWN = "unknown"


class PayloadError(ValueError):
    """A card id that cannot be put on a label (the message says why)."""


@dataclass(frozen=True)
class Reading:
    """One code read from a frame, classified.  `card_id` is set only for our own labels."""

    text: str
    kind: str
    card_id: str | None = None
    note: str = ""

    @property
    def game(self) -> str | None:
        return self.card_id.split("/", 1)[0] if self.card_id else None

    def to_json(self) -> dict[str, str | None]:
        return {"text": self.text, "kind": self.kind, "card": self.card_id, "note": self.note}


def check_of(body: str) -> str:
    return f"{binascii.crc_hqx(body.encode('ascii'), 0xFFFF):04X}"


def encode(card_id: str) -> str:
    """The label text for `card_id` (`direwild/minion/inkling` -> `TC1/DW/MINION/INKLING/..`)."""
    if not isinstance(card_id, str) or not ID_PATTERN.match(card_id):
        raise PayloadError(f"'{card_id}' is not a card id like <game>/<kind>/<name> in lower case")
    game, kind, slug = card_id.split("/")
    code = GAME_CODES.get(game, game.upper())
    if game not in GAME_CODES and code in _CODE_GAMES:
        raise PayloadError(
            f"the game id '{game}' reads like {_CODE_GAMES[code]}'s label code: rename the game"
        )
    body = "/".join((FORMAT, code, kind.upper().replace("_", "."), slug.upper().replace("_", ".")))
    return f"{body}/{check_of(body)}"


def _our_card(text: str) -> str | None:
    parts = text.split("/")
    if len(parts) != 5 or parts[0] != FORMAT or not _CHECK.match(parts[4]):
        return None
    _, code, kind, slug, check = parts
    if not (_GAME_PART.match(code) and _PART.match(kind) and _PART.match(slug)):
        return None
    if check_of(text.rsplit("/", 1)[0]) != check:
        return None
    game = _CODE_GAMES.get(code, code.lower())
    card_id = "/".join((game, kind.lower().replace(".", "_"), slug.lower().replace(".", "_")))
    if not ID_PATTERN.match(card_id):
        return None
    try:
        canonical = encode(card_id)
    except PayloadError:
        return None
    return card_id if canonical == text else None


def classify(text: str) -> Reading:
    """What a decoded code is: one of our cards, a HEXplore Living Card, or unknown."""
    card_id = _our_card(text)
    if card_id is not None:
        return Reading(text, CARD, card_id)
    hexplore = _HEXPLORE.match(text.strip())
    if hexplore:
        if "living" in (hexplore.group("path") or "").lower():
            return Reading(
                text,
                LIVING_CARD,
                note="HEXplore It Living Card: look it up on "
                "hexploreit.com (the app does not open links)",
            )
        return Reading(text, UNKNOWN, note="a HEXplore It web link, not a card (not opened)")
    ours = _OURS.match(text)
    if ours and ours.group(1) != FORMAT[2:]:
        return Reading(
            text,
            UNKNOWN,
            note=f"a label in format TC{ours.group(1)}, which this "
            "version of the app cannot read: update the app",
        )
    if text.startswith(FORMAT + "/"):
        return Reading(
            text,
            UNKNOWN,
            note="looks like our label but its check does not match: "
            "reprint it or hold it steadier",
        )
    return Reading(text, UNKNOWN, note="not a label this app printed (not opened)")
