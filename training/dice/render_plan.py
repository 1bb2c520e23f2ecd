"""What one rendered dice photograph holds, drawn from a seed: the dice, their faces and
poses, the table, the light and the camera (issue 28).

`training/dice/render.py` builds each plan in Blender's path tracer (Cycles) and renders it.
The plan is kept apart from Blender, so that what decides a label (which face is up, how
the pips lie, where the dice stand) is tested in the project's own environment, and so
that image ``i`` of seed ``s`` is the same plan on every machine.

Why a path tracer beside `synth.py`'s painted dice: every model trained on the painted dice
is sure of itself on real dice it reads wrong.  Real pips are drilled and painted, and a lamp
leaves one side of each hole in shadow; translucent dice bend the light through their body
and show the pips of the faces below; glossy plastic mirrors the room.  A renderer that
follows light gets those for free, where a painter must think of each one.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from training.dice.synth import pip_layout

# The face on each side of the die in its own frame: 1 on top, 2 in front (-y), 3 on the
# right (+x), so 1-2-3 run counter-clockwise round their corner, as on a western d6; each
# face's opposite makes 7.
FACE_NORMALS: dict[int, tuple[float, float, float]] = {
    1: (0.0, 0.0, 1.0),
    6: (0.0, 0.0, -1.0),
    2: (0.0, -1.0, 0.0),
    5: (0.0, 1.0, 0.0),
    3: (1.0, 0.0, 0.0),
    4: (-1.0, 0.0, 0.0),
}

OPAQUE = {
    "white": (0.85, 0.85, 0.83),
    "ivory": (0.8, 0.72, 0.55),
    "cream": (0.85, 0.78, 0.62),
    "red": (0.6, 0.03, 0.03),
    "blue": (0.03, 0.08, 0.5),
    "green": (0.04, 0.35, 0.08),
    "black": (0.02, 0.02, 0.02),
    "yellow": (0.8, 0.6, 0.02),
    "orange": (0.8, 0.25, 0.02),
    "purple": (0.25, 0.05, 0.4),
    "pink": (0.8, 0.35, 0.45),
    "grey": (0.3, 0.3, 0.3),
    "wood": (0.45, 0.25, 0.1),
}
CLEAR = {
    "clear red": (0.9, 0.05, 0.05),
    "clear blue": (0.05, 0.2, 0.9),
    "clear green": (0.05, 0.7, 0.15),
    "clear smoke": (0.3, 0.3, 0.3),
    "clear": (0.95, 0.95, 0.95),
    "clear yellow": (0.9, 0.7, 0.05),
}
GROUNDS = ("felt", "wood", "tray", "board", "fabric", "carpet", "paper")


@dataclass(frozen=True)
class DieStyle:
    """One set's make: body, pips and corners."""

    body: str  # a key of OPAQUE or CLEAR
    rgb: tuple[float, float, float]
    clear: bool  # translucent (casino and gaming dice)
    roughness: float
    pip_rgb: tuple[float, float, float]
    pip_radius: float  # share of the die's side
    pip_offset: float  # share of the die's side, centre to the corner pips' centres
    pip_depth: float  # share of the pip's radius: drilled (0.3 to 0.7) or flush (casino)
    bevel: float  # share of the die's side rounded off each edge
    turned: tuple[bool, bool, bool]  # the 2, the 3 and the 6 turned a quarter
    red_one: bool  # a big red 1, as on many western dice


@dataclass(frozen=True)
class DiePose:
    style: int  # index into Plan.styles
    face: int  # the face up
    yaw: float  # radians about the vertical
    x: float  # on the table, in die sides
    y: float
    tilt: float  # radians: a die leaning on the felt's fold or a neighbour, now and then


