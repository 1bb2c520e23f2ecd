"""How dice readers are scored (training/dice/evaluate.py, the issue's figures), the shared
crop the face classifier sees (vision/dice/prep.py), and the classical baseline's shape."""

from __future__ import annotations

import numpy as np

from training.dice import baseline
from training.dice.evaluate import Score
from training.dice.synth import Config, render
from vision.dice.prep import CROP_SIZE, DET_SIZE, crop, crop_box, letterbox

A, B = (10, 10, 50, 50), (100, 10, 140, 50)


def test_a_photo_is_right_only_with_every_die_right_and_nothing_else_answered() -> None:
    s = Score()
    assert s.add([(A, 3), (B, 5)], [(A, 3), (B, 5)])
    assert not s.add([(A, 3)], [(A, 3), (B, 5)])  # B missed
    assert not s.add([(A, 3), (B, None)], [(A, 3), (B, 5)])  # B unsure
    assert not s.add([(A, 3), (B, 5), ((300, 300, 340, 340), 2)], [(A, 3), (B, 5)])  # a ghost
    assert not s.add([(A, 4), (B, 5)], [(A, 3), (B, 5)])  # A misread
    f = s.figures()
    assert (s.dice, s.right, s.answered, s.wrong, s.unsure, s.missed) == (10, 7, 9, 2, 1, 1)
    assert f["photos_right"] == 1 / 5
    assert f["wrong_among_answered"] == 2 / 9


def test_two_reads_of_one_die_count_once() -> None:
    s = Score()
    assert not s.add([(A, 3), ((12, 12, 50, 50), 3)], [(A, 3)])
    assert (s.right, s.wrong) == (1, 1)


def test_letterbox_keeps_the_aspect_at_the_top_left() -> None:
    img = np.zeros((720, 1280, 3), np.uint8)
    img[:, :] = (0, 0, 255)
    square, scale = letterbox(img)
    assert square.shape == (DET_SIZE, DET_SIZE, 3) and scale == DET_SIZE / 1280
    assert (square[: 720 * DET_SIZE // 1280 - 1, :, 2] == 255).all()
    assert (square[720 * DET_SIZE // 1280 + 1 :, :, 2] != 255).all()


def test_a_crop_is_centred_on_its_box_at_any_size() -> None:
    for side in (40, 120, 400):  # grown, shrunk, shrunk a lot (area first)
        img = np.zeros((1000, 1000, 3), np.uint8)
        x0, y0 = 300, 420
        img[y0 : y0 + side, x0 : x0 + side] = 255
        c = crop(img, *crop_box((x0, y0, x0 + side, y0 + side)))[:, :, 0]
        assert c.shape == (CROP_SIZE, CROP_SIZE)
        ys, xs = np.nonzero(c > 127)
        # The box fills 1/1.2 of the crop, centred (within a pixel).
        assert abs(xs.mean() - (CROP_SIZE - 1) / 2) < 1 and abs(ys.mean() - (CROP_SIZE - 1) / 2) < 1
        assert abs((xs.max() - xs.min() + 1) - CROP_SIZE / 1.2) <= 2


def test_the_baseline_answers_in_the_photos_pixels() -> None:
    scene = render(
        np.random.default_rng([79, 0]), Config(min_dice=3, max_dice=3, sizes=((640, 480),))
    )
    for (x0, y0, x1, y1), face in baseline.read(scene.image):
        assert 0 <= x0 < x1 <= 640 and 0 <= y0 < y1 <= 480
        assert face is None or 1 <= face <= 6
