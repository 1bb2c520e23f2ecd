"""Bring the whole-table dice photographs of DamianTab/DiceDetection (Apache-2.0) into the
repository, to train the dice reader on real tables and calibrate its unsure rule (issue 28).

That repository's `myphotos/dice01.jpg` ... `dice80.jpg` are the author's own phone photos
(907x1209, the program read "photos in folder myphotos"): one to five ivory dice with
black pips lying on a beige or dark carpet, a white board, wood or a black-and-white woven
fabric, from above or a little aslant, some blurred or in hard shadow.  One phone and one
set of dice: another rig than any other source here, and dice no model here trained on.

The labels are in `training/dice/damiantab_labels.json`, in the source photos' own pixels:
every die's box (the whole die, every face of it that shows) drawn by eye on a grid over
each photo and its top face read by eye, each checked on a contact sheet of every die,
before any reader's answers on these photos were scored.  The photos on carpet (1 to 20,
five dice each; 31 to 50, one six each) train both networks, and those on a white board (21
to 30), wood (51 to 70) and woven fabric (71 to 80) calibrate the unsure rule (`split` in
`training/dice/real/labels.json`; none joins the evaluation set), so the rule is chosen on
grounds the networks never saw.  (The tenth model split them odd and even, every ground on
both sides; its rule, chosen on its training rig, was too lenient elsewhere.)  Each is
shrunk to `LONG` pixels on its long side (the repository's size; the boxes scaled with it)
and saved as JPEG, marked `"table": 1` (whole photos, read as they are).

    python -m training.dice.import_damiantab --repo /path/to/DiceDetection  # a clone or git dir
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np

from companion.table.dice_photos import labels_text
from training.dice.import_real import TRAIN_DIR, _git

COMMIT = "5f5598c8e50421d4e163c1481b2e5b85770e92b1"
REPO = "DamianTab/DiceDetection"
PREFIX = "damian_"
LONG = 640  # the long side kept, pixels
QUALITY = 85
LABELS = Path(__file__).resolve().parent / "damiantab_labels.json"


def name_of(path: str) -> str:
    """`myphotos/dice07.jpg` is `damian_07.jpg` here."""
    return PREFIX + Path(path).stem.removeprefix("dice") + ".jpg"


def shrink(image: np.ndarray, dice: list[dict]) -> tuple[np.ndarray, list[dict]]:
    """The photo with its long side `LONG`, and its dice's boxes scaled with it."""
    h, w = image.shape[:2]
    s = LONG / max(h, w)
    small = cv2.resize(image, (round(w * s), round(h * s)), interpolation=cv2.INTER_AREA)
    sh, sw = small.shape[:2]
    scaled = [
        {"box": [min(sw, round(x0 * s)), min(sh, round(y0 * s)), min(sw, round(x1 * s)),
                 min(sh, round(y1 * s))], "face": d["face"]}
        for d in dice
        for x0, y0, x1, y1 in [d["box"]]
    ]  # fmt: skip
    return small, scaled


TRAIN = set(range(1, 21)) | set(range(31, 51))  # the carpet photos


def split_of(path: str) -> str:
    """The carpet photos train; the white board, wood and fabric ones calibrate."""
    return "train" if int(Path(path).stem.removeprefix("dice")) in TRAIN else "calibration"


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m training.dice.import_damiantab", description=__doc__
    )
    ap.add_argument("--repo", type=Path, required=True, help="a clone (or bare git dir)")
    a = ap.parse_args(argv)
    labels = json.loads(LABELS.read_text(encoding="utf-8"))
    rows = []
    for photo in labels["photos"]:
        data = _git(a.repo, "show", f"{COMMIT}:{photo['photo']}")
        image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
        if list(image.shape[1::-1]) != labels["size"]:
            raise SystemExit(f"{photo['photo']} is {image.shape[1]}x{image.shape[0]}, not the "
                             f"{labels['size']} its labels were drawn on")  # fmt: skip
        small, dice = shrink(image, photo["dice"])
        name = name_of(photo["photo"])
        ok, jpeg = cv2.imencode(".jpg", small, [cv2.IMWRITE_JPEG_QUALITY, QUALITY])
        assert ok
        (TRAIN_DIR / name).write_bytes(jpeg.tobytes())
        rows.append({"image": name, "dice": dice, "table": 1,
                     "box_by": "hand, on the source photo (damiantab_labels.json)",
                     "source": REPO, "split": split_of(photo["photo"])})  # fmt: skip
    record = json.loads((TRAIN_DIR / "labels.json").read_text(encoding="utf-8"))
    kept = [p for p in record["photos"] if not p["image"].startswith(PREFIX)]
    (TRAIN_DIR / "labels.json").write_text(labels_text(kept + rows), encoding="utf-8")
    print(f"{len(rows)} photos, {sum(len(r['dice']) for r in rows)} dice, to {TRAIN_DIR}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
