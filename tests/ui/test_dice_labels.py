"""Where the camera preview writes each die's number and value (issue 28): dice touching
each other keep their labels apart and their pips uncovered, and every label stays in the
picture.  At Largest text on a tablet the labels of two stacked dice were written over each
other and over the lower die's face."""

from __future__ import annotations

import numpy as np

from companion.ui.panels.dice_camera import badge_place, box_label, draw_dice, label_places
from vision.dice.reader import DieRead

PICTURE = (0, 0, 290, 218)
LABEL = (70, 32)


def _overlap(a: tuple[int, ...], b: tuple[int, ...]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _inside(r: tuple[int, ...], picture: tuple[int, ...] = PICTURE) -> bool:
    return picture[0] <= r[0] and r[2] <= picture[2] and picture[1] <= r[1] and r[3] <= picture[3]


def test_two_dice_stacked_at_the_top_keep_their_labels_apart_and_off_each_other() -> None:
    # the upper die too near the top for a label above it, the lower touching it
    boxes = [(190, 12, 250, 60), (190, 62, 250, 118)]
    places = label_places(boxes, [LABEL, LABEL], PICTURE)
    assert all(_inside(p) for p in places)
    assert not _overlap(places[0], places[1])
    assert not _overlap(places[0], boxes[1]) and not _overlap(places[1], boxes[0])


def test_dice_side_by_side_and_at_the_edges_keep_their_labels_in_the_picture() -> None:
    boxes = [(0, 0, 50, 50), (52, 0, 102, 50), (240, 168, 290, 218), (120, 80, 170, 130)]
    places = label_places(boxes, [LABEL] * 4, PICTURE)
    assert all(_inside(p) for p in places)
    assert not any(_overlap(a, b) for i, a in enumerate(places) for b in places[i + 1 :])
    for i, p in enumerate(places):
        assert not any(_overlap(p, b) for j, b in enumerate(boxes) if j != i)


def test_the_photos_kept_badge_takes_a_corner_clear_of_the_dice() -> None:
    """The badge on the picture (Settings keep the rolls' photos) keeps to its top left
    corner, in the picture, until a die lies there: then the first corner clear of them."""
    badge = (100, 30)
    assert badge_place([(120, 80, 170, 130)], badge, PICTURE, 4) == (4, 4, 104, 34)
    at_left = [(10, 10, 60, 60)]
    assert badge_place(at_left, badge, PICTURE, 4) == (186, 4, 286, 34)
    tops = [(10, 10, 60, 60), (230, 10, 280, 60)]
    place = badge_place(tops, badge, PICTURE, 4)
    assert place == (4, 184, 104, 214) and _inside(tuple(round(v) for v in place))
    # dice in every corner: over the least of them
    corners = [(0, 0, 120, 40), (250, 0, 290, 10), (0, 200, 90, 218), (200, 190, 290, 218)]
    assert badge_place(corners, badge, PICTURE, 4) == (186, 4, 286, 34)


def test_a_label_says_the_die_and_its_value_or_a_question_mark() -> None:
    assert box_label(0, 5) == "1: 5" and box_label(2, None) == "3: ?"


def test_larger_text_draws_larger_labels() -> None:
    """The labels grow with the table's text size: the picture with Largest text has more
    label colour than with Normal, the outlines alike."""
    frame = np.full((720, 1280, 3), 90, np.uint8)
    dice = (DieRead(box=(300, 200, 420, 320), face=None, confidence=0.4),)
    small = draw_dice(frame, dice, [None], set(), (290, 218), label_px=13).rgb
    large = draw_dice(frame, dice, [None], set(), (290, 218), label_px=13 * 1.8).rgb
    unsure = np.array([255, 170, 0])  # the unsure colour, RGB
    assert (large == unsure).all(-1).sum() > 1.5 * (small == unsure).all(-1).sum()
