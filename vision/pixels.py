"""Any array a camera, a file or a caller hands over, as the 8-bit grey frame the
decoders want, or refused in words.

Cameras and libraries send more than 8-bit BGR: 16-bit frames (a machine-vision or
depth-capable camera, a PNG from a scanner), grey with alpha, BGRA from a phone, a float
image from a processing step, a batch of one frame.  zxing-cpp and OpenCV raise on many
of these, so every frame goes through `grey_frame` first: what can be read is turned into
an 8-bit grey picture (16-bit scaled by its own depth, so a 10- or 12-bit sensor's frame
is not left nearly black), and what cannot hold a picture (1-D, complex numbers, five
channels) raises `Unreadable` with a sentence a player can act on.  Nothing else here
raises.
"""

from __future__ import annotations

import cv2
import numpy as np

MIN_SIDE = 21  # the smallest QR code (version 1) is 21 modules: anything smaller holds none
MAX_SIDE = 2048  # longer photos are scaled down before any stage (a phone's 48 MP photo)


class Unreadable(ValueError):
    """An array that is not a picture the scanner can read, in a player's words."""


def grey_frame(frame: object) -> np.ndarray:
    """`frame` as a C-contiguous 2-D uint8 grey image; an empty picture comes back empty.

    Accepted: 2-D grey; 3-D with 1 (grey), 2 (grey and alpha), 3 (BGR) or 4 (BGRA)
    channels; any leading axes of length 1 (a batch of one); bool, any integer and float
    type.  Refused with `Unreadable`: anything else.
    """
    if not isinstance(frame, np.ndarray):
        raise Unreadable(
            f"a frame must be a picture (an array of pixels), not {type(frame).__name__}"
        )
    a = frame
    while a.ndim > 3 and a.shape[0] == 1:
        a = a[0]
    if a.ndim > 3 and a.size:
        raise Unreadable(
            f"a frame of {a.ndim} dimensions ({_shape(frame)}) holds several pictures; "
            "give one picture at a time"
        )
    if a.ndim < 2:
        raise Unreadable(
            f"a frame must be a picture with rows and columns, not a list of {a.size} values"
        )
    if a.ndim == 3 and a.shape[2] not in (1, 2, 3, 4) and a.size:
        raise Unreadable(
            f"a frame with {a.shape[2]} colour channels ({_shape(frame)}) is not a picture "
            "this app can read: give grey, BGR or BGRA pixels"
        )
    if not a.size:
        return np.zeros((0, 0), np.uint8)
    a = eight_bit(a)
    if a.ndim == 3:
        channels = a.shape[2]
        if channels <= 2:
            a = a[:, :, 0]  # grey (and its alpha, which says nothing about the code)
        else:
            code = cv2.COLOR_BGRA2GRAY if channels == 4 else cv2.COLOR_BGR2GRAY
            a = cv2.cvtColor(np.ascontiguousarray(a), code)
    return np.ascontiguousarray(a)


def _shape(frame: np.ndarray) -> str:
    return "x".join(map(str, frame.shape))


def eight_bit(a: np.ndarray) -> np.ndarray:
    """The pixels as uint8, keeping their contrast whatever the type."""
    kind = a.dtype.kind
    if kind == "u" and a.dtype.itemsize == 1:
        return a
    if kind == "b":
        return a.view(np.uint8) * np.uint8(255)
    if kind == "i" and a.dtype.itemsize == 1:
        return (a.view(np.uint8) ^ np.uint8(0x80)).astype(np.uint8)  # -128..127 to 0..255
    if kind in "ui":
        low, high = int(a.min()), int(a.max())
        if low < 0:  # signed pixels: their range moved up to start at 0
            a = a.astype(np.int64) - low
            high -= low
        if high < 256:
            return a.astype(np.uint8)
        shift = high.bit_length() - 8  # a 10-, 12- or 16-bit sensor's own depth
        return (a >> shift).astype(np.uint8)
    if kind == "f":
        f = np.nan_to_num(a.astype(np.float64), nan=0.0, posinf=0.0, neginf=0.0)
        if float(f.min()) >= 0.0 and float(f.max()) <= 1.0:
            f = f * 255.0  # a 0-1 image
        return np.clip(f, 0, 255).astype(np.uint8)
    raise Unreadable(f"a frame of {a.dtype} values is not a picture this app can read")


def fit(grey: np.ndarray, longest: int = MAX_SIDE) -> tuple[np.ndarray, float]:
    """The grey frame at most `longest` pixels on its long side, and the scale it was
    shrunk by (1.0: untouched).  Area averaging keeps a large code's modules crisp."""
    side = max(grey.shape[:2], default=0)
    if side <= longest:
        return grey, 1.0
    scale = longest / side
    size = (max(1, round(grey.shape[1] * scale)), max(1, round(grey.shape[0] * scale)))
    return cv2.resize(grey, size, interpolation=cv2.INTER_AREA), scale


def too_small(grey: np.ndarray) -> bool:
    """Whether a frame is too small to hold any QR code."""
    return grey.ndim != 2 or min(grey.shape) < MIN_SIDE