@dataclass(frozen=True)
class Plan:
    width: int
    height: int
    styles: tuple[DieStyle, ...]
    dice: tuple[DiePose, ...]
    ground: str
    ground_rgb: tuple[float, float, float]
    ground_scale: float
    sun_elevation: float  # radians
    sun_azimuth: float
    sun_angle: float  # radians: the lamp's size, soft shadows when large
    sun_strength: float
    ambient: float
    ambient_rgb: tuple[float, float, float]
    elevation: float  # the camera's, radians above the table
    azimuth: float
    focal_mm: float  # on a 36 mm sensor
    distance: float  # in die sides, camera to the dice's middle
    exposure: float
    samples: int
    tokens: int  # other things on the table (tokens, tiles)
    quality: int  # JPEG
    cheap: bool  # a cheap camera's look (training/dice/synth.py `_cheap_camera`)


def pips(value: int, style: DieStyle) -> list[tuple[float, float]]:
    """The pips' centres on a face, in die sides from the face's centre: `synth.py`'s
    layouts, so the painted and the rendered dice are the same dice."""
    turned = dict(zip((2, 3, 6), style.turned, strict=True)).get(value, False)
    g = style.pip_offset
    return [(g * x, g * y) for x, y in pip_layout(value, turned)]


def face_frame(value: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The face's outward normal and two axes across it, in the die's own frame."""
    n = np.array(FACE_NORMALS[value])
    u = np.array([1.0, 0.0, 0.0]) if abs(n[0]) < 0.5 else np.array([0.0, 1.0, 0.0])
    v = np.cross(n, u)
    return n, u, v


def _rot_to_up(n: np.ndarray) -> np.ndarray:
    """The rotation taking the unit vector `n` to +z (Rodrigues)."""
    z = np.array([0.0, 0.0, 1.0])
    c = float(n @ z)
    if c > 0.999:
        return np.eye(3)
    if c < -0.999:
        return np.diag([1.0, -1.0, -1.0])
    k = np.cross(n, z)
    s = float(np.linalg.norm(k))
    k = k / s
    kx = np.array([[0, -k[2], k[1]], [k[2], 0, -k[0]], [-k[1], k[0], 0]])
    return np.eye(3) + s * kx + (1 - c) * kx @ kx


def _rot_z(a: float) -> np.ndarray:
    c, s = math.cos(a), math.sin(a)
    return np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])


def _rot_x(a: float) -> np.ndarray:
    c, s = math.cos(a), math.sin(a)
    return np.array([[1.0, 0.0, 0.0], [0.0, c, -s], [0.0, s, c]])


def rotation(pose: DiePose) -> np.ndarray:
    """The die's rotation on the table: its face up, turned by its yaw, leaning by its tilt."""
    up = _rot_to_up(np.array(FACE_NORMALS[pose.face]))
    return _rot_z(pose.yaw) @ _rot_x(pose.tilt) @ up


def top_face(r: np.ndarray) -> int:
    """The face whose normal, turned by `r`, points most nearly up: the label."""
    return max(FACE_NORMALS, key=lambda f: float((r @ np.array(FACE_NORMALS[f]))[2]))


def _style(rng: np.random.Generator) -> DieStyle:
    clear = rng.random() < 0.22
    table = CLEAR if clear else OPAQUE
    body = str(rng.choice(sorted(table)))
    rgb = tuple(float(np.clip(c * rng.uniform(0.85, 1.15), 0, 1)) for c in table[body])
    light = clear or sum(rgb) / 3 < 0.35
    if light:  # white or pale pips on dark and clear bodies
        pip = tuple(float(rng.uniform(0.75, 0.95)) for _ in range(3))
        if not clear and rng.random() < 0.15:
            pip = (0.75, 0.6, 0.1)  # gold
    else:
        pip = tuple(float(rng.uniform(0.0, 0.06)) for _ in range(3))
        if body in ("red", "blue", "green", "purple") and rng.random() < 0.3:
            pip = (0.9, 0.9, 0.9)
    r = float(rng.uniform(0.055, 0.14))
    lo, hi = max(0.2, 2 * r + 0.02), min(0.33, 0.47 - r)
    casino = clear and rng.random() < 0.6
    return DieStyle(
        body=body,
        rgb=rgb,  # type: ignore[arg-type]
        clear=clear,
        roughness=float(rng.uniform(0.02, 0.15) if clear else rng.uniform(0.1, 0.6)),
        pip_rgb=pip,  # type: ignore[arg-type]
        pip_radius=r,
        pip_offset=float(rng.uniform(lo, max(lo, hi))),
        pip_depth=float(rng.uniform(0.03, 0.1) if casino else rng.uniform(0.25, 0.75)),
        bevel=float(rng.uniform(0.01, 0.04) if casino else rng.uniform(0.04, 0.16)),
        turned=(bool(rng.random() < 0.5), bool(rng.random() < 0.5), bool(rng.random() < 0.5)),
        red_one=bool(not clear and body in ("white", "ivory", "cream") and rng.random() < 0.25),
    )


SIZES = ((384, 288), (288, 384), (352, 352), (416, 234))


def plan(seed: int, index: int, max_dice: int = 12) -> Plan:
    """Image `index` of the rendered set `seed`."""
    rng = np.random.default_rng([seed, index, 28])
    width, height = SIZES[int(rng.integers(len(SIZES)))]
    styles = tuple(_style(rng) for _ in range(1 if rng.random() < 0.6 else 2))
    focal = float(rng.uniform(24, 70))
    die_px = float(math.exp(rng.uniform(math.log(14), math.log(130))))  # a die's side, pixels
    f_px = focal / 36 * max(width, height)
    distance = f_px / die_px
    # How many dice fit: the view's half-width on the table in die sides, less a margin.
    half = 0.5 * min(width, height) / die_px - 1.0
    fit = max(1, int((2 * half / 1.7) ** 2 * 0.35))
    most = min(max_dice, fit)
    n = int(rng.integers(max(1, most // 2), most + 1))  # a render's time is its pixels: fill it
    dice: list[DiePose] = []
    spread = max(half - 0.3, 0.0)
    for _ in range(n * 20):
        if len(dice) == n:
            break
        x, y = rng.uniform(-spread, spread, 2) if spread else (0.0, 0.0)
        if any(math.hypot(x - d.x, y - d.y) < 1.55 for d in dice):
            continue
        dice.append(
            DiePose(
                style=int(rng.integers(len(styles))),
                face=int(rng.integers(1, 7)),
                yaw=float(rng.uniform(0, 2 * math.pi)),
                x=float(x),
                y=float(y),
                tilt=float(rng.uniform(-0.12, 0.12) if rng.random() < 0.1 else 0.0),
            )
        )
    ground = str(rng.choice(GROUNDS))
    return Plan(
        width=width,
        height=height,
        styles=styles,
        dice=tuple(dice),
        ground=ground,
        ground_rgb=tuple(float(c) for c in rng.uniform(0.05, 0.8, 3)),  # type: ignore[arg-type]
        ground_scale=float(rng.uniform(0.5, 2.0)),
        sun_elevation=float(rng.uniform(math.radians(25), math.radians(85))),
        sun_azimuth=float(rng.uniform(0, 2 * math.pi)),
        sun_angle=float(rng.uniform(math.radians(0.5), math.radians(35))),
        sun_strength=float(rng.uniform(0.5, 4.0)),
        ambient=float(rng.uniform(0.1, 1.2)),
        ambient_rgb=tuple(float(c) for c in rng.uniform(0.75, 1.0, 3)),  # type: ignore[arg-type]
        elevation=float(rng.uniform(math.radians(35), math.radians(90))),
        azimuth=float(rng.uniform(0, 2 * math.pi)),
        focal_mm=focal,
        distance=distance,
        exposure=float(rng.uniform(-0.7, 0.5)),
        samples=int(rng.choice((8, 12))),
        tokens=int(rng.integers(0, 4)),
        quality=int(rng.integers(55, 96)),
        cheap=bool(rng.random() < 0.3),
    )
