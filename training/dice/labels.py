"""The labelled synthetic photographs of one or more `training.dice.synth` folders, read for
training and calibration (torch-free, so calibration and the tests need no torch).

Several folders make one mixed set: the sixth model's detector trains, and its unsure rule
is chosen, on the old look (`data/dice-synth`) and the real look (`data/dice-synth5`)
together.  Each folder keeps its own split (every tenth image, index 9, 19, ..., validates)
and its own `limit`, so a mix of two 1200-image folders validates on 120 photos of each.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path


def load_labels(folders: Path | Sequence[Path], limit: int | None) -> list[dict]:
    """The labelled images on disk, the first `limit` of each folder (a folder still being
    written is read so far).  Each row gets "path": its image's path, folder included."""
    rows = []
    for folder in [folders] if isinstance(folders, Path) else folders:
        taken = 0
        with open(folder / "labels.jsonl", encoding="utf-8") as f:
            for line in f:
                if not line.endswith("\n") or (limit and taken >= limit):
                    break
                row = json.loads(line)
                if (folder / row["image"]).exists():
                    rows.append({**row, "path": str(folder / row["image"])})
                    taken += 1
    return rows


def is_val(row: dict) -> bool:
    """Whether a photo validates (never trained on): index 9, 19, ... of its folder."""
    return int(Path(row["image"]).stem) % 10 == 9
