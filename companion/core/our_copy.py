"""The group's copy, filled in while playing: a card checked at the table is kept.

Why a module: DESIGN 11 makes the group's copy a layer over the demo pack.  When the
table checks a card against the printed one, two things happen together: the session
logs it (`Session.check_card`: the rules use the numbers from that step on, one Undo
takes it back) and the card is written into the group's pack, so the next evening starts
with it.  The app and the CLI both call `keep`; `follow_undo` keeps the pack in step
when the table undoes or redoes a check.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from typing import TYPE_CHECKING

from companion.content.forms import form_for, without_defaults
from companion.content.pack import own_packs
from companion.core import entries, workshop
from companion.core.edits import OUR_COPY, EditError, check_card, choose_pack, file_id
from companion.core.entries import CardChecked, Redone, Undone
from companion.core.rules import RuleError

if TYPE_CHECKING:
    from companion.core.session import Result, Session


def our_pack(session: Session, card_id: str, pack: str | None = None) -> str:
    """The group's pack a checked card goes into (`edits.choose_pack`: `pack`, the pack
    already holding it, the group's only pack), or a new one called "Our copy"."""
    game, content = session.game, session.content
    holder = content.pack_of.get(card_id)
    held = holder if holder in content.own_packs else None
    name = str(getattr(content.by_id(card_id), "title", card_id))
    try:
        slug = choose_pack(game.title, own_packs(game.id), pack, held, name)
    except EditError as exc:
        raise workshop.WorkshopError(str(exc)) from None
    return slug or workshop.new_pack(game.id, OUR_COPY).slug


def _written_as(session: Session, card_id: str, slug: str, kind: str) -> str | None:
    """The id the group's pack holds this card under, if it holds it."""
    held = {str(c.get("id")) for c in workshop.cards(session.game.id, slug, kind)}
    written = file_id(session.content, card_id)
    return written if written in held else None


def _write(session: Session, check: CardChecked, side: str) -> None:
    game_id, slug, kind = session.game.id, check.pack, check.kind
    if slug not in own_packs(game_id):
        return  # the pack was deleted or renamed since: the log still holds the numbers
    held = _written_as(session, check.id, slug, kind)
    if side == "after" or check.pack_before == slug:
        form = form_for(session.game.content_kinds[kind])
        card = without_defaults(form, dict(check.after if side == "after" else check.before))
        workshop.save_card(game_id, slug, kind, card, replaces=held)
    elif held is not None:  # the check made the card the group's: taken back, it is not
        workshop.delete_card(game_id, slug, kind, held)


def keep(
    session: Session,
    card_id: str,
    card: Mapping[str, object] | None = None,
    pack: str | None = None,
) -> Result:
    """Check a card in the running game and keep it in the group's pack.  `card` holds the
    printed card's numbers; None means they match.  RuleError or WorkshopError in words
    if they cannot be played; then nothing is logged or written."""
    item_id = session.content.canonical(card_id)
    kind = session.content.kind_of(item_id)
    if card is not None and kind is not None:  # in the words `content check` uses
        try:
            check_card(session.game.id, kind, {**card, "id": item_id}, session.content, item_id)
        except EditError as exc:
            raise RuleError(str(exc)) from None
    slug = our_pack(session, item_id, pack)
    result = session.check_card(card_id, card, slug)
    event = result.events[0]
    checked = entries.read(event.type, event.data)
    if isinstance(checked, CardChecked):
        _write(session, checked, "after")
    return result


def follow_undo(session: Session, result: Result | None) -> None:
    """A session listener: an undone check is taken out of the group's pack again (the
    card as it was, or no card), a redone one put back."""
    if result is None or not result.events:
        return
    event = result.events[0]
    head = entries.read(event.type, event.data)
    if not isinstance(head, Undone | Redone) or head.tx is None:
        return
    checked = session.log.head(head.tx)
    if not isinstance(checked, CardChecked):
        return
    with contextlib.suppress(workshop.WorkshopError):  # the pack changed hands since:
        _write(session, checked, "before" if isinstance(head, Undone) else "after")
