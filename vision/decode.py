"""Reading QR codes in one frame: three decoders and the cascade that chains them.

zxing-cpp reads the most and is the fastest here (about 1 ms a 720p frame, see
benchmarks/bench_scan.py and docs/cards.md), so it always runs first, on the grey frame,
with every option that costs little on (light-on-dark codes among them): the first pass
never reads less than zxing-cpp alone.  The fallbacks follow, cheapest and most useful
first (the order was chosen by measuring each stage's extra reads on synthetic frames,
then checked on frames with other seeds and on real photographs):

1. zxing on the frame minus its local mean: flattens a shadow's edge and lifts the faint
   modules under a highlight back into range (glare, shadow, low light);
2. zxing on an unsharp-masked frame (out of focus);
3. zxing on the frame minus a wider local mean (deeper shadows, larger codes);
4. the most textured regions of the frame (a code is the busiest patch on a card), cut
   out (180 px square, then 260) and enlarged 3x, plain, sharpened, flattened, contrast-limited equalised and
   normalised by the local spread (small and blurred codes, the rim of a glare);
5. the same regions with a motion smear undone: its direction read from the structure
   tensor, a few lengths tried by Wiener deconvolution (a card moved during the exposure;
   it runs before 4, as it costs little where nothing is smeared), then with a defocus
   undone (a Gaussian of a few widths, Wiener again);
6. pyzbar and OpenCV's `QRCodeDetectorAruco`, which fail differently from zxing and
   cost 15-25 ms, then a 3 and 5 px median filter (specks, grain and scratches on a
   photographed code) and OpenCV's curved-surface decoder where zxing saw a symbol.

Every text is checked before it counts: a decoder's bytes must be valid text in their
encoding (UTF-8, else Shift JIS), and a text holding U+FFFD is a misread.  Frames of any
shape and type come through `vision.pixels` (8-bit grey, at most 2048 px long) first;
a larger photo in which no stage read anything gets one zxing pass at its own size (a
phone's 48 MP photo of a distant card), so the scanner never reads less than zxing-cpp
alone, and an empty 8000x6000 photo costs about 0.4 s, not 10.5.

A read does not end the cascade while the frame may hold more codes (`may_hold_more`):
the next stages look at the frame with the codes read painted out, so several cards in
one frame are read in one pass, and a lone card costs about two zxing passes.  On a live
camera the fallbacks share a time budget a frame (`Cascade.budget_ms`), so an empty
table costs little.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np

# A tablet build may lack zxing-cpp (python-for-android has no recipe of its own for it):
# OpenCV's and pyzbar's stages still read codes without it.
try:
    import zxingcpp
except ImportError:
    zxingcpp = None  # type: ignore[assignment]

from vision.payload import Reading, classify
from vision.pixels import Unreadable, fit, grey_frame, too_small

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
    """The frame in 8-bit grey, whatever its channels and type (`vision.pixels`); raises
    `Unreadable` (in words) for an array that holds no picture."""
    if frame.ndim == 2 and frame.dtype == np.uint8:
        return frame
    return grey_frame(frame)


def is_text(text: str) -> bool:
    """Whether a decoder's text is a payload at all: a decoder that met bytes invalid in
    the code's encoding puts U+FFFD in their place, and such a text is a misread."""
    return "\ufffd" not in text


def _qr_code() -> zxingcpp.BarcodeFormats:
    """zxing-cpp's format set holding QR codes only, made per call: one kept at module
    level outlives zxing-cpp's own teardown and nanobind reports it as a leak at exit."""
    return zxingcpp.BarcodeFormats(zxingcpp.BarcodeFormat.QRCode)


def zxing(image: np.ndarray, stage: str = "zxing") -> list[Found]:
    """zxing-cpp, QR codes only (any other format is a wasted search and a false hit).

    Every option that costs little is on: light-on-dark codes (`try_invert`, about 0.1 ms
    a 720p frame), turned codes and a downscaled look for large ones.  The text comes back
    as the code's own characters (`TextMode.Plain`): the default would spell a control
    character as "<SOH>", a text the code does not hold.
    """
    out: list[Found] = []
    if zxingcpp is None:
        return out
    for b in zxingcpp.read_barcodes(image, formats=_qr_code(), text_mode=zxingcpp.TextMode.Plain):
        p = b.position
        corners = tuple(
            (float(q.x), float(q.y))
            for q in (p.top_left, p.top_right, p.bottom_right, p.bottom_left)
        )
        if is_text(b.text):
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
    except (cv2.error, UnicodeDecodeError):
        # OpenCV's binding turns the code's bytes into a str as UTF-8 and raises on any
        # other encoding (zxing's photograph qrcode-2/31 holds Shift JIS): not our code.
        return []
    if not ok or points is None:
        return []
    return [
        Found(t, tuple((float(x), float(y)) for x, y in pts), "opencv")
        for t, pts in zip(texts, points, strict=False)
        if t
    ]


