"""Reading QR codes in one frame: three decoders and the cascade that chains them.

zxing-cpp reads the most and is the fastest here (about 1 ms a 720p frame, see
benchmarks/bench_scan.py and docs/cards.md), so it always runs first, on the grey frame.
Only when it finds nothing do the fallbacks run, cheapest and most useful first (the order
was chosen by measuring each stage's extra reads on synthetic frames, then checked on
frames with other seeds):

1. zxing on the frame minus its local mean: flattens a shadow's edge and lifts the faint
   modules under a highlight back into range (glare, shadow, low light);
2. zxing on an unsharp-masked frame (out of focus);
3. zxing on the frame minus a wider local mean (deeper shadows, larger codes);
4. the most textured regions of the frame (a code is the busiest patch on a card), cut
   out and enlarged 3x, plain, sharpened and flattened (small and blurred codes);
5. the same regions with a motion smear undone: its direction read from the structure
   tensor, a few lengths tried by Wiener deconvolution (a card moved during the exposure);
6. OpenCV's `QRCodeDetectorAruco` and 7. pyzbar, which fail differently from zxing and
   cost 15-25 ms, so they run last.

A frame with a readable code therefore costs one zxing pass; only a hard frame pays for
more, and a frame with no code at all pays for everything (the scanner always works on
the newest frame, so that slows the reading rate, never the camera preview).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np
import zxingcpp

from vision.payload import Reading, classify

Corners = tuple[tuple[float, float], ...]


@dataclass(frozen=True)
class Found:
    """One code in a frame: its text, where it is, and which stage read it."""

    text: str
    corners: Corners = ()
    stage: str = ""

    @property
    def reading(self) -> Reading:
        return classify(self.text)


Decoder = Callable[[np.ndarray], list[Found]]


def gray(frame: np.ndarray) -> np.ndarray:
    return frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)


def zxing(image: np.ndarray, stage: str = "zxing") -> list[Found]:
    """zxing-cpp, QR codes only (any other format is a wasted search and a false hit)."""
    out = []
    for b in zxingcpp.read_barcodes(image, formats=zxingcpp.BarcodeFormat.QRCode, try_invert=False):
        p = b.position
        corners = tuple(
            (float(q.x), float(q.y))
            for q in (p.top_left, p.top_right, p.bottom_right, p.bottom_left)
        )
        out.append(Found(b.text, corners, stage))
    return out


_opencv_detector: cv2.QRCodeDetectorAruco | None = None


def opencv(image: np.ndarray) -> list[Found]:
    """OpenCV's Aruco-based QR detector, which finds tilted and blurred finder patterns."""
    global _opencv_detector
    if _opencv_detector is None:
        _opencv_detector = cv2.QRCodeDetectorAruco()
    try:
        ok, texts, points, _ = _opencv_detector.detectAndDecodeMulti(image)
    except cv2.error:
        return []
    if not ok or points is None:
        return []
    return [
        Found(t, tuple((float(x), float(y)) for x, y in pts), "opencv")
        for t, pts in zip(texts, points, strict=False)
        if t
    ]


def pyzbar(image: np.ndarray) -> list[Found]:
    """ZBar, whose scan-line finder copes with some codes the others reject."""
    from pyzbar import pyzbar as zbar

    out = []
    for s in zbar.decode(image, symbols=[zbar.ZBarSymbol.QRCODE]):
        try:
            text = s.data.decode("utf-8")
        except UnicodeDecodeError:
            text = s.data.decode("latin-1")
        out.append(Found(text, tuple((float(p.x), float(p.y)) for p in s.polygon), "pyzbar"))
    return out


# -- pre-processing ----------------------------------------------------------------------


def flattened(image: np.ndarray, size: int, gain: float) -> np.ndarray:
    """The image minus its local mean, amplified: uneven light (a shadow's edge, the soft
    rim of a highlight, a dim corner) becomes an even grey, the modules stay."""
    mean = cv2.boxFilter(image, -1, (size, size))
    return cv2.addWeighted(image, gain, mean, -gain, 128)


