"""Photos of the table's own rolls, kept with the group's leave to train the camera on
its own dice (issue 28).

The camera's model was trained on other people's dice, tables and cameras, and the wall it
meets is the lack of real photos from many of them: no public, licence-clean set of them
exists.  A table that takes a roll with "Use these dice" has just looked at the preview
and set every die the camera read wrong, so the frame, the dice's boxes and the faces
taken are a labelled photo of that table's dice, as good as one labelled by hand: the
kind of photo the model lacks.  With the setting on (Settings, off until the group turns
it on: a photo of the table may show hands and cards), each such roll is kept here, in
the layout of the training set's own photos (`training/dice/real/labels.json`: one row a
photo, `"table": 1`, each die's box in the photo's pixels and its face), and
`training/dice/import_table.py` brings a copy into the training set.

The boxes are the reader's own finds: a die's box is where the camera found it, which
the table saw drawn around each die before it took the roll.  Rolls taken by themselves
(still dice, a phone's photo answered at once) were not looked at and are not kept.

Kept on this tablet only, in `<data home>/dice-photos/`, the latest `KEEP` photos; nothing
is sent anywhere by itself.  A photo that cannot be written costs the photo, never the roll.
`pack` writes them as one zip for the group to carry to the computer that trains (Settings,
"Share the photos": a tablet's data folder is out of its owner's reach on Android).
"""

from __future__ import annotations

import json
import logging
import os
import re
import zipfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING, TypedDict, cast

if TYPE_CHECKING:
    import numpy as np

log = logging.getLogger(__name__)

FOLDER = "dice-photos"  # in the data home
LABELS = "labels.json"
KEEP = 300  # a few hundred rolls: some 60 MB at 1280x720 (bench_dice_photos)
QUALITY = 92  # JPEG: the pips' edges kept, a tenth of the raw frame's size
SOURCE = "this table's own rolls, taken with Use these dice"
BOX_BY = "the camera's finds, each seen drawn on the preview before the table took the roll"
PHOTO_NAME = re.compile(r"table_(\d+)\.jpg")
README = """Photos of one table's own dice rolls, kept by Table Companion with the group's leave.

labels.json: one row a photo, each die's box in the photo's pixels and the face the table
took.  To train the camera on these dice, from a copy of the Table Companion repository:

    python -m training.dice.import_table --photos dice-photos.zip --name ourtable

then the recipes in training/README.md.
"""

Box = Sequence[int]


class Die(TypedDict):
    box: list[int]  # x0, y0, x1, y1 in the photo's pixels
    face: int  # the face the table took


class Row(TypedDict, total=False):
    """One kept photo's labels, a row of labels.json (`split` is the importer's)."""

    image: str
    dice: list[Die]
    table: int
    width: int
    height: int
    model: str
    box_by: str
    source: str
    split: str


@dataclass
class DicePhotos:
    """The kept photos in `folder` and their labels (read from disk at each ask: a few
    hundred short rows, asked when Settings opens or a roll is kept)."""

    folder: Path

    @property
    def labels(self) -> Path:
        return self.folder / LABELS

    def rows(self) -> list[Row]:
        """One row a kept photo whose file is there.  A damaged labels file reads as none
        kept (with a log line): the photos stay on disk until forgotten."""
        if not self.labels.exists():
            return []
        try:
            record = json.loads(self.labels.read_text(encoding="utf-8"))
            rows = [cast(Row, r) for r in record["photos"] if self._kept(r["image"])]
        except (OSError, ValueError, KeyError, TypeError) as exc:
            log.warning("the kept dice photos' labels %s could not be read (%s)", self.labels, exc)
            return []
        return rows

    def size(self) -> int:
        """Bytes on disk, the labels with the photos."""
        return sum(p.stat().st_size for p in self.folder.glob("*") if p.is_file())

    def keep(self, frame: np.ndarray, dice: Sequence[tuple[Box, int]], model: str) -> str | None:
        """Keep `frame` with its dice's boxes and the faces the table took; the photo's
        file name, or None when it could not be written (a full disk, a read-only home)."""
        import cv2

        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            name = f"table_{self._next():05d}.jpg"
            ok, jpeg = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, QUALITY])
            if not ok:
                raise OSError("the photo could not be encoded")
            (self.folder / name).write_bytes(jpeg.tobytes())
            row: Row = {
                "image": name,
                "dice": [{"box": [int(v) for v in box], "face": int(face)} for box, face in dice],
                "table": 1,
                "width": int(frame.shape[1]),
                "height": int(frame.shape[0]),
                "model": model,
                "box_by": BOX_BY,
                "source": SOURCE,
            }
            rows = [*self.rows(), row]
            for old in rows[:-KEEP]:
                (self.folder / old["image"]).unlink(missing_ok=True)
            self._write(rows[-KEEP:])
        except OSError as exc:
            log.warning("a photo of the dice could not be kept in %s (%s)", self.folder, exc)
            return None
        return name

    def pack(self, out: IO[bytes]) -> int:
        """Write every kept photo, its labels and a few words on what they are as one zip
        under a `dice-photos/` folder (the layout `import_table` reads); the photos packed.
        The JPEGs are stored, not squeezed again: they would not shrink."""
        rows = self.rows()
        with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as archive:
            archive.writestr(f"{FOLDER}/{LABELS}", labels_text(rows), zipfile.ZIP_DEFLATED)
            archive.writestr(f"{FOLDER}/README.txt", README, zipfile.ZIP_DEFLATED)
            for row in rows:
                archive.write(self.folder / row["image"], f"{FOLDER}/{row['image']}")
        return len(rows)

    def forget(self) -> None:
        """Delete every kept photo and its labels: the app's own files only (anything a
        person put in the folder stays)."""
        ours = {LABELS, self._tmp().name}
        for path in self.folder.glob("*"):
            if path.is_file() and (path.name in ours or PHOTO_NAME.fullmatch(path.name)):
                path.unlink(missing_ok=True)

    def _kept(self, image: object) -> bool:
        """A row's photo is one of ours and on disk (a damaged row never names a file
        outside the folder, which `keep` would delete as the oldest)."""
        return (
            isinstance(image, str)
            and bool(PHOTO_NAME.fullmatch(image))
            and (self.folder / image).is_file()
        )

    def _next(self) -> int:
        """One past the highest photo number on disk, labelled or not: a photo whose
        labels were lost is never written over."""
        numbers = [
            int(m.group(1))
            for p in self.folder.glob("table_*.jpg")
            if (m := PHOTO_NAME.fullmatch(p.name))
        ]
        return max(numbers, default=0) + 1

    def _tmp(self) -> Path:
        return self.labels.with_suffix(".json.tmp")

    def _write(self, rows: list[Row]) -> None:
        """Written whole or not at all."""
        tmp = self._tmp()
        tmp.write_text(labels_text(rows), encoding="utf-8")
        os.replace(tmp, self.labels)


def size_words(size: int) -> str:
    """Bytes as a player reads them: a photo is a few hundred kilobytes."""
    return f"{size / 1e6:.1f} MB" if size >= 1e6 else f"{max(1, round(size / 1e3))} KB"


def labels_text(rows: Sequence[Mapping[str, object]]) -> str:
    """A labels.json of photos, one photo a line, as the training and evaluation sets'
    own (read and diffed by people as well as programs)."""
    return '{"photos": [\n' + ",\n".join("  " + json.dumps(r) for r in rows) + "\n]}\n"