ZBAR_CFG_BINARY = 4  # zbar's "do not convert the data to text" setting (zbar.h, 0.23+)
TEXT_ENCODINGS = ("utf-8", "shift_jis")  # what codes without an ECI hold, in practice


def payload_text(data: bytes) -> str | None:
    """A code's bytes as text: UTF-8, else Shift JIS (the two encodings codes without an
    ECI header are written in), strictly; None when they are neither, which is not a read.
    """
    for encoding in TEXT_ENCODINGS:
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    return None


def pyzbar(image: np.ndarray) -> list[Found]:
    """ZBar, whose scan-line finder copes with some codes the others reject.

    ZBar is asked for the code's own bytes (`ZBAR_CFG_BINARY`) and they are decoded here:
    left to itself it guesses the encoding and reads UTF-8 as Shift JIS (zxing's
    photographs qrcode-2/30 and /16 came back garbled), a wrong read."""
    from ctypes import c_void_p, cast

    from pyzbar import pyzbar as zbar
    from pyzbar import wrapper

    pixels, width, height = zbar._pixel_data(image)
    qr = zbar.ZBarSymbol.QRCODE
    with zbar._image_scanner() as scanner:
        wrapper.zbar_image_scanner_set_config(scanner, 0, wrapper.ZBarConfig.CFG_ENABLE, 0)
        wrapper.zbar_image_scanner_set_config(scanner, qr, wrapper.ZBarConfig.CFG_ENABLE, 1)
        if wrapper.zbar_image_scanner_set_config(scanner, qr, ZBAR_CFG_BINARY, 1) != 0:
            return []  # an older zbar that would guess the encoding: no reads, no misreads
        with zbar._image() as img:
            wrapper.zbar_image_set_format(img, zbar._FOURCC["L800"])
            wrapper.zbar_image_set_size(img, width, height)
            wrapper.zbar_image_set_data(img, cast(pixels, c_void_p), len(pixels), None)
            if wrapper.zbar_scan_image(scanner, img) < 0:
                return []
            symbols = list(zbar._decode_symbols(zbar._symbols_for_image(img)))
    out = []
    for s in symbols:
        text = payload_text(s.data)
        if text is not None:
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


def normalized(image: np.ndarray, size: int) -> np.ndarray:
    """Each pixel as its distance from the local mean in local standard deviations: the
    faint modules left under the soft rim of a highlight get the full range again."""
    f = image.astype(np.float32)
    mean = cv2.boxFilter(f, -1, (size, size))
    var = cv2.boxFilter(f * f, -1, (size, size)) - mean * mean
    z = (f - mean) / np.sqrt(np.maximum(var, 4.0))
    return np.asarray(np.clip(128 + z * 40, 0, 255), np.uint8)


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


REGION_HALVES = (90, 130)  # pixels each side of a region's centre: tight, then with more
# of the card around it (a glare next to the code pulls the busiest spot off its centre)
REGION_SCALE = 3.0
REGION_VARIANTS: tuple[Callable[[np.ndarray], np.ndarray], ...] = (
    lambda b: b,
    lambda b: sharpened(b, 2.0, 2.0),
    lambda b: flattened(b, 21, 3.0),
    lambda b: cv2.createCLAHE(4.0, (8, 8)).apply(b),  # glare: contrast tile by tile
    lambda b: normalized(b, 41),
)


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
    for half in REGION_HALVES:
        for crop, x0, y0 in _region_crops(g, half):
            big = cv2.resize(
                crop, None, fx=REGION_SCALE, fy=REGION_SCALE, interpolation=cv2.INTER_CUBIC
            )
            for variant in REGION_VARIANTS:
                found = zxing(variant(big), "zxing+region")
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
    return np.asarray(kernel / kernel.sum(), np.float32)


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


SMEAR_LENGTHS = (14, 12, 10, 9, 6)  # pixels in the 2x region: 3-7 px smears in the frame
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


def gaussian_kernel(sigma: float) -> np.ndarray:
    """A defocus blur's point spread, as a Gaussian `sigma` pixels wide."""
    radius = int(3 * sigma) + 1
    k = cv2.getGaussianKernel(2 * radius + 1, sigma)
    return np.asarray(k @ k.T, np.float32)


DEFOCUS_SIGMAS = (2.0, 3.0, 4.0)  # pixels in the 2x region: 1-2.5 px blur in the frame
DEFOCUS_NOISE = 0.005