def sharpened(image: np.ndarray, sigma: float, amount: float) -> np.ndarray:
    """Unsharp mask: steepens the module edges a defocused or shaken camera softened."""
    blurred = cv2.GaussianBlur(image, (0, 0), sigma)
    return cv2.addWeighted(image, 1 + amount, blurred, -amount, 0)


def busiest_regions(image: np.ndarray, count: int = 2) -> list[tuple[int, int]]:
    """Centres of the `count` most textured patches: a QR code's dense edges outscore the
    art, the table and the text around it, even when it is too small or blurred to read."""
    small = cv2.resize(
        image, (image.shape[1] // 4, image.shape[0] // 4), interpolation=cv2.INTER_AREA
    )
    gx = cv2.convertScaleAbs(cv2.Sobel(small, cv2.CV_16S, 1, 0))
    gy = cv2.convertScaleAbs(cv2.Sobel(small, cv2.CV_16S, 0, 1))
    density = cv2.boxFilter(cv2.addWeighted(gx, 0.5, gy, 0.5, 0).astype(np.float32), -1, (15, 15))
    centres = []
    for _ in range(count):
        _, _, _, (x, y) = cv2.minMaxLoc(density)
        centres.append((x * 4, y * 4))
        cv2.rectangle(density, (x - 20, y - 20), (x + 20, y + 20), 0.0, -1)
    return centres


REGION_HALF = 90  # pixels each side of a region's centre
REGION_SCALE = 3.0


def _region_crops(g: np.ndarray, half: int) -> Iterator[tuple[np.ndarray, int, int]]:
    """The busiest regions cut out, with their top-left corners in the frame."""
    h, w = g.shape
    for cx, cy in busiest_regions(g):
        x0, y0 = max(0, cx - half), max(0, cy - half)
        yield g[y0 : min(h, cy + half), x0 : min(w, cx + half)], x0, y0


def _in_frame(found: list[Found], scale: float, x0: int, y0: int) -> list[Found]:
    """Corners found in an enlarged crop, moved back to the frame's coordinates."""
    return [
        Found(f.text, tuple((x / scale + x0, y / scale + y0) for x, y in f.corners), f.stage)
        for f in found
    ]


def _regions(g: np.ndarray) -> list[Found]:
    for crop, x0, y0 in _region_crops(g, REGION_HALF):
        big = cv2.resize(
            crop, None, fx=REGION_SCALE, fy=REGION_SCALE, interpolation=cv2.INTER_CUBIC
        )
        for variant in (big, sharpened(big, 2.0, 2.0), flattened(big, 21, 3.0)):
            found = zxing(variant, "zxing+region")
            if found:
                return _in_frame(found, REGION_SCALE, x0, y0)
    return []


def motion_kernel(length: float, angle: float) -> np.ndarray:
    """A straight smear `length` pixels long at `angle` degrees, anti-aliased."""
    size = 2 * int(math.ceil(length / 2)) + 3
    kernel = np.zeros((size, size), np.float32)
    c, a = size // 2, math.radians(angle)
    for t in np.linspace(-(length - 1) / 2, (length - 1) / 2, int(length * 4)):
        x, y = c + t * math.cos(a), c - t * math.sin(a)
        x0, y0 = int(math.floor(x)), int(math.floor(y))
        fx, fy = x - x0, y - y0
        for dx, dy, w in (
            (0, 0, (1 - fx) * (1 - fy)),
            (1, 0, fx * (1 - fy)),
            (0, 1, (1 - fx) * fy),
            (1, 1, fx * fy),
        ):
            if 0 <= x0 + dx < size and 0 <= y0 + dy < size:
                kernel[y0 + dy, x0 + dx] += w
    return kernel / kernel.sum()


def smear_direction(image: np.ndarray) -> tuple[float, float]:
    """The direction a motion blur smeared `image` (degrees) and how sure we are (0-1).

    A smear wipes out the gradients along its direction and keeps those across it, so
    the structure tensor's strongest orientation is across the smear.  A sharp code has
    gradients both ways and a coherence near 0.
    """
    f = image.astype(np.float32)
    gx, gy = cv2.Sobel(f, cv2.CV_32F, 1, 0), cv2.Sobel(f, cv2.CV_32F, 0, 1)
    jxx, jyy, jxy = float((gx * gx).sum()), float((gy * gy).sum()), float((gx * gy).sum())
    across = 0.5 * math.degrees(math.atan2(2 * jxy, jxx - jyy))
    coherence = math.hypot(jxx - jyy, 2 * jxy) / (jxx + jyy + 1e-6)
    return 90.0 - across, coherence


def deconvolved(
    spectrum: np.ndarray, shape: tuple[int, int], kernel: np.ndarray, noise: float
) -> np.ndarray:
    """Wiener deconvolution of an image (given as its spectrum) by a known blur."""
    padded = np.zeros(shape, np.float32)
    kh, kw = kernel.shape
    padded[:kh, :kw] = kernel
    padded = np.roll(padded, (-(kh // 2), -(kw // 2)), (0, 1))
    k = np.fft.rfft2(padded)
    out = np.fft.irfft2(spectrum * np.conj(k) / (np.abs(k) ** 2 + noise), s=shape)
    return np.clip(out, 0, 255).astype(np.uint8)


SMEAR_LENGTHS = (14, 12, 9, 6)  # pixels in the 2x region: 3-7 px smears in the frame
SMEAR_MIN_COHERENCE = 0.2


def _deblurred(g: np.ndarray) -> list[Found]:
    """Undo a motion smear in the busiest regions: estimate its direction, then try a few
    lengths (a shaken card is smeared 3-7 px at 720p) by Wiener deconvolution."""
    for crop, x0, y0 in _region_crops(g, 100):
        angle, coherence = smear_direction(crop)
        if coherence < SMEAR_MIN_COHERENCE:
            continue
        big = cv2.resize(crop, None, fx=2.0, fy=2.0, interpolation=cv2.INTER_CUBIC)
        spectrum = np.fft.rfft2(big.astype(np.float32))
        for length in SMEAR_LENGTHS:
            for noise in (0.01, 0.03):
                image = deconvolved(spectrum, big.shape, motion_kernel(length, angle), noise)
                found = zxing(image, "zxing+deblur")
                if found:
                    return _in_frame(found, 2.0, x0, y0)
    return []


@dataclass(frozen=True)
class Stage:
    name: str
    run: Callable[[np.ndarray], list[Found]]


DEFAULT_STAGES: tuple[Stage, ...] = (
    Stage("zxing", zxing),
    Stage("zxing+flatten", lambda g: zxing(flattened(g, 9, 2.0), "zxing+flatten")),
    Stage("zxing+sharpen", lambda g: zxing(sharpened(g, 1.0, 3.0), "zxing+sharpen")),
    Stage("zxing+flatten-wide", lambda g: zxing(flattened(g, 15, 4.0), "zxing+flatten-wide")),
    Stage("zxing+region", _regions),
    Stage("zxing+deblur", _deblurred),
    Stage("opencv", opencv),
    Stage("pyzbar", pyzbar),
)


@dataclass
class Cascade:
    """Runs the stages in order on the grey frame and stops at the first that reads a code.

    `stats` counts which stage answered, so the scanner panel (and the benchmark) can show
    how often the fallbacks are needed.
    """

    stages: Sequence[Stage] = DEFAULT_STAGES
    stats: dict[str, int] = field(default_factory=dict)

    def __call__(self, frame: np.ndarray) -> list[Found]:
        g = gray(frame)
        for stage in self.stages:
            found = _unique(stage.run(g))
            if found:
                self.stats[stage.name] = self.stats.get(stage.name, 0) + 1
                return found
        self.stats["none"] = self.stats.get("none", 0) + 1
        return []


def _unique(found: list[Found]) -> list[Found]:
    seen, out = set(), []
    for f in found:
        if f.text not in seen:
            seen.add(f.text)
            out.append(f)
    return out
