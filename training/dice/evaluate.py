"""Scoring a dice reader against labelled photos, the way issue 28 states its targets.

A read die matches a labelled one when their boxes overlap by IoU >= 0.5 (each at most
once, most confident reads first).  Per photo and summed over a set:

- dice right: labelled dice matched by a read with the right face, over all labelled dice;
- photos right: photos where every labelled die is read right and nothing else is answered;
- wrong among answered: reads that give a face (not "unsure") and are wrong (the wrong face,
  or no labelled die there), over all reads that give a face.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

# The "unsure" thresholds tried, lowest first: steps of 0.01, then finer towards 1 (a network
# trained without label smoothing puts most of its right answers above 0.99).
THRESHOLDS = np.concatenate([np.arange(0.30, 0.99, 0.01), 1 - np.geomspace(1e-2, 1e-5, 16)])


def iou(a: Sequence[float], b: Sequence[float]) -> float:
    ix = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = ix * iy
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0


def matches(
    reads: Sequence[Sequence[float]], truth: Sequence[Sequence[float]], least: float = 0.5
) -> dict[int, int]:
    """Which labelled box each read box is (read index -> labelled index): the one it
    overlaps most, by IoU >= `least`, each labelled box at most once, reads in their
    order."""
    used: dict[int, int] = {}
    for i, box in enumerate(reads):
        best, bj = least, -1
        for j, tbox in enumerate(truth):
            if j not in used.values() and (v := iou(box, tbox)) >= best:
                best, bj = v, j
        if bj >= 0:
            used[i] = bj
    return used


@dataclass
class Score:
    dice: int = 0  # labelled dice
    right: int = 0  # labelled dice read with the right face
    answered: int = 0  # reads that give a face
    wrong: int = 0  # reads that give a face and are wrong
    unsure: int = 0  # reads that give no face
    missed: int = 0  # labelled dice with no read
    photos: int = 0
    photos_right: int = 0

    def add(
        self,
        reads: Sequence[tuple[Sequence[float], int | None]],
        truth: Sequence[tuple[Sequence[float], int]],
    ) -> bool:
        """Score one photo: reads are (box, face or None), best first; truth (box, face).
        Returns whether the photo is fully right."""
        used = matches([box for box, _ in reads], [box for box, _ in truth])
        right = 0
        wrong = 0
        for i, (_, face) in enumerate(reads):
            if face is None:
                self.unsure += 1
                continue
            self.answered += 1
            if i in used and truth[used[i]][1] == face:
                right += 1
            else:
                wrong += 1
        self.dice += len(truth)
        self.right += right
        self.wrong += wrong
        self.missed += len(truth) - len(used)
        self.photos += 1
        ok = right == len(truth) and wrong == 0
        self.photos_right += ok
        return ok

    def figures(self) -> dict[str, float]:
        return {
            "dice_right": self.right / max(1, self.dice),
            "photos_right": self.photos_right / max(1, self.photos),
            "wrong_among_answered": self.wrong / max(1, self.answered),
            "answered": self.answered / max(1, self.dice),
            "missed": self.missed / max(1, self.dice),
        }
