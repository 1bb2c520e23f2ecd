"""The shipped dice models copied for a test to change: a model of another rule, a damaged
or half-copied one (tests of the reader, the CLI and the table's own model)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from vision.dice.reader import MODELS


def copy_models(folder: Path) -> Path:
    """The shipped model's files in `folder` (made if missing)."""
    folder.mkdir(parents=True, exist_ok=True)
    for f in MODELS.iterdir():
        shutil.copy(f, folder / f.name)
    return folder


def edit_record(models: Path, **changes: object) -> dict:
    """The classifier's record in `models` with these keys set (None: taken out)."""
    path = models / "dice_faces.json"
    record = json.loads(path.read_text(encoding="utf-8"))
    for key, value in changes.items():
        if value is None:
            record.pop(key, None)
        else:
            record[key] = value
    path.write_text(json.dumps(record), encoding="utf-8")
    return record
