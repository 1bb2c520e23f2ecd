"""Bring a table's own kept roll photos (`companion/table/dice_photos.py`: Settings, "Keep
photos of our rolls") into a training set, to train and calibrate the dice reader on that
table's dice (issue 28).

A group that kept photos copies its tablet's `<data home>/dice-photos/` folder to the
machine that trains, or downloads it as `dice-photos.zip` from the link Settings' "Share
the photos with a computer" shows (`companion/host/photo_share.py`), and names the table (a few letters: the photos of several tables
live side by side, each under its own name).  Each photo is copied as it is, as
`table_<name>_<file>`, with its boxes (the camera's finds, which the table saw drawn before
it took the roll) and the faces the table took, marked `"table": 1` (whole photos, read
as they are), the table's name as its source (each table weighed as one rig among the
others by `train --real-balance`).  The first two thirds of the photos, in the order they were taken, train
the networks and the last third calibrate the unsure rule (`split`), so the rule is
checked on rolls the networks never saw, as the chase photos were cut in time
(`import_real.py`); a set of one photo only trains.  Importing a table again replaces its
earlier copy.  The evaluation set (tests/fixtures/dice-real) is never touched.

    python -m training.dice.import_table --photos /path/to/dice-photos --name ourtable
    python -m training.dice.import_table --photos dice-photos.zip --name ourtable
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import tempfile
import zipfile
from collections.abc import Sequence
from pathlib import Path

from companion.table.dice_photos import FOLDER, LABELS, PHOTO_NAME, DicePhotos, Row, labels_text
from training.dice.import_real import TRAIN_DIR

CALIBRATE = 1 / 3  # the share of a table's photos, its latest, that calibrate
NAME = re.compile(r"[a-z0-9]{1,20}")


def split_of(index: int, count: int) -> str:
    """The photo `index` (in the order taken) of `count`: the latest third calibrate."""
    return "calibration" if index >= count - int(count * CALIBRATE) else "train"


def bring(photos: Path, name: str, into: Path = TRAIN_DIR) -> list[Row]:
    """Copy the kept photos at `photos` (the folder, or the zip the tablet's share link
    downloads) into the training folder `into` as table `name`'s rows (its earlier copy
    replaced); the rows brought."""
    if not NAME.fullmatch(name):
        raise ValueError(f"name the table with 1 to 20 small letters or digits, not {name!r}")
    if photos.is_file():
        with tempfile.TemporaryDirectory() as unpacked:
            return bring(unzip(photos, Path(unpacked)), name, into)
    rows = DicePhotos(photos).rows()
    if not rows:
        raise ValueError(f"no kept photos with labels in {photos}")
    prefix = f"table_{name}_"
    labels = into / "labels.json"
    record = json.loads(labels.read_text(encoding="utf-8")) if labels.exists() else {}
    kept = [p for p in record.get("photos", []) if not p["image"].startswith(prefix)]
    for old in into.glob(f"{prefix}*"):
        old.unlink()
    brought = []
    for i, row in enumerate(rows):
        image = prefix + row["image"]
        shutil.copyfile(photos / row["image"], into / image)
        split = split_of(i, len(rows))
        brought.append({**row, "image": image, "split": split, "source": f"table {name}"})
    labels.write_text(labels_text(kept + brought), encoding="utf-8")
    return brought


def unzip(archive: Path, into: Path) -> Path:
    """The zip's labels and photos, and nothing else, unpacked flat into `into` (no name
    in the zip chooses where a file goes)."""
    try:
        with zipfile.ZipFile(archive) as z:
            for member in z.infolist():
                folder, _, leaf = member.filename.rpartition("/")
                if folder in ("", FOLDER) and (leaf == LABELS or PHOTO_NAME.fullmatch(leaf)):
                    (into / leaf).write_bytes(z.read(member))
    except (zipfile.BadZipFile, OSError) as exc:
        raise ValueError(f"{archive} is not the tablet's zip of dice photos ({exc})") from None
    return into


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m training.dice.import_table", description=__doc__)
    ap.add_argument("--photos", type=Path, required=True, help="a copy of the dice-photos folder")
    ap.add_argument("--name", required=True, help="the table's name: small letters and digits")
    ap.add_argument("--into", type=Path, default=TRAIN_DIR, help="the training set's folder")
    a = ap.parse_args(argv)
    try:
        rows = bring(a.photos, a.name, a.into)
    except ValueError as exc:
        raise SystemExit(str(exc)) from None
    dice = sum(len(r["dice"]) for r in rows)
    calibrate = sum(r["split"] == "calibration" for r in rows)
    print(f"{len(rows)} photos ({dice} dice) of table {a.name} to {a.into}: "
          f"{len(rows) - calibrate} train, {calibrate} calibrate")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
