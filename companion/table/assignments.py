"""Which physical die plays which role, remembered per session.

A role is a key built from a dice request's own fields, never from its words:

    "<who>:<role>"     one kind of roll by one player   ("stormbringer:battle",
                                                        "amara:skill:navigate")
    "<who>:<profile>"  every roll of that die by them  ("amara:skill_d10")
    "<who>"            every roll by them              ("stormbringer")
    "<profile>"        every roll of that die          ("fate_d8")

A request is answered by the dice of its most specific key that has dice (`keys_for`).
A profile id ("d6", "skill_d10") is never a player's id nor a game's role, which keeps
the four forms apart.

Stored as JSON in `<data home>/dice/<session id>.json`, written atomically so a crash
never leaves half a file.  Files from before roles were structured (no "version") are
read with their keys migrated (`migrate_key`).
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from companion.core.rules import DIE_PROFILES, Request

log = logging.getLogger("companion.table.assignments")

VERSION = 2  # 1: keys "<who>:<skill>" were matched against the words of a request


def keys_for(request: Request) -> list[str]:
    """The keys that may claim `request`'s dice, most specific first."""
    keys: list[str] = []
    if request.for_:
        if request.role:
            keys.append(f"{request.for_}:{request.role}")
        keys.append(f"{request.for_}:{request.profile}")
        keys.append(request.for_)
    keys.append(request.profile)
    return keys


def names_in(request: Request | None) -> dict[str, str]:
    """The rules' name for the player a request is for ({"stormbringer": "Stormbringer"})."""
    return {request.for_: request.who_name} if request is not None and request.for_ else {}


def key_words(key: str, names: Mapping[str, str] | None = None) -> str:
    """A key in a player's words: "Amara: skill: navigate", "Amara: any skill d10",
    "Amara: any roll", "any fate d8".  A player is named as `names` (the rules' names,
    `names_in`) says, else as the rules spell an id they did not name."""

    def who_words(who: str) -> str:
        return (names or {}).get(who) or Request("dice", "", who).who_name

    def die_words(profile: str) -> str:
        return Request("dice", "", profile=profile).die_name

    if key in DIE_PROFILES:
        return f"any {die_words(key)}"
    who, _, what = key.partition(":")
    if not what:
        return f"{who_words(who)}: any roll"
    if what in DIE_PROFILES:
        return f"{who_words(who)}: any {die_words(what)}"
    return f"{who_words(who)}: {what.replace('_', ' ').replace(':', ': ')}"


def migrate_key(key: str) -> str:
    """A version-1 key as it is read today.  "<profile>" and "<who>:<profile>" meant what
    they mean now.  "<who>:<word>" was documented as "<hero>:<skill>" and answered that
    hero's rolls whose words named the skill: the HEXplore skill check, whose role is
    now "skill:<skill>"."""
    who, _, what = key.partition(":")
    if not what or what in DIE_PROFILES or ":" in what:
        return key
    return f"{who}:skill:{what}"


def assignments_file(data_home: Path, session_id: str) -> Path:
    folder = data_home / "dice"
    folder.mkdir(parents=True, exist_ok=True)
    return folder / f"{session_id}.json"


@dataclass
class Assignments:
    roles: dict[str, list[str]] = field(default_factory=dict)
    session_id: str = ""
    data_home: Path | None = None  # where `save` writes; None: kept in memory only

    def assign(self, role: str, die_ids: list[str]) -> None:
        """Give `role` these dice; a die plays one role at a time, so it leaves any other."""
        for dice in self.roles.values():
            for d in die_ids:
                if d in dice:
                    dice.remove(d)
        self.roles = {r: d for r, d in self.roles.items() if d}
        if die_ids:
            self.roles[role] = list(die_ids)
        else:
            self.roles.pop(role, None)

    def role_of(self, die_id: str) -> str | None:
        for role, dice in self.roles.items():
            if die_id in dice:
                return role
        return None

    def dice_for(self, role: str) -> list[str]:
        return list(self.roles.get(role, ()))

    def claiming(self, request: Request) -> list[str] | None:
        """The dice of `request`'s most specific key that has any; None when no key does
        (then any die that plays no role answers)."""
        for key in keys_for(request):
            dice = self.roles.get(key)
            if dice:
                return list(dice)
        return None

    def save(self) -> None:
        if not self.session_id or self.data_home is None:
            return
        path = assignments_file(self.data_home, self.session_id)
        tmp = path.with_suffix(".json.tmp")
        data = {"version": VERSION, "roles": self.roles}
        tmp.write_text(json.dumps(data, indent=2, sort_keys=True))
        os.replace(tmp, path)

    @classmethod
    def load(cls, session_id: str, data_home: Path) -> Assignments:
        """The session's assignments; none (with a log line) if the file is unreadable."""
        path = assignments_file(data_home, session_id)
        if not path.exists():
            return cls(session_id=session_id, data_home=data_home)
        try:
            data = json.loads(path.read_text())
            version = data.get("version", 1)
            roles = {str(r): [str(d) for d in dice] for r, dice in data["roles"].items()}
            if not isinstance(version, int) or version > VERSION:
                raise ValueError(f"version {version} is newer than this app's {VERSION}")
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
            log.warning("dice assignments in %s could not be read (%s); starting afresh", path, exc)
            return cls(session_id=session_id, data_home=data_home)
        if version < VERSION:
            roles = _migrated(roles)
        return cls(roles, session_id, data_home)


def _migrated(old: dict[str, list[str]]) -> dict[str, list[str]]:
    """Version-1 roles under today's keys; keys that meet keep every die once."""
    out: dict[str, list[str]] = {}
    for key, dice in old.items():
        into = out.setdefault(migrate_key(key), [])
        into += [d for d in dice if d not in into]
    return out
