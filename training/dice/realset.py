"""The real-photograph evaluation set of the dice reader (issue 28): 48 photographs of one
ordinary d6 each, never trained or tuned on, in `tests/fixtures/dice-real/`.

Source: the two sample sheets of N. Tomi's "Dice Recognition Datasets for Machine Learning"
(github.com/tomitomi3/DiceRecognitionDatasetForML, `_img/pic_dice.jpg` and
`_img/pic_coloerddice.jpg`, MIT licence, (c) 2018 N. Tomi; the set's zip files were not
reachable here).  Each sheet shows 24 photographs as thumbnails; each thumbnail is cut out
whole (its frame trimmed): `grey_NN.png` (a white die with black pips in a grey bowl,
grey-scale, top-down), `white_NN.png` (white dice with black pips, and a big die with a red
1, on a pale table, top-down).  The faces are labelled by looking; the boxes were drawn by
a brightness threshold and checked by eye, 13 by hand (`box_by` in `labels.json`).
`tests/fixtures/dice-real/SOURCES.md` says the same with the licence text.

A thumbnail is a close-up: its die is half to two thirds of the picture's side, while the
camera over a table sees a die at 3.5% to 16% of the frame's short side (the range the
detector is trained on, training/dice/synth.py).  So `photos()` lays each picture in the
middle of a plain table five times its size, the colour of the picture's own edge, which
puts its die at 9% to 13%: the die's pixels are the photograph's, untouched.  (The factor
follows from those ranges, not from the reader's score.)  `photos(table=1)` gives the
pictures as they are.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np

REAL = Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "dice-real"
Truth = list[tuple[Sequence[float], int]]


def _on_table(image: np.ndarray, table: int) -> tuple[np.ndarray, int, int]:
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


def photos(table: int = 5, folder: Path = REAL) -> list[tuple[str, np.ndarray, Truth]]:
    """(name, BGR image, [(box, face)]) for each photograph of the set."""
    record = json.loads((folder / "labels.json").read_text(encoding="utf-8"))
    out = []
    for p in record["photos"]:
        image = cv2.imread(str(folder / p["image"]), cv2.IMREAD_COLOR)
        if image is None:
            raise FileNotFoundError(folder / p["image"])
        dx = dy = 0
        if table > 1:
            image, dx, dy = _on_table(image, table)
        truth: Truth = [
            ((d["box"][0] + dx, d["box"][1] + dy, d["box"][2] + dx, d["box"][3] + dy), d["face"])
            for d in p["dice"]
        ]
        out.append((p["image"], image, truth))
    return out
