"""The player's own settings, kept in the user data folder so every session shares them.

Stored as plain JSON beside the sessions (never in Kivy's config) so the CLI, the app and
a backup all see the same file; unknown or damaged entries fall back to defaults instead
of stopping the app at the table.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path

from companion.jsontypes import JsonObject
from companion.paths import settings_file

TEXT_SIZES: dict[str, float] = {"Normal": 1.0, "Large": 1.25, "Larger": 1.5, "Largest": 1.8}
THEMES = ("dark", "light")


@dataclass
class UserSettings:
    theme: str = "dark"
    text_size: str = "Normal"
    camera: int = 0  # index of the camera to use; -1 means no camera
    keep_awake: bool = True
    cues: bool = True  # a chime and a buzz when the table must roll or show a card
    still_dice: bool = False  # camera dice: take the roll when the dice are still
    keep_dice_photos: bool = False  # camera dice: keep looked-at rolls' photos to train on
    packs: dict[str, list[str]] = field(default_factory=dict)  # game id -> packs for new games

    @property
    def font_scale(self) -> float:
        return TEXT_SIZES.get(self.text_size, 1.0)

    def packs_for(self, game_id: str) -> list[str]:
        """The packs chosen in Settings, else the demo with the group's own over it."""
        from companion.content.pack import default_packs

        return list(self.packs.get(game_id) or default_packs(game_id))

    @classmethod
    def load(cls, path: Path | None = None) -> UserSettings:
        path = path or settings_file()
        try:
            raw = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return cls()
        if not isinstance(raw, dict):
            return cls()
        out = cls()
        for f in fields(cls):
            value = raw.get(f.name)
            default = getattr(out, f.name)
            if value is not None and isinstance(value, type(default)):
                setattr(out, f.name, value)
        if out.theme not in THEMES:
            out.theme = "dark"
        if out.text_size not in TEXT_SIZES:
            out.text_size = "Normal"
        return out

    def save(self, path: Path | None = None) -> None:
        """Write atomically: a crash mid-save keeps the previous settings."""
        path = path or settings_file()
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(json.dumps(asdict(self), indent=2, sort_keys=True), encoding="utf-8")
        os.replace(tmp, path)

    def to_json(self) -> JsonObject:
        return asdict(self)