def _defocused(g: np.ndarray) -> list[Found]:
    """Undo a defocus blur in the busiest regions: Wiener deconvolution by a Gaussian of
    a few widths.  A camera focused on the table behind a held card, or a lens smudge,
    blurs a code past what sharpening restores (sigma 1.5-2.5 px on 3-4 px modules):
    measured on such frames, this read 18 of 30 that every other stage missed."""
    for crop, x0, y0 in _region_crops(g, 100):
        big = cv2.resize(crop, None, fx=2.0, fy=2.0, interpolation=cv2.INTER_CUBIC)
        # plain, then flattened: a shadow's edge across a blurred code rings through the
        # deconvolution unless the light is evened first
        for image in (big, flattened(big, 21, 2.0)):
            spectrum = np.fft.rfft2(image.astype(np.float32))
            for sigma in DEFOCUS_SIGMAS:
                kernel = gaussian_kernel(sigma)
                found = zxing(
                    deconvolved(spectrum, big.shape, kernel, DEFOCUS_NOISE), "zxing+defocus"
                )
                if found:
                    return _in_frame(found, 2.0, x0, y0)
    return []


MEDIAN_SIZES = (3, 5)  # 7 px also read qrcode-2/13, as a text its own .txt does not hold


def _median(g: np.ndarray) -> list[Found]:
    """zxing on the frame through a median filter of 3 and 5 px: it removes the specks,
    sensor noise, print grain and scratches that break a module's edge, and keeps the
    edges themselves (zxing's photograph qrcode-2/12, at its own size, reads after it)."""
    for size in MEDIAN_SIZES:
        found = zxing(cv2.medianBlur(g, size), "zxing+median")
        if found:
            return found
    return []


def unread_symbols(image: np.ndarray, found: Sequence[Found] = ()) -> list[np.ndarray]:
    """The corners of each QR symbol zxing-cpp located but could not decode, outside the
    codes in `found`: a code is there, so the dear stages are worth trying."""
    quads = _quads(found)
    out: list[np.ndarray] = []
    if zxingcpp is None:
        return out
    for b in zxingcpp.read_barcodes(image, formats=_qr_code(), return_errors=True):
        if b.valid:
            continue
        p = b.position
        corner = (float(p.top_left.x), float(p.top_left.y))
        if not any(_inside(q, corner) for q in quads):
            out.append(
                np.array(
                    [(q.x, q.y) for q in (p.top_left, p.top_right, p.bottom_right, p.bottom_left)],
                    np.float32,
                )
            )
    return out


_curved_detector: cv2.QRCodeDetector | None = None
CURVED_MARGIN = 2.0  # the crop round an unread symbol reaches this many of its sizes out


def curved(image: np.ndarray) -> list[Found]:
    """OpenCV's decoder for codes on a curved surface (a code printed on cloth, a label
    round a bottle: zxing's `qrcode-4/08`), which fits its grid to the bent outline.

    It costs 100-300 ms on a whole 720p frame, so it runs only where zxing-cpp located a
    symbol it could not decode (a checksum failure: its flat grid missed the bent
    modules), on a crop round that symbol (about 40-60 ms), plain and then thresholded
    by Otsu's method (the cloth's folds shade the modules unevenly).
    """
    global _curved_detector
    if _curved_detector is None:
        _curved_detector = cv2.QRCodeDetector()
    h, w = image.shape[:2]
    for quad in unread_symbols(image)[:2]:
        (x0, y0), (x1, y1) = quad.min(0), quad.max(0)
        mx, my = CURVED_MARGIN * (x1 - x0), CURVED_MARGIN * (y1 - y0)
        left, top = int(max(0, x0 - mx)), int(max(0, y0 - my))
        crop = image[top : int(min(h, y1 + my)), left : int(min(w, x1 + mx))]
        otsu = cv2.threshold(crop, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)[1]
        for variant in (crop, otsu):
            try:
                text, points, _ = _curved_detector.detectAndDecodeCurved(variant)
            except (cv2.error, UnicodeDecodeError):  # see `opencv`: not a code of ours
                continue
            if text and points is not None:
                corners = tuple((float(x) + left, float(y) + top) for x, y in points.reshape(-1, 2))
                return [Found(text, corners, "curved")]
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
    Stage("zxing+deblur", _deblurred),
    Stage("zxing+region", _regions),
    Stage("zxing+defocus", _defocused),
    Stage("pyzbar", pyzbar),
    Stage("opencv", opencv),
    Stage("zxing+median", _median),
    Stage("curved", curved),
)

# -- what is left of a frame once its codes are read ---------------------------------------

