"""DamianTab's whole-table photos in training/dice/real (issue 28): the repository's copies
and labels are what `training/dice/import_damiantab.py` makes from the hand labels, so the
boxes drawn on the source photos land on the dice in the shrunk ones."""

from __future__ import annotations

import json

import cv2
import numpy as np

from training.dice.import_damiantab import LABELS, LONG, name_of, shrink, split_of
from training.dice.import_real import TRAIN_DIR


def test_the_carpet_photos_train_and_the_other_grounds_calibrate() -> None:
    """The unsure rule is chosen on grounds the networks never saw."""
    assert [split_of(f"myphotos/dice{n:02d}.jpg") for n in (1, 20, 21, 30, 31, 50, 51, 80)] == [
        "train", "train", "calibration", "calibration", "train", "train", "calibration",
        "calibration",
    ]  # fmt: skip
    assert name_of("myphotos/dice07.jpg") == "damian_07.jpg"


def test_shrinking_a_photo_scales_its_boxes_with_it() -> None:
    image = np.zeros((1209, 907, 3), np.uint8)
    small, dice = shrink(
        image, [{"box": [0, 0, 907, 1209], "face": 3}, {"box": [100, 200, 300, 400], "face": 6}]
    )
    assert small.shape[:2] == (LONG, round(907 * LONG / 1209))
    assert dice[0]["box"] == [0, 0, small.shape[1], LONG] and dice[0]["face"] == 3
    assert dice[1]["box"] == [53, 106, 159, 212]


def test_the_repositorys_copies_match_the_hand_labels() -> None:
    hand = json.loads(LABELS.read_text(encoding="utf-8"))
    record = json.loads((TRAIN_DIR / "labels.json").read_text(encoding="utf-8"))
    rows = {r["image"]: r for r in record["photos"] if r["image"].startswith("damian_")}
    assert len(hand["photos"]) == len(rows) == 80
    assert sum(len(p["dice"]) for p in hand["photos"]) == 240
    for photo in hand["photos"]:
        row = rows[name_of(photo["photo"])]
        image = cv2.imread(str(TRAIN_DIR / row["image"]))
        assert image is not None and max(image.shape[:2]) == LONG
        _small, dice = shrink(np.zeros((*hand["size"][::-1], 3), np.uint8), photo["dice"])
        assert row["dice"] == dice and row["table"] == 1
        assert row["split"] == split_of(photo["photo"])
        for d in dice:
            x0, y0, x1, y1 = d["box"]
            assert 0 <= x0 < x1 <= image.shape[1] and 0 <= y0 < y1 <= image.shape[0]
            assert 1 <= d["face"] <= 6
