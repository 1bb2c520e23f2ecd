"""Bring the real dice photographs of chaseelliottpatterson/dice-reader (MIT) into the
repository, split by photograph for training, calibration and evaluation (issue 28).

That repository's `data/dice-class-cropped-organized/{train,test,val}/<face>/` holds 279
crops of single dice, each sorted into a folder by its top face: a red and a blue
translucent casino die on green felt, photographed from above with a DJI camera on
2024-10-05 (the file names say when: `DJI_<date><time>_<frame>_D_detection_<n>.jpg`).
Its own three folders share photographs (the two dice of one photo often sit in
different folders), so they are not used as splits.  Instead the 139 photographs are put
in time order and cut in three runs, so no photograph (and no near-identical frame next to
it) is on two sides:

- the first 55% (76 photos) train the face classifier (`training/dice/real/`),
- the next 15% (21 photos) calibrate the unsure rule (`training/dice/real/`, split
  "calibration"; never trained on),
- the last 30% (42 photos) join the evaluation set (`tests/fixtures/dice-real/`), never
  trained or tuned on.

Each crop is copied byte for byte (JPEG, about 55 to 80 pixels square); its box is the whole
crop (the source's detector cut it).  The faces are the source's folders, checked by eye on
contact sheets of every crop.

    git clone https://github.com/chaseelliottpatterson/dice-reader /tmp/dice-reader
    python -m training.dice.import_real --repo /tmp/dice-reader
"""

from __future__ import annotations

import argparse
import json
import subprocess
from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np

from companion.table.dice_photos import labels_text

ROOT = Path(__file__).resolve().parents[2]
TRAIN_DIR = ROOT / "training" / "dice" / "real"
EVAL_DIR = ROOT / "tests" / "fixtures" / "dice-real"
COMMIT = "ee67b7241b1f8087ca5f9b76ee3ef167f02f1f91"
SOURCE = "data/dice-class-cropped-organized"
PREFIX = "chase_"
SHARES = (0.55, 0.15)  # training, calibration; the rest is evaluation
EVAL_TABLE = 7


def _git(repo: Path, *args: str) -> bytes:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True).stdout


def crops(repo: Path) -> list[tuple[str, int, str]]:
    """(photo id, face, path in the source repository) for every labelled crop."""
    names = _git(repo, "ls-tree", "-r", "--name-only", COMMIT, SOURCE).decode().splitlines()
    out = []
    for path in names:
        parts = path.split("/")
        if len(parts) == 5 and path.lower().endswith((".jpg", ".jpeg", ".png")):
            photo = parts[4].split("_detection")[0]
            out.append((photo, int(parts[3]), path))
    return sorted(out)


def split_of(photos: Sequence[str]) -> dict[str, str]:
    """Photo id to "train", "calibration" or "evaluation", in time order."""
    order = sorted(set(photos))
    n_train = round(len(order) * SHARES[0])
    n_cal = round(len(order) * SHARES[1])
    return {
        p: "train" if i < n_train else "calibration" if i < n_train + n_cal else "evaluation"
        for i, p in enumerate(order)
    }


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m training.dice.import_real", description=__doc__)
    ap.add_argument("--repo", type=Path, required=True, help="a clone (or bare git dir)")
    a = ap.parse_args(argv)
    rows = crops(a.repo)
    splits = split_of([p for p, _, _ in rows])
    TRAIN_DIR.mkdir(parents=True, exist_ok=True)
    train_rows, eval_rows = [], []
    for photo, face, path in rows:
        data = _git(a.repo, "show", f"{COMMIT}:{path}")
        image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
        h, w = image.shape[:2]
        name = PREFIX + Path(path).name
        split = splits[photo]
        folder = EVAL_DIR if split == "evaluation" else TRAIN_DIR
        (folder / name).write_bytes(data)
        row = {"image": name, "dice": [{"box": [0, 0, w, h], "face": face}],
               "box_by": "the source's crop", "source": "chaseelliottpatterson/dice-reader"}  # fmt: skip
        if split == "evaluation":
            # The crop is all die: on a table 7 times its size the die is about 13% of the
            # table's side, as the thumbnails' dice are on theirs (training/dice/realset.py).
            eval_rows.append({**row, "table": EVAL_TABLE})
        else:
            train_rows.append({**row, "split": split})
    # Each folder keeps its other sources' photos (training/dice/import_spicydicey.py).
    for folder, new_rows in ((TRAIN_DIR, train_rows), (EVAL_DIR, eval_rows)):
        labels = folder / "labels.json"
        record = json.loads(labels.read_text(encoding="utf-8")) if labels.exists() else {}
        kept = [p for p in record.get("photos", []) if not p["image"].startswith(PREFIX)]
        labels.write_text(labels_text(kept + new_rows), encoding="utf-8")
    counts = {s: sum(1 for v in splits.values() if v == s) for s in set(splits.values())}
    print(f"{len(rows)} crops of {len(splits)} photos; photos per split {counts}; "
          f"{len(train_rows)} crops to {TRAIN_DIR}, {len(eval_rows)} to {EVAL_DIR}")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
