"""Synthetic photos of labelled cards on a busy table, for the benchmark and the tests.

Real photos would pin the tests to one camera and one table; these are made in code from a
seed, so every run sees the same frames and anyone can add a category.  A frame is a
1280x720 BGR image and the ids of the cards in it.  Each category stresses one thing the
table does to a code: size, tilt, rotation, blur, low light and sensor noise, a highlight
on the sleeve, a hand's shadow, several cards at once, and all of them together.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.labels import modules

WIDTH, HEIGHT = 1280, 720
CARD_W, CARD_H = 252, 352  # a 63 x 88 mm card at 4 px/mm
LABEL_MM = 24
CATEGORIES = (
    "close", "nominal", "small", "perspective", "rotation", "blur", "dark_noisy",
    "glare", "shadow", "several", "combined",
)  # fmt: skip

CARD_IDS = tuple(
    f"{game}/{kind}/{slug}"
    for game, kind, slugs in (
        (
            "direwild",
            "ai",
            ("standard-1", "standard-2", "standard-3", "hardcore-1", "hardcore-2", "mixed-karn"),
        ),
        ("direwild", "minion", ("inkling", "thornback", "mossling")),
        ("kradia", "battlefield", ("crimson-moon", "sea_of_flames", "quiet-grove", "storm-front")),
        (
            "hexplore",
            "circumstance",
            ("what-was-that", "elowens-errand", "ambush", "river-crossing", "lost-supplies"),
        ),
        ("hexplore", "destination", ("the-last-hero", "old-watchtower")),
    )
    for slug in slugs
)


@dataclass
class Frame:
    image: np.ndarray
    cards: list[str]
    category: str
    code_px: list[float] = field(default_factory=list)  # code widths, for reading the results
    code_corners: list[np.ndarray] = field(default_factory=list)  # each code's four corners


def card_image(card_id: str, rng: np.random.Generator, error: str = "q") -> np.ndarray:
    """A card face: painted art, a title bar, rules text, and the QR sticker near the foot."""
    card = np.empty((CARD_H, CARD_W, 3), np.uint8)
    top, bottom = rng.integers(30, 230, 3), rng.integers(30, 230, 3)
    ramp = np.linspace(0, 1, CARD_H)[:, None, None]
    card[:] = (top * (1 - ramp) + bottom * ramp).astype(np.uint8)
    for _ in range(int(rng.integers(6, 14))):  # the "art"
        color = tuple(int(c) for c in rng.integers(0, 256, 3))
        center = (int(rng.integers(0, CARD_W)), int(rng.integers(0, CARD_H // 2)))
        if rng.random() < 0.5:
            cv2.circle(card, center, int(rng.integers(8, 60)), color, -1, cv2.LINE_AA)
        else:
            cv2.line(
                card,
                center,
                (int(rng.integers(0, CARD_W)), int(rng.integers(0, CARD_H))),
                color,
                int(rng.integers(2, 10)),
                cv2.LINE_AA,
            )
    cv2.rectangle(card, (0, 0), (CARD_W - 1, CARD_H - 1), (20, 20, 20), 8)
    cv2.rectangle(card, (14, 14), (CARD_W - 15, 44), (235, 225, 200), -1)
    cv2.putText(
        card,
        card_id.rsplit("/", 1)[-1][:16],
        (20, 37),
        cv2.FONT_HERSHEY_DUPLEX,
        0.6,
        (30, 30, 30),
        1,
        cv2.LINE_AA,
    )
    side = LABEL_MM * 4
    grid = modules(card_id, error)
    code = cv2.resize(
        np.where(grid, 0, 255).astype(np.uint8), (side, side), interpolation=cv2.INTER_NEAREST
    )
    x0, y0 = (CARD_W - side) // 2, CARD_H - side - 40
    card[y0 - 2 : y0 + side + 30, x0 - 2 : x0 + side + 2] = 250  # the sticker
    card[y0 : y0 + side, x0 : x0 + side] = code[:, :, None]
    cv2.putText(
        card,
        "label",
        (x0 + side // 2 - 18, y0 + side + 18),
        cv2.FONT_HERSHEY_SIMPLEX,
        0.45,
        (0, 0, 0),
        1,
        cv2.LINE_AA,
    )
    return card


def code_photo(text: str, size: int = 160, seed: int = 1) -> np.ndarray:
    """Any text as a plain QR code lying on the table: other products' codes, Living Cards,
    labels from a newer format, which the app must name and never open."""
    import segno

    image = table_image(np.random.default_rng(seed))
    grid = np.pad(np.array([list(r) for r in segno.make(text, error="m").matrix], bool), 4)
    code = cv2.resize(
        np.where(grid, 0, 255).astype(np.uint8), (size, size), interpolation=cv2.INTER_NEAREST
    )
    image[200 : 200 + size, 500 : 500 + size] = code[:, :, None]
    return image


def table_image(rng: np.random.Generator) -> np.ndarray:
    """A busy table: wood grain, tokens, dice, a board's printed lines and stray text."""
    yy, xx = np.mgrid[0:HEIGHT, 0:WIDTH].astype(np.float32)
    phase = rng.uniform(0, 6.28)
    grain = np.sin(yy / rng.uniform(5, 12) + np.sin(xx / 90.0 + phase) * 3) * 0.5 + 0.5
    base = np.array(rng.integers(60, 150, 3), np.float32)
    table = (base[None, None, :] * (0.75 + 0.35 * grain[:, :, None])).clip(0, 255)
    table = table.astype(np.uint8)
    for _ in range(int(rng.integers(25, 45))):
        color = tuple(int(c) for c in rng.integers(0, 256, 3))
        p = (int(rng.integers(0, WIDTH)), int(rng.integers(0, HEIGHT)))
        shape = rng.random()
        if shape < 0.35:
            cv2.circle(table, p, int(rng.integers(10, 45)), color, -1, cv2.LINE_AA)
        elif shape < 0.6:
            s = int(rng.integers(15, 40))
            cv2.rectangle(table, p, (p[0] + s, p[1] + s), color, -1)
            for _ in range(int(rng.integers(1, 7))):  # pips on a die
                q = (p[0] + int(rng.integers(4, s - 3)), p[1] + int(rng.integers(4, s - 3)))
                cv2.circle(table, q, 2, (0, 0, 0) if sum(color) > 380 else (255, 255, 255), -1)
        elif shape < 0.85:
            q = (int(rng.integers(0, WIDTH)), int(rng.integers(0, HEIGHT)))
            cv2.line(table, p, q, color, int(rng.integers(1, 5)), cv2.LINE_AA)
        else:
            cv2.putText(
                table,
                "HEX 4 ATK 2",
                p,
                cv2.FONT_HERSHEY_SIMPLEX,
                float(rng.uniform(0.5, 1.5)),
                color,
                2,
                cv2.LINE_AA,
            )
    return np.asarray(table, np.uint8)


