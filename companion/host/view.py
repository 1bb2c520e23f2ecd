"""What a phone shows, read from the session: the waiting roll or draw, the buttons the
rules offer, the last step's result card and every hero at a glance.

Everything here is read, never decided: the request's faces and options come from the
request, the buttons from the core's `Session.actions()` (the game's `legal_actions`), the result lines from the game's own `describe`.  Ids are turned into
names before they leave the tablet, so a phone never shows one.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from typing import TYPE_CHECKING, TypedDict

import msgspec

from companion.core.game import field_label
from companion.core.rules import DIE_FACES, Action, Request

if TYPE_CHECKING:
    from companion.core.session import Session


def pretty(item_id: str) -> str:
    """The last part of an id as words, for when content has no title for it."""
    return item_id.rsplit("/", 1)[-1].replace("_", " ").strip().capitalize()


def name_of(session: Session, item_id: str) -> str:
    """A name for an id: the content's title, else the id's last part in words."""
    if not item_id:
        return ""
    item = session.content.by_id(item_id)
    title = getattr(item, "title", None) or getattr(item, "name", None)
    return str(title) if title else pretty(item_id)


def revision(session: Session) -> int:
    """The log's revision the session in memory shows: the sequence number of the newest
    row it has taken in (its own or another program's).  Not the file's newest row: a
    state a phone is sent must carry the revision it was built from, so a command made
    against it is recognised as made against an older state once the file moved on."""
    taken_in = getattr(session, "last_seq", None)  # Session keeps it; a stand-in may not
    if isinstance(taken_in, int):
        return taken_in
    return int(session.store.last_seq())


def waiting_key(session: Session) -> str:
    """A short fingerprint of what is waiting now (the transaction that asked, the request and
    the answers so far), so a phone's answer to a request that was answered meanwhile, even
    by the same kind of roll asked again, is recognised as stale."""
    pending = getattr(session, "pending", None)
    if pending is None:
        return ""
    opened = next(
        (
            rows[0].tx
            for rows in reversed(session.history())
            if any(r.type == "RequestOpened" for r in rows)
        ),
        -1,
    )
    blob = json.dumps([opened, pending.to_json()], sort_keys=True, default=str).encode()
    return hashlib.sha256(blob).hexdigest()[:16]


def legal_actions(session: Session) -> list[Action]:
    """The rules' legal actions now (the core's `Session.actions()`); none while something
    waits on chance, since the phone answers that from the request (keypad or cards)."""
    if getattr(session, "pending", None) is not None:
        return []
    try:
        listed = session.actions()
    except NotImplementedError:
        return []  # a game that does not list its actions yet: the phone shows none
    return list(listed.get("actions", []))


def waiting_view(session: Session, request: Request | None) -> dict[str, object] | None:
    if request is None:
        return None
    out: dict[str, object] = {
        "kind": request.kind,
        "who": request.who_name if request.for_ or request.who else "",
        "why": request.why,
        "key": waiting_key(session),
    }
    if request.kind == "dice":
        faces = DIE_FACES.get(request.profile) or tuple((str(v), v) for v in request.faces)
        seen: dict[int, str] = {}
        for label, value in faces:
            seen.setdefault(value, label)
        out.update(
            count=request.count,
            die=request.die_name,
            faces=[{"label": label, "value": value} for value, label in sorted(seen.items())],
        )
    else:
        out.update(
            deck=pretty(request.deck),
            options=[{"card": o, "name": name_of(session, o)} for o in request.options],
        )
    return out


def result_view(session: Session) -> dict[str, object] | None:
    """The game's last step, as the tablet's result card shows it (`Session.last_step`)."""
    step = session.last_step()
    if step is None:
        return None
    return {"title": step["title"], "lines": list(step["lines"])[:12]}


def _glance(value: object) -> bool:
    return isinstance(value, bool | int) or (isinstance(value, str) and 0 < len(value) <= 40)


def heroes_view(session: Session) -> list[dict[str, object]]:
    """Each hero's name and plain numbers and flags, for the phone's "my hero" card."""
    heroes = getattr(session.state, "heroes", None)
    if not isinstance(heroes, dict):
        return []
    out = []
    for hero_id, hero in heroes.items():
        data = msgspec.to_builtins(hero) if not isinstance(hero, dict) else hero
        if not isinstance(data, dict):
            continue
        name = data.get("name") or name_of(session, data.get("card") or hero_id)
        if name == pretty(hero_id) and session.content.by_id(hero_id) is None:
            name = name_of(session, hero_id)
        facts = []
        for key, value in data.items():
            if key in ("name", "card") or not _glance(value):
                continue
            if isinstance(value, str):
                value = name_of(session, value) if "/" in value else value.replace("_", " ")
            elif isinstance(value, bool):
                value = "yes" if value else "no"
            facts.append({"label": field_label(session.game, key), "value": str(value)})
        out.append({"id": hero_id, "name": str(name), "facts": facts})
    return out


# `Table.whose`: the phone that made a transaction, in words; None for the tablet's own.
Whose = Callable[[int], str | None]

TOOK_BACK = {"Undone": "took back", "Redone": "brought back"}


def notice_view(session: Session, whose: Whose | None = None) -> dict[str, object] | None:
    """Words for a phone when the newest step changed what it may have been looking at: an
    undo, a redo or a correction (from the tablet, the CLI beside it, or a phone), so a
    player whose roll just vanished reads why.  `whose(tx)` names the phone that made a
    transaction, or None for the tablet.  None while the newest step is a plain move."""
    tx = int(session.store.last_tx())
    if tx < 1:
        return None
    head = session.history_of(tx)[0]
    who = (whose(tx) if whose is not None else None) or "The tablet"
    if head.type in TOOK_BACK:
        target = session.history_of(int(head.data["tx"]))
        words = (session.describe(target[0]) if target else "") or "a step"
        text = f"{who} {TOOK_BACK[head.type]}: {words}."
    elif head.type == "Corrected":
        path = str(head.data.get("path", "")).replace(".", " ").replace("_", " ")
        text = (
            f"{who} corrected {path}: {_shown(session, head.data.get('previous'))} is now "
            f"{_shown(session, head.data.get('value'))}."
        )
    else:
        return None
    return {"tx": tx, "kind": head.type.lower(), "text": text}


def _shown(session: Session, value: object) -> str:
    if isinstance(value, str) and "/" in value:
        return name_of(session, value)
    return json.dumps(value) if not isinstance(value, str | int | float) else str(value)


def action_group(session: Session, action: Action) -> dict[str, str]:
    """How the rules group an action, so a phone lays its buttons out as they do: the
    phase its command is declared in (the game's `Commands` table, e.g. HEXplore's Game
    Turn phases) and the hero it is for (its `hero` argument), when it names one."""
    commands = session.game.commands
    try:
        phase = commands.phase_of(action["do"]) if commands is not None else ""
    except KeyError:  # a command the table does not declare: no phase to group it by
        phase = ""
    out = {"phase": phase}
    hero = (action.get("with") or {}).get("hero")
    if isinstance(hero, str) and hero:
        out["hero"] = hero
    return out


class TableView(TypedDict):
    """What `table_view` sends a phone (as the page's `state` message)."""

    rev: int
    game: str
    summary: str
    waiting: dict[str, object] | None
    actions: list[dict[str, object]]
    result: dict[str, object] | None
    heroes: list[dict[str, object]]
    notice: dict[str, object] | None


def table_view(session: Session, whose: Whose | None = None) -> TableView:
    """Everything a phone renders, stamped with the log's revision."""
    actions: list[dict[str, object]] = []
    for a in legal_actions(session):
        button: dict[str, object] = {
            "do": a["do"],
            "with": a.get("with", {}),
            "label": a.get("label") or pretty(a["do"]),
        }
        if a.get("primary"):
            button["primary"] = True
        actions.append(button | action_group(session, a))
    return {
        "rev": revision(session),
        "game": session.game.title,
        "summary": session.game.summary(session.state) or "",
        "waiting": waiting_view(session, session.request),
        "actions": actions,
        "result": result_view(session),
        "heroes": heroes_view(session),
        "notice": notice_view(session, whose),
    }
