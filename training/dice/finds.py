"""Crops at the detector's own finds, for training the face classifier with the detector it
will run beside (issue 28, "What comes next" in training/README.md).

The classifier otherwise trains on crops of the labelled boxes, shifted a little, and on
random patches of table.  The app never shows it those: it shows the detector's boxes, some
loose, some on a shadow, a pip-like knot of wood or the tray's rim.  The sixth model showed
the wrong answers coming from exactly those (a find where no die is, a mid-size die's box
cut badly), so here each training photo is run through the shipped reader's detector and
every find is cut as the app cuts it: a find on a die gets that die's face, a find on no
die is "not a die", and a find half on a die (neither) is left out rather than guessed.

Torch-free: it uses `vision.dice.reader.DiceReader` (OpenCV only), so it is tested without
the `train` extra.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from training.dice.evaluate import iou
from vision.dice.prep import CROP_SIZE, crop, crop_box
from vision.dice.reader import NOT_A_DIE, DiceReader

Box = Sequence[float]

ON_A_DIE = 0.5  # IoU with a labelled die at which a find is that die
ON_NO_DIE = 0.2  # best IoU under which a find is "not a die"


def label_finds(finds: Sequence[Box], dice: Sequence[dict]) -> list[int | None]:
    """Each find's class: the face (0 to 5) of the die it sits on, NOT_A_DIE where it sits
    on none, None where it is half on one (a label either way would teach a guess)."""
    labels: list[int | None] = []
    for box in finds:
        best, face = 0.0, 0
        for d in dice:
            overlap = iou(box, d["box"])
            if overlap > best:
                best, face = overlap, int(d["face"])
        if best >= ON_A_DIE:
            labels.append(face - 1)
        elif best < ON_NO_DIE:
            labels.append(NOT_A_DIE)
        else:
            labels.append(None)
    return labels


def finds_crops(rows: Sequence[dict], reader: DiceReader) -> tuple[np.ndarray, np.ndarray, dict]:
    """Every labelled find in `rows` (synth label rows with "path"), cut as the app cuts
    it; with the counts of each kind, for the training record."""
    xs: list[np.ndarray] = []
    ys: list[int] = []
    counts = {"on a die": 0, "not a die": 0, "left out": 0}
    for row in rows:
        img = cv2.imread(row["path"])
        finds = [box for _, box in reader.find(img)]
        for box, label in zip(finds, label_finds(finds, row["dice"]), strict=True):
            if label is None:
                counts["left out"] += 1
                continue
            counts["not a die" if label == NOT_A_DIE else "on a die"] += 1
            xs.append(crop(img, *crop_box(box)))
            ys.append(label)
    if not xs:
        return np.zeros((0, CROP_SIZE, CROP_SIZE, 3), np.uint8), np.zeros(0, np.int64), counts
    return np.stack(xs), np.array(ys, np.int64), counts
