"""The classical pip counter the learned reader is measured against (issue 28): contours
find die-shaped blobs, then counting the round blobs inside each gives its face.

This is the approach the issue measured on real photos (about 15% of dice right): no
learning, a few thresholds picked by hand on synthetic images.  It answers every die it
finds (it has no notion of being unsure) unless it counts no pips or more than six.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

WORK_SIDE = 800  # photos are shrunk so their long side is this many pixels


def _pips(patch: np.ndarray, dark: bool) -> int:
    """Round blobs of one polarity inside a die's patch (grey, die centred)."""
    _, mask = cv2.threshold(
        patch, 0, 255, (cv2.THRESH_BINARY_INV if dark else cv2.THRESH_BINARY) | cv2.THRESH_OTSU
    )
    n = patch.shape[0]
    inner = np.zeros_like(mask)
    cv2.rectangle(inner, (n // 8, n // 8), (n - n // 8, n - n // 8), 255, -1)
    mask &= inner
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    count = 0
    for c in contours:
        area = cv2.contourArea(c)
        if not 0.004 * n * n <= area <= 0.08 * n * n:
            continue
        perimeter = cv2.arcLength(c, True)
        if perimeter and 4 * math.pi * area / perimeter**2 > 0.55:
            count += 1
    return count


def read(image: np.ndarray) -> list[tuple[tuple[int, int, int, int], int | None]]:
    """(box in the photo's pixels, face or None) for each die-shaped blob."""
    h, w = image.shape[:2]
    scale = min(1.0, WORK_SIDE / max(h, w))
    small = cv2.resize(image, (round(w * scale), round(h * scale)), interpolation=cv2.INTER_AREA)
    grey = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    side = max(small.shape[:2])
    edges = cv2.Canny(cv2.GaussianBlur(grey, (5, 5), 0), 40, 120)
    edges = cv2.morphologyEx(edges, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8), iterations=2)
    contours, _ = cv2.findContours(edges, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    found = []
    for c in contours:
        area = cv2.contourArea(c)
        if not (0.025 * side) ** 2 <= area <= (0.25 * side) ** 2:
            continue
        (cx, cy), (rw, rh), angle = cv2.minAreaRect(c)
        if min(rw, rh) <= 0 or max(rw, rh) / min(rw, rh) > 1.5 or area / (rw * rh) < 0.6:
            continue
        n = 48
        m = cv2.getRotationMatrix2D((cx, cy), angle, 1.0)
        m[:, 2] += (n / 2 - cx, n / 2 - cy)
        k = n / max(rw, rh)
        m = np.vstack([m, [0, 0, 1]])
        zoom = np.array([[k, 0, n / 2 * (1 - k)], [0, k, n / 2 * (1 - k)], [0, 0, 1]])
        patch = cv2.warpAffine(grey, (zoom @ m)[:2], (n, n), borderMode=cv2.BORDER_REPLICATE)
        counts = [_pips(patch, dark=True), _pips(patch, dark=False)]
        good = [v for v in counts if 1 <= v <= 6]
        face = good[0] if good else None
        x, y, bw, bh = cv2.boundingRect(c)
        box = (
            round(x / scale), round(y / scale), round((x + bw) / scale), round((y + bh) / scale),
        )  # fmt: skip
        found.append((box, face))
    return found
