"""Crops at the detector's own finds (training/dice/finds.py): each find labelled by the die
it sits on, "not a die" where it sits on none, and left out where it is half on one."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from training.dice.evaluate import iou
from training.dice.finds import finds_crops, label_finds
from training.dice.synth import Config, make
from vision.dice.prep import CROP_SIZE
from vision.dice.reader import NOT_A_DIE, DiceReader

DICE = [{"box": [100, 100, 140, 140], "face": 5}, {"box": [300, 50, 330, 80], "face": 2}]


def test_a_find_on_a_die_gets_its_face_and_one_on_no_die_is_not_a_die() -> None:
    finds = [
        [102, 98, 141, 139],  # on the five
        [301, 52, 331, 79],  # on the two
        [500, 400, 540, 440],  # on the table
        [120, 100, 160, 140],  # half on the five: IoU 1/3
    ]
    assert label_finds(finds, DICE) == [4, 1, NOT_A_DIE, None]


def test_the_bars_between_a_die_and_no_die() -> None:
    on = [100, 100, 140, 140]
    loose = [100, 100, 140, 160]  # IoU 2/3: still the die
    sliver = [100, 100, 140, 330]  # IoU 40*40 / (40*230) = 0.17: no die
    assert iou(loose, on) >= 0.5 and iou(sliver, on) < 0.2
    assert label_finds([loose, sliver], DICE[:1]) == [4, NOT_A_DIE]


def test_photos_crops_are_the_apps_crops_of_each_labelled_find(tmp_path: Path) -> None:
    reader = DiceReader(face_threshold=0.0)
    rows = []
    for i in range(3):
        data, row, _, _ = make(3, i, Config(min_dice=3, max_dice=6, sizes=((640, 480),)))
        path = tmp_path / f"{i}.jpg"
        path.write_bytes(data)
        rows.append({**row, "path": str(path)})
    x, y, counts = finds_crops(rows, reader)
    assert x.shape == (len(y), CROP_SIZE, CROP_SIZE, 3) and x.dtype == np.uint8
    assert counts["on a die"] + counts["not a die"] == len(y)
    assert counts["on a die"] >= 6  # the shipped detector finds most of these dice
    faces = sorted(int(v) for v in y if v != NOT_A_DIE)
    truth = sorted(d["face"] - 1 for r in rows for d in r["dice"])
    assert all(f in truth for f in faces)
