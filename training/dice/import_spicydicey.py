"""Bring the real dice photographs of yash-srivastava19/SpicyDicey (MIT) into the repository,
split by photograph for training, calibration and evaluation (issue 28).

That repository's `Data/<face>_Images/` holds, for each face, four 28x28 grey-scale
photographs the author took and cut out himself (its README): a dark red die with white pips
(`<face>_red.JPG`, `<face>_red_45.JPG`) and a white die with black pips (`<face>_white.JPG`,
`<face>_white_45.JPG`), straight and turned 45 degrees, the face in the folder and file name;
the other files there are flips and turns of these four made by its augmentation script, and
are left out.  Its `Test/` folder repeats the same files byte for byte, and its `Train/`
folder holds augmented copies of them, so neither adds a photograph.

Dice this small and grey are what the model misreads on the evaluation set's tomitomi3
thumbnails, and these two dice are dice it never saw.  The straight and the turned picture
of one die's face may be cut from the same photograph, so a die's face (both pictures) is
the unit that is never split: of the 12 die faces,

- red 1, 2, 3 and white 4, 5, 6 train the face classifier (`training/dice/real/`),
- red 4 and white 1 calibrate the unsure rule (`training/dice/real/`, split "calibration"),
- red 5, 6 and white 2, 3 join the evaluation set (`tests/fixtures/dice-real/`),

so each die's six faces are spread over the three parts and no picture of one die face is
on two sides.  (The split is fixed here, before any model read them.)  Each picture is
copied byte for byte (JPEG) under a lower-case name; its box is the whole picture (the
author cut it to the die); the faces are the source's folders, checked by eye on a contact
sheet of all 24.

    python -m training.dice.import_spicydicey --repo /path/to/SpicyDicey  # a clone or git dir
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np

from companion.table.dice_photos import labels_text
from training.dice.import_real import EVAL_DIR, TRAIN_DIR, _git

COMMIT = "496e163469b4386e1faeca3d7b7b2e8eb7ad0dbc"
REPO = "yash-srivastava19/SpicyDicey"
PREFIX = "spicy_"
EVAL_TABLE = 7  # the picture is all die, as chase's crops are (training/dice/realset.py)
SPLIT = {  # (die, face): the part its two pictures go to
    **{("red", f): "train" for f in (1, 2, 3)},
    **{("white", f): "train" for f in (4, 5, 6)},
    ("red", 4): "calibration",
    ("white", 1): "calibration",
    **{("red", f): "evaluation" for f in (5, 6)},
    **{("white", f): "evaluation" for f in (2, 3)},
}


def pictures() -> list[tuple[str, int, str]]:
    """(die, face, path in the source repository) for each of the 24 photographs."""
    return [
        (die, face, f"Data/{face}_Images/{face}_{die}{turn}.JPG")
        for face in range(1, 7)
        for die in ("red", "white")
        for turn in ("", "_45")
    ]


def name_of(path: str) -> str:
    """The file's name here: `spicy_<face>_<die>[_45].jpg`."""
    return PREFIX + Path(path).stem.lower() + ".jpg"


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m training.dice.import_spicydicey", description=__doc__
    )
    ap.add_argument("--repo", type=Path, required=True, help="a clone (or bare git dir)")
    a = ap.parse_args(argv)
    train_rows, eval_rows = [], []
    for die, face, path in pictures():
        data = _git(a.repo, "show", f"{COMMIT}:{path}")
        image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
        h, w = image.shape[:2]
        name = name_of(path)
        split = SPLIT[(die, face)]
        folder = EVAL_DIR if split == "evaluation" else TRAIN_DIR
        (folder / name).write_bytes(data)
        row = {"image": name, "dice": [{"box": [0, 0, w, h], "face": face}],
               "box_by": "the whole picture (the author's cut-out of one die)",
               "source": REPO}  # fmt: skip
        if split == "evaluation":
            eval_rows.append({**row, "table": EVAL_TABLE})
        else:
            train_rows.append({**row, "split": split})
    for folder, rows in ((TRAIN_DIR, train_rows), (EVAL_DIR, eval_rows)):
        record = json.loads((folder / "labels.json").read_text(encoding="utf-8"))
        kept = [p for p in record["photos"] if not p["image"].startswith(PREFIX)]
        (folder / "labels.json").write_text(labels_text(kept + rows), encoding="utf-8")
    print(f"{len(train_rows) + len(eval_rows)} pictures: {len(train_rows)} to {TRAIN_DIR}, "
          f"{len(eval_rows)} to {EVAL_DIR}")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
