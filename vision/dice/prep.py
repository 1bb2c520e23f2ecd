"""The pixels the dice models see: the same functions at training and at run time.

Kept apart from the reader so `training/dice/train.py` builds its inputs with exactly the
code the app runs; a change here changes both, and the models must be trained again.

- The detector sees the whole photo shrunk so its long side is `DET_SIZE` pixels, laid at
  the top-left of a grey square (no stretching: a die stays square whatever the camera's
  aspect), as floats 0..1 in OpenCV's BGR order.
- The face classifier sees each die cut out as a square `CROP_MARGIN` wider than its box,
  taken from the full-size photo (the pips are too small to read at the detector's size),
  shrunk to `CROP_SIZE` pixels.
"""

from __future__ import annotations

import cv2
import numpy as np

DET_SIZE = 320  # the detector's input side, pixels
DET_STRIDE = 4  # one heat-map cell per 4x4 input pixels
CROP_SIZE = 48  # the face classifier's input side, pixels
CROP_MARGIN = 1.2  # the crop's side over the box's longer side
PAD_GREY = 114


def letterbox(image: np.ndarray, size: int = DET_SIZE) -> tuple[np.ndarray, float]:
    """The photo shrunk (or grown) so its long side is `size`, at the top-left of a grey
    square; returns the square (uint8 BGR) and the scale from photo to square."""
    h, w = image.shape[:2]
    scale = size / max(h, w)
    nw, nh = max(1, round(w * scale)), max(1, round(h * scale))
    interp = cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR
    small = cv2.resize(image, (nw, nh), interpolation=interp)
    out = np.full((size, size, 3), PAD_GREY, np.uint8)
    out[:nh, :nw] = small
    return out, scale


def crop_box(box: tuple[float, float, float, float]) -> tuple[float, float, float]:
    """The square cut around a box: centre x, centre y and side."""
    x0, y0, x1, y1 = box
    side = max(x1 - x0, y1 - y0) * CROP_MARGIN
    return (x0 + x1) / 2, (y0 + y1) / 2, max(side, 4.0)


def crop(image: np.ndarray, cx: float, cy: float, side: float, size: int = CROP_SIZE) -> np.ndarray:
    """The square of `side` pixels centred on (cx, cy), shrunk to `size` (uint8 BGR); the
    photo's edge pixels repeat where the square runs off it."""
    s = size / side
    m = np.array([[s, 0.0, size / 2 - s * cx], [0.0, s, size / 2 - s * cy]], np.float64)
    if s < 0.5:
        # Warping samples; an area shrink first keeps thin pips from falling between samples.
        k = max(1, int(1 / s))
        x0, y0 = max(0, int(cx - side / 2) - 2), max(0, int(cy - side / 2) - 2)
        x1 = min(image.shape[1], int(cx + side / 2) + 3)
        y1 = min(image.shape[0], int(cy + side / 2) + 3)
        x1, y1 = x0 + (x1 - x0) // k * k, y0 + (y1 - y0) // k * k
        if x1 > x0 and y1 > y0:
            part = image[y0:y1, x0:x1]
            part = cv2.resize(part, ((x1 - x0) // k, (y1 - y0) // k), interpolation=cv2.INTER_AREA)
            m = m.copy()
            # Pixel (u, v) of `part` sits at photo (x0 + u * k, y0 + v * k) (centres aside).
            m[:, :2] *= k
            m[:, 2] += s * np.array([x0, y0]) + (k - 1) / 2 * s
            image = part
    return cv2.warpAffine(
        image, m, (size, size), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )


def dihedral(crops: np.ndarray, k: int) -> np.ndarray:
    """Square crops (N, S, S, 3) turned or mirrored: bit 1 of `k` mirrors left-right, bit
    2 top-bottom, bit 4 swaps rows and columns; the eight ways training turns its crops."""
    if k & 1:
        crops = crops[:, :, ::-1]
    if k & 2:
        crops = crops[:, ::-1]
    if k & 4:
        crops = crops.transpose(0, 2, 1, 3)
    return crops


def to_blob(images: np.ndarray) -> np.ndarray:
    """uint8 images (N, H, W, 3) as the float32 (N, 3, H, W) the networks take, 0..1."""
    return np.ascontiguousarray(images.transpose(0, 3, 1, 2), dtype=np.float32) / np.float32(255)
