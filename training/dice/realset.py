"""The real-photograph evaluation set of the dice reader (issue 28), never trained or tuned
on, in `tests/fixtures/dice-real/` (its SOURCES.md gives each source and its licence text):

- `grey_NN.png`, `white_NN.png` (48 photos, one die each): the two sample sheets of N.
  Tomi's "Dice Recognition Datasets for Machine Learning" (github.com/tomitomi3/
  DiceRecognitionDatasetForML, MIT), each thumbnail cut out whole; faces labelled by
  looking, boxes by a brightness threshold checked by eye (13 by hand).
- `chase_*.jpg` (86 crops of one die each, 42 photos): the last 30% in time of the
  photographs of github.com/chaseelliottpatterson/dice-reader (MIT), a red and a blue
  translucent casino die on green felt; the first 70% train and calibrate the model
  (`training/dice/real/`, `training/dice/import_real.py`).
- `ckleiber_ex1.jpg`, `ckleiber_ex2.jpg` (2 photos, 7 dice each, 640x480): the example
  outputs of github.com/CKleiber/Real_Time_Dice_Count (MIT), cream dice on a dark table
  from above, with the source's own coloured boxes and labels drawn on them.
- `spicy_<face>_<die>[_45].jpg` (8 photos, one die each, 28x28 grey-scale): a dark red
  die with white pips and a white die with black pips from github.com/yash-srivastava19/
  SpicyDicey (MIT), four of their twelve faces; the other faces train and calibrate the
  model (`training/dice/real/`, `training/dice/import_spicydicey.py`).

A thumbnail or crop is a close-up: its die is half the picture's side or more, while the
camera over a table sees a die at 3.5% to 16% of the frame's short side (the range the
detector is trained on, training/dice/synth.py).  So `photos()` lays such a picture in the
middle of a plain table `table` times its size (5 unless the photo's label says otherwise:
7 for the crops, 1 for the photos of a whole table), the colour of the picture's own edge,
which puts its die at about 9% to 13%: the die's pixels are the photograph's, untouched.
(The factor follows from those ranges, not from the reader's score.)  `photos(table=1)`
gives the pictures as they are.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np

REAL = Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "dice-real"
Truth = list[tuple[Sequence[float], int]]


def on_table(image: np.ndarray, table: int) -> tuple[np.ndarray, int, int]:
    """The picture in the middle of a plain table `table` times its size; returns the table
    and where the picture's top-left corner lies on it."""
    h, w = image.shape[:2]
    edge = np.concatenate([image[0], image[-1], image[:, 0], image[:, -1]])
    colour = np.median(edge, axis=0).astype(np.uint8)
    out = np.empty((h * table, w * table, 3), np.uint8)
    out[:] = colour
    y, x = (h * table - h) // 2, (w * table - w) // 2
    out[y : y + h, x : x + w] = image
    return out, x, y


SOURCES = {  # file-name prefix: the set's part it comes from
    "grey_": "tomitomi3",
    "white_": "tomitomi3",
    "chase_": "chase",
    "ckleiber_": "ckleiber",
    "spicy_": "spicydicey",
    "damian_": "damiantab",  # training/dice/real only: its photos train and calibrate
}


def source(name: str) -> str:
    """The part of the set a photo belongs to, by its file name."""
    return next(v for k, v in SOURCES.items() if name.startswith(k))


def is_table(row: dict) -> bool:
    """A labelled photo of a whole table (`"table": 1`: read as it is), not a crop of one
    die (laid on a plain table first)."""
    return int(row.get("table", 0)) == 1


def laid(folder: Path, row: dict, factor: int) -> tuple[np.ndarray, Truth]:
    """One labelled photo of `folder` (its labels.json row), on a plain table `factor`
    times its size (1: as it is), and its dice's boxes moved with it."""
    image = cv2.imread(str(folder / row["image"]), cv2.IMREAD_COLOR)
    if image is None:
        raise FileNotFoundError(folder / row["image"])
    dx = dy = 0
    if factor > 1:
        image, dx, dy = on_table(image, factor)
    truth: Truth = [
        ((d["box"][0] + dx, d["box"][1] + dy, d["box"][2] + dx, d["box"][3] + dy), d["face"])
        for d in row["dice"]
    ]
    return image, truth


def photos(table: int | None = None, folder: Path = REAL) -> list[tuple[str, np.ndarray, Truth]]:
    """(name, BGR image, [(box, face)]) for each photograph of the set; `table` overrides
    each photo's own table factor."""
    record = json.loads((folder / "labels.json").read_text(encoding="utf-8"))
    out = []
    for p in record["photos"]:
        factor = table if table is not None else int(p.get("table", 5))
        out.append((p["image"], *laid(folder, p, factor)))
    return out
