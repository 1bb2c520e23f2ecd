"""Which physical die plays which role, remembered per session.

A role is a profile id ("d3", "fate_d8") or "<who>:<what>" ("stormbringer:might") for
dice that belong to one player.  Stored as JSON in `data_home()/dice/<session id>.json`,
written atomically so a crash never leaves half a file.
"""

from __future__ import annotations

import json
import logging
import os
from dataclasses import dataclass, field
from pathlib import Path

from companion.paths import data_home

log = logging.getLogger("hardware.assignments")


def assignments_file(session_id: str) -> Path:
    folder = data_home() / "dice"
    folder.mkdir(parents=True, exist_ok=True)
    return folder / f"{session_id}.json"


@dataclass
class Assignments:
    roles: dict[str, list[str]] = field(default_factory=dict)
    session_id: str = ""

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

    def save(self) -> None:
        if not self.session_id:
            return
        path = assignments_file(self.session_id)
        tmp = path.with_suffix(".json.tmp")
        tmp.write_text(json.dumps({"roles": self.roles}, indent=2, sort_keys=True))
        os.replace(tmp, path)

    @classmethod
    def load(cls, session_id: str) -> Assignments:
        """The session's assignments; none (with a log line) if the file is unreadable."""
        path = assignments_file(session_id)
        if not path.exists():
            return cls(session_id=session_id)
        try:
            data = json.loads(path.read_text())
            roles = {str(r): [str(d) for d in dice] for r, dice in data["roles"].items()}
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
            log.warning("dice assignments in %s could not be read (%s); starting afresh", path, exc)
            return cls(session_id=session_id)
        return cls(roles, session_id)