QUIET_ZONE = 0.25  # a read code is painted out this much wider on each side (its margin)
MORE_CODES_RATIO = 1.25  # texture elsewhere this share of a read code's: look on


def painted_out(image: np.ndarray, found: Sequence[Found]) -> np.ndarray:
    """A copy of the grey frame with the codes already read painted over in the frame's
    median grey, so the next stages look only at what is not yet explained (and the
    region stages, which go to the busiest patches, do not go back to a read code)."""
    out = image.copy()
    fill = int(np.median(image[::8, ::8]))
    for quad in _quads(found):
        centre = quad.mean(0)
        grown = centre + (quad - centre) * (1 + 2 * QUIET_ZONE)
        cv2.fillConvexPoly(out, np.round(grown).astype(np.int32), fill)
    return out


def _quads(found: Sequence[Found]) -> list[np.ndarray]:
    return [np.array(f.corners, np.float32) for f in found if len(f.corners) >= 3]


# brightness to its logarithm: a shadow or a dim corner multiplies the light, and in
# logarithms that is a shift that leaves the edges' strength alone
_LOG = np.clip(np.log1p(np.arange(256) + 8.0) / np.log(264.0) * 255.0, 0, 255).astype(np.uint8)


def _texture(image: np.ndarray) -> np.ndarray:
    """Edge density at a quarter of the frame's size, on the logarithm of the brightness:
    a QR code is the busiest thing on a card, readable or not, and a code in a shadow
    scores as it would in the light (on the plain brightness a half-shadowed code scored
    below the shadow's own edge, and every shadowed frame ran every stage)."""
    small = cv2.resize(
        cv2.LUT(image, _LOG),
        (max(1, image.shape[1] // 4), max(1, image.shape[0] // 4)),
        interpolation=cv2.INTER_LINEAR,
    )
    gx = cv2.convertScaleAbs(cv2.Sobel(small, cv2.CV_16S, 1, 0))
    gy = cv2.convertScaleAbs(cv2.Sobel(small, cv2.CV_16S, 0, 1))
    return cv2.boxFilter(cv2.addWeighted(gx, 0.5, gy, 0.5, 0), -1, (9, 9))


def may_hold_more(image: np.ndarray, found: Sequence[Found]) -> bool:
    """Whether a frame with `found` read may hold more codes.

    Two signs, both cheap: zxing-cpp located a QR symbol it could not decode outside the
    codes read (a glare or shadow on another card), or some patch outside them is more
    textured than the codes read (another code, too small or blurred to be located).
    Measured on the synthetic frames of seeds 1000-1009 and 3000-3019, on the logarithm of
    the brightness: a busy table's dice, print and shadows score up to 1.27 of a code read
    through glare, blur and noise (one blurred frame 1.68), a second clear code 1.19-1.4;
    at 1.05 on plain brightness every shadowed or combined frame ran every stage (127 ms a
    frame on average), at 1.25 a frame costs 14 ms and no second card went unread.  A lone card
    stops here, so a frame that was read costs about two zxing passes.
    """
    quads = _quads(found)
    if not quads:
        return True
    if unread_symbols(image, found):
        return True
    density = _texture(image).astype(np.float32)
    codes = np.zeros(density.shape, np.uint8)
    around = np.zeros(density.shape, np.uint8)
    for quad in quads:
        centre = quad.mean(0)
        cv2.fillConvexPoly(codes, np.round(quad / 4).astype(np.int32), 1)
        grown = centre + (quad - centre) * (1 + 2 * QUIET_ZONE + 0.3)
        cv2.fillConvexPoly(around, np.round(grown / 4).astype(np.int32), 1)
    if not codes.any():
        return True
    code = float(density[codes > 0].mean())
    density[around > 0] = 0
    return float(density.max()) >= MORE_CODES_RATIO * code


def _full_size(g: np.ndarray) -> list[Found]:
    return zxing(g, "zxing+full")


def _rescaled(found: Found, scale: float) -> Found:
    """A code read on a scaled-down frame, its corners back in the frame's own pixels."""
    return Found(found.text, tuple((x / scale, y / scale) for x, y in found.corners), found.stage)


def _inside(quad: np.ndarray, point: tuple[float, float]) -> bool:
    return cv2.pointPolygonTest(quad.reshape(-1, 1, 2), point, True) > -8


# -- the cascade ---------------------------------------------------------------------------

HOT_FRAMES = 15  # a stage that read a code keeps running on this many frames after
CREDIT_FRAMES = 8  # the credit saved for a dear stage is at most this many frames' budget


@dataclass
class Cascade:
    """The stages in order on the grey frame; after a read, the rest go on over the parts
    of the frame not yet explained while it may hold more codes (several cards at once).

    With no `budget_ms` (a folder, a video, the benchmark) every frame may use every
    stage.  With one (the live camera) the first stage runs on every frame and the
    others share `budget_ms` a frame between them: each frame adds the budget to a
    credit, and the next stages in turn run while the credit pays for their measured
    cost, so the expensive stages spread over successive frames of the same scene and an
    empty frame costs little.  A stage that read a code runs on every frame for the next
    `HOT_FRAMES`, whatever it costs, so a card that only it can read is read frame after
    frame and the tracker can confirm it.

    No stage can stop the cascade: an exception in one is counted in `errors` (its last
    words in `last_error`) and the next stage runs.  `stats` counts which stage read
    something, so the scanner panel and the benchmark can show how often the fallbacks
    are needed.
    """

    stages: Sequence[Stage] = DEFAULT_STAGES
    budget_ms: float | None = None
    stats: dict[str, int] = field(default_factory=dict)
    errors: int = 0
    last_error: str = ""
    refused: str = ""  # why the last frame was not a picture to read, or ""
    clock: Callable[[], float] = time.perf_counter  # seconds; tests give a steady one
    _credit: float = 0.0
    _turn: int = 0  # the next stage (after the first) whose turn it is
    _hot: dict[str, int] = field(default_factory=dict)  # stage name -> frames left
    _cost: dict[str, float] = field(default_factory=dict)  # stage name -> ms, smoothed

    def __call__(self, frame: np.ndarray) -> list[Found]:
        """The codes in `frame`: any array is read or refused (`refused` says why, in
        words, and `stats["refused"]` counts them); this never raises."""
        self.refused = ""
        try:
            g = gray(frame)
        except Unreadable as exc:
            self.refused = str(exc)
            self.stats["refused"] = self.stats.get("refused", 0) + 1
            return []
        if too_small(g):
            self.stats["none"] = self.stats.get("none", 0) + 1
            return []
        small, scale = fit(g)
        found = self._cascade(small)
        if scale == 1.0:
            return found
        if not found:  # zxing-cpp alone on the whole photo: never read less than it
            found = self._run(Stage("zxing+full", _full_size), g, [])
            if found:
                self.stats["none"] -= 1
                return found
        return [_rescaled(f, scale) for f in found]

    def _cascade(self, g: np.ndarray) -> list[Found]:
        first, rest = self.stages[0], list(self.stages[1:])
        found = self._run(first, g, [])
        if not found or may_hold_more(g, found):
            for stage in self._plan(rest):  # a stage's turn is used only when it runs
                found += self._run(stage, painted_out(g, found) if found else g, found)
                if found and not may_hold_more(g, found):
                    break
        self._hot = {k: v - 1 for k, v in self._hot.items() if v > 1}
        if not found:
            self.stats["none"] = self.stats.get("none", 0) + 1
        return found

    def _plan(self, rest: list[Stage]) -> Iterator[Stage]:
        """The stages after the first this frame: all of them without a budget; with
        one, the hot ones, then the next in turn while the credit lasts."""
        if self.budget_ms is None:
            yield from rest
            return
        cap = CREDIT_FRAMES * self.budget_ms
        self._credit = min(self._credit + self.budget_ms, cap)
        hot = [s for s in rest if s.name in self._hot]
        yield from hot
        for _ in range(len(rest)):
            if not rest:
                return
            stage = rest[self._turn % len(rest)]
            if stage in hot:
                self._turn += 1
                continue
            if self._cost.get(stage.name, 0.0) > self._credit and self._credit < cap:
                return  # wait for the credit (a stage dearer than the cap runs at the cap)
            self._turn += 1
            yield stage

    def _run(self, stage: Stage, image: np.ndarray, known: list[Found]) -> list[Found]:
        start = self.clock()
        try:
            found = stage.run(image)
        except Exception as exc:  # one bad stage or frame must not stop the scanner
            self.errors += 1
            self.last_error = f"{stage.name}: {type(exc).__name__}: {exc}"
            found = []
        ms = (self.clock() - start) * 1000.0
        self._credit -= ms
        previous = self._cost.get(stage.name)
        self._cost[stage.name] = ms if previous is None else 0.7 * previous + 0.3 * ms
        seen = {f.text for f in known}
        new = []
        for f in found:
            if f.text not in seen:
                seen.add(f.text)
                new.append(f)
        if new:
            self.stats[stage.name] = self.stats.get(stage.name, 0) + 1
            if stage is not self.stages[0]:
                self._hot[stage.name] = HOT_FRAMES
        return new