def _pose(
    rng: np.random.Generator,
    center: tuple[float, float],
    height: float,
    roll: float,
    tilt_x: float,
    tilt_y: float,
) -> np.ndarray:
    """Where the card's corners land for a card `height` px tall, turned and tilted."""
    w, h = CARD_W / CARD_H * height, height
    corners = np.array(
        [[-w / 2, -h / 2, 0], [w / 2, -h / 2, 0], [w / 2, h / 2, 0], [-w / 2, h / 2, 0]], np.float64
    )
    ax, ay, az = math.radians(tilt_x), math.radians(tilt_y), math.radians(roll)
    rx = np.array([[1, 0, 0], [0, math.cos(ax), -math.sin(ax)], [0, math.sin(ax), math.cos(ax)]])
    ry = np.array([[math.cos(ay), 0, math.sin(ay)], [0, 1, 0], [-math.sin(ay), 0, math.cos(ay)]])
    rz = np.array([[math.cos(az), -math.sin(az), 0], [math.sin(az), math.cos(az), 0], [0, 0, 1]])
    pts = corners @ (rx @ ry @ rz).T
    focal = 1100.0
    scale = focal / (focal + pts[:, 2])
    return np.stack([center[0] + pts[:, 0] * scale, center[1] + pts[:, 1] * scale], 1)


def _place(frame: np.ndarray, card: np.ndarray, quad: np.ndarray) -> np.ndarray:
    src = np.array([[0, 0], [CARD_W, 0], [CARD_W, CARD_H], [0, CARD_H]], np.float32)
    m = cv2.getPerspectiveTransform(src, quad.astype(np.float32))
    warped = cv2.warpPerspective(card, m, (WIDTH, HEIGHT), flags=cv2.INTER_LINEAR)
    mask = cv2.warpPerspective(np.full((CARD_H, CARD_W), 255, np.uint8), m, (WIDTH, HEIGHT))
    np.copyto(frame, warped, where=mask[:, :, None] > 127)
    return m


def _code_geometry(m: np.ndarray) -> tuple[np.ndarray, float]:
    side = LABEL_MM * 4
    x0, y0 = (CARD_W - side) / 2, CARD_H - side - 40
    box = np.array(
        [[[x0, y0]], [[x0 + side, y0]], [[x0 + side, y0 + side]], [[x0, y0 + side]]], np.float32
    )
    pts = cv2.perspectiveTransform(box, m)[:, 0]
    width = float(np.linalg.norm(pts[1] - pts[0]) + np.linalg.norm(pts[2] - pts[3])) / 2
    return pts, width


def _glare(frame: np.ndarray, pts: np.ndarray, rng: np.random.Generator) -> None:
    """A specular highlight on the sleeve: a saturated blob with a soft edge over the code."""
    c = pts.mean(0) + rng.uniform(-0.25, 0.25, 2) * (pts.max(0) - pts.min(0))
    r = float(np.linalg.norm(pts[1] - pts[0])) * rng.uniform(0.12, 0.2)
    yy, xx = np.ogrid[0:HEIGHT, 0:WIDTH]
    d = ((xx - c[0]) / (r * 1.6)) ** 2 + ((yy - c[1]) / r) ** 2
    alpha = np.clip(1.35 - d, 0, 1)[:, :, None] * 0.92
    frame[:] = (frame * (1 - alpha) + 255 * alpha).astype(np.uint8)


