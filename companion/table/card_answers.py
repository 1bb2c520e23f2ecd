"""A card held up to the camera becomes an answer or a command, through the session.

The scanner only says "this code was seen"; what it means depends on the game at that
moment.  If the session is waiting on a draw (an AI card, a battlefield card, a
circumstance), the card answers it and the session checks it against the request's
options, so a card that cannot come up now is refused in the rules' own words.  If nothing
is waiting, a game may map a card kind to a command with its `card_commands`
attribute (`{"ai": ("reveal_ai_card", "card")}`: id kind -> command and argument name), so
showing an AI card reveals it.  Anything else gets a sentence for the scanner panel and
changes nothing.  A code printed on a game's own components (HEXplore It's Living Cards)
is named in the words that game declares (`own_codes` on `companion.core.game.Game`), so
no game is named here.  Call it on the thread that owns the session (the UI loop), never
on the scanner's thread.

Why in the table layer: the camera (`vision/`) only reads codes and knows no session; this
joins what it read to the open session and the game's declared contract.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.core.registry import UnknownGame, available_games, get_game
from companion.core.rules import RuleError
from companion.core.session import Result, Session
from vision.payload import CARD, Reading, classify


@dataclass(frozen=True)
class Offer:
    """What came of showing a card: whether the session took it, and what to tell the table."""

    accepted: bool
    message: str
    result: Result | None = None


def card_name(session: Session, card_id: str) -> str:
    item = session.content.by_id(card_id)
    return getattr(item, "title", "") or card_id


def offer_card(session: Session, seen: Reading | str, by: str = "camera") -> Offer:
    """Give a scanned code to the session: answer the pending draw, or run the card's
    command, or explain why not.  Never raises for anything a player can cause."""
    reading = classify(seen) if isinstance(seen, str) else seen
    words = own_code_words(session, reading.kind)
    if words is not None:
        return Offer(False, words)
    if reading.kind != CARD or reading.card_id is None:
        return Offer(False, f"That code is not one of this app's card labels ({reading.note}).")
    card_id = reading.card_id
    game = session.game
    if reading.game != game.id:
        return Offer(
            False, f"That is a card from {_title(reading.game)}; this is a game of {game.title}."
        )
    if session.content.by_id(card_id) is None:
        packs = ", ".join(session.content.packs) or "none"
        return Offer(
            False,
            f"{card_id} is not in this game's content (packs: {packs}). "
            "Was the label printed for another pack?",
        )
    name = card_name(session, card_id)
    request = session.request
    try:
        if request is not None:
            if request.kind != "draw":
                return Offer(False, f"Waiting for dice, not a card: {request.describe()}.")
            if request.options and card_id not in request.options:
                # said here, with names: the core's own refusal names the card by its id
                deck = request.deck.rsplit("/", 1)[-1].replace("_", " ").replace("-", " ")
                return Offer(
                    False, f"{name} cannot be drawn from {deck} now ({request.describe()})."
                )
            result = session.answer(card_id, by=by)
            return Offer(True, f"{name} answered {request.describe()}", result)
        command = _command_for(session, card_id)
        if command is None:
            return Offer(False, f"{name} seen, but nothing is waiting for a card right now.")
        name_, arg = command
        result = session.do(name_, {arg: card_id})
        return Offer(True, f"{name}: {name_.replace('_', ' ')}", result)
    except RuleError as exc:
        return Offer(False, f"{name} was not taken: {exc.message}")


def _command_for(session: Session, card_id: str) -> tuple[str, str] | None:
    """The game's command for this card when nothing is waiting, keyed by the id's kind
    (`ai`) or the content kind holding it (`ai_cards`)."""
    commands = session.game.card_commands
    kind = card_id.split("/")[1]
    for key, entry in commands.items():
        if key == kind or card_id in session.content.items.get(key, {}):
            return entry[0], entry[1]
    return None


def own_code_words(session: Session, kind: str) -> str | None:
    """What a game says of a code of `kind` printed on its own components (`own_codes`):
    the session's game first, then any other installed game's, since a box's cards can be
    held up during another game."""
    if kind == CARD:
        return None
    words = session.game.own_codes.get(kind)
    if words is not None:
        return words
    for game_id in available_games():
        words = get_game(game_id).own_codes.get(kind)
        if words is not None:
            return words
    return None


def _title(game_id: str | None) -> str:
    try:
        return get_game(game_id or "").title
    except UnknownGame:
        return game_id or "another game"