def _shadow(frame: np.ndarray, pts: np.ndarray, rng: np.random.Generator) -> None:
    """A hand's or a lamp's shadow: a soft-edged dark half-plane across the code."""
    c = pts.mean(0) + rng.uniform(-0.2, 0.2, 2) * (pts.max(0) - pts.min(0))
    angle = rng.uniform(0, math.pi)
    yy, xx = np.mgrid[0:HEIGHT, 0:WIDTH].astype(np.float32)
    side = (xx - c[0]) * math.cos(angle) + (yy - c[1]) * math.sin(angle)
    depth = rng.uniform(0.3, 0.45)
    soft = np.clip(side / rng.uniform(4, 18) + 0.5, 0, 1)
    gain = depth + (1 - depth) * soft
    frame[:] = (frame * gain[:, :, None]).astype(np.uint8)


def make_frame(category: str, seed: int, error: str = "q", cards: list[str] | None = None) -> Frame:
    """One photo of the category, the same for the same seed; `error` is the labels' QR
    error correction level (the shipped labels use Q).  `cards` names the cards to show
    (tests of a game's cards); by default they are picked from `CARD_IDS` by the seed."""
    if category not in CATEGORIES:
        raise ValueError(f"unknown category '{category}' (known: {', '.join(CATEGORIES)})")
    rng = np.random.default_rng([seed, CATEGORIES.index(category)])
    frame = table_image(rng)
    if cards:
        ids, count = list(cards), len(cards)
    else:
        count = int(rng.integers(3, 5)) if category == "several" else 1
        ids = [str(i) for i in rng.choice(CARD_IDS, size=count, replace=False)]
    height = {
        "close": (520, 640),
        "small": (230, 280),
        "several": (260, 330),
        "combined": (300, 420),
    }.get(category, (320, 440))
    tilt = {"perspective": 50, "combined": 30}.get(category, 8)
    spin = 180 if category in ("rotation", "combined") else 12
    geometry = []
    slots = [(WIDTH * (i + 0.5) / count, HEIGHT / 2) for i in range(count)]
    for card_id, slot in zip(ids, slots, strict=True):
        h = rng.uniform(*height)
        jitter = (WIDTH / count - CARD_W / CARD_H * h) / 2 * 0.6 if count > 1 else 200
        center = (
            slot[0] + rng.uniform(-1, 1) * max(jitter, 0),
            slot[1] + rng.uniform(-1, 1) * max(0, (HEIGHT - h) / 2 * 0.5),
        )
        quad = _pose(
            rng,
            center,
            h,
            rng.uniform(-spin, spin),
            rng.uniform(-tilt, tilt),
            rng.uniform(-tilt, tilt),
        )
        m = _place(frame, card_image(card_id, rng, error), quad)
        geometry.append(_code_geometry(m))
    if category in ("glare", "combined") and (category == "glare" or rng.random() < 0.4):
        _glare(frame, geometry[0][0], rng)
    if category in ("shadow", "combined") and (category == "shadow" or rng.random() < 0.4):
        _shadow(frame, geometry[0][0], rng)
    if category in ("blur", "combined"):
        if rng.random() < 0.5:
            sigma = rng.uniform(1.0, 1.6) if category == "blur" else rng.uniform(0.7, 1.1)
            frame[:] = cv2.GaussianBlur(frame, (0, 0), sigma)
        else:
            n = int(rng.integers(4, 8)) if category == "blur" else int(rng.integers(3, 5))
            kernel = np.zeros((n, n), np.float32)
            kernel[n // 2, :] = 1.0 / n
            rot = cv2.getRotationMatrix2D((n / 2 - 0.5, n / 2 - 0.5), rng.uniform(0, 180), 1)
            turned = cv2.warpAffine(kernel, rot, (n, n))
            smear = np.asarray(turned / max(float(turned.sum()), 1e-6), np.float32)
            frame[:] = cv2.filter2D(frame, -1, smear)
    if category in ("dark_noisy", "combined"):
        gain = rng.uniform(0.22, 0.4) if category == "dark_noisy" else rng.uniform(0.5, 0.8)
        sigma = rng.uniform(7, 12) if category == "dark_noisy" else rng.uniform(3, 6)
        noise = rng.normal(0, sigma, frame.shape).astype(np.float32)
        frame[:] = np.clip(frame * gain + noise, 0, 255).astype(np.uint8)
    ok, jpeg = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 85])  # as a camera sends
    image = np.asarray(cv2.imdecode(jpeg, cv2.IMREAD_COLOR))
    return Frame(image, ids, category, [g[1] for g in geometry], [g[0] for g in geometry])
