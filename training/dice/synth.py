"""Synthetic photographs of ordinary six-sided dice on tables, with labels (issue 28).

Every image is made here from a seed with numpy and OpenCV alone: no download, no other
data set, no model.  A scene is a table (wood, felt, a grey tray, a white board, fabric or
a bowl), a camera looking down at it from straight above to about 35 degrees, one light
with its soft cast shadows, and 1 to 25 dice.  Each die is a rounded cube in 3D: it rests on
the table with one face up, turned any way, and its visible faces, rounded edges and pips
are projected through the camera, so an oblique view shows two or three faces and the top
one is the one that counts.  The faces follow a real die: opposite faces sum to 7, 1-2-3 run
counter-clockwise round their corner, and the 2, 3 and 6 come in both orientations.  The
photograph is then spoiled the way a phone spoils it: uneven light, white balance, glare,
defocus or motion blur, sensor noise, sharpening and JPEG.

Labels per die: the axis-aligned box of the whole die in pixels ``[x0, y0, x1, y1]`` (x1 and
y1 exclusive), the top face's value, and the share of the die's outline not hidden by a
nearer die.

    python -m training.dice.synth --out DIR --count N --seed S [--yolo] [--jobs J]

writes ``DIR/images/000000.jpg ...`` and ``DIR/labels.jsonl`` (one line per image), and with
``--yolo`` also ``DIR/labels/000000.txt`` (class = face - 1, centre and size over the image's
size).  Image ``i`` depends only on ``(seed, i)``: the same seed gives the same bytes.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

SIZES: tuple[tuple[int, int], ...] = (
    (640, 480), (800, 600), (960, 540), (960, 720), (1024, 768), (1280, 720), (1280, 960),
    (480, 640), (720, 1280),
)  # fmt: skip
STYLES = (
    "white", "ivory", "red", "black", "green_translucent", "blue_translucent", "wood", "coloured",
)  # fmt: skip
BACKGROUNDS = ("wood", "felt", "tray", "board", "fabric", "bowl")

# A die's faces in its own frame: value -> outward normal.  1, 2, 3 on +x, +y, +z run
# counter-clockwise seen from outside their shared corner (a western, "right-handed" die);
# the opposite face of each holds 7 minus it.
FACE_NORMAL: dict[int, np.ndarray] = {
    1: np.array([1.0, 0.0, 0.0]),
    6: np.array([-1.0, 0.0, 0.0]),
    2: np.array([0.0, 1.0, 0.0]),
    5: np.array([0.0, -1.0, 0.0]),
    3: np.array([0.0, 0.0, 1.0]),
    4: np.array([0.0, 0.0, -1.0]),
}
# An in-face axis per face, so each face's pips have a fixed place on the die.
_FACE_U: dict[int, np.ndarray] = {
    1: np.array([0.0, 1.0, 0.0]),
    6: np.array([0.0, 1.0, 0.0]),
    2: np.array([0.0, 0.0, 1.0]),
    5: np.array([0.0, 0.0, 1.0]),
    3: np.array([1.0, 0.0, 0.0]),
    4: np.array([1.0, 0.0, 0.0]),
}


def _rot_x(a: float) -> np.ndarray:
    c, s = math.cos(a), math.sin(a)
    return np.array([[1, 0, 0], [0, c, -s], [0, s, c]], dtype=np.float64)


def _rot_y(a: float) -> np.ndarray:
    c, s = math.cos(a), math.sin(a)
    return np.array([[c, 0, s], [0, 1, 0], [-s, 0, c]], dtype=np.float64)


def _rot_z(a: float) -> np.ndarray:
    c, s = math.cos(a), math.sin(a)
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]], dtype=np.float64)


def _rot_axis(axis: np.ndarray, a: float) -> np.ndarray:
    x, y, z = axis / np.linalg.norm(axis)
    c, s, t = math.cos(a), math.sin(a), 1 - math.cos(a)
    return np.array(
        [
            [t * x * x + c, t * x * y - s * z, t * x * z + s * y],
            [t * x * y + s * z, t * y * y + c, t * y * z - s * x],
            [t * x * z - s * y, t * y * z + s * x, t * z * z + c],
        ]
    )


# The rotation that turns a value's face up (+z in the world).
_FACE_UP: dict[int, np.ndarray] = {
    3: np.eye(3),
    4: _rot_x(math.pi),
    1: _rot_y(-math.pi / 2),
    6: _rot_y(math.pi / 2),
    2: _rot_x(math.pi / 2),
    5: _rot_x(-math.pi / 2),
}

# Sample directions for the rounded corners: each corner of the inner cube carries the
# directions of its own octant, so inner corner + r * direction traces the rounded die.
_dirs = [np.array(d, dtype=np.float64) for d in np.ndindex(3, 3, 3) if d != (1, 1, 1)]
_dirs = [(d - 1) / np.linalg.norm(d - 1) for d in _dirs]
_golden = math.pi * (3 - math.sqrt(5))
for _i in range(96):
    _z = 1 - 2 * (_i + 0.5) / 96
    _r = math.sqrt(1 - _z * _z)
    _dirs.append(np.array([_r * math.cos(_golden * _i), _r * math.sin(_golden * _i), _z]))
_DIRS = np.array(_dirs)
_signs, _offs = [], []
for _sx in (-1, 1):
    for _sy in (-1, 1):
        for _sz in (-1, 1):
            _sg = np.array([_sx, _sy, _sz], dtype=np.float64)
            for _d in _DIRS:
                if np.all(_d * _sg >= -1e-9):
                    _signs.append(_sg)
                    _offs.append(_d)
_CORNER_SIGN = np.array(_signs)
_CORNER_DIR = np.array(_offs)
_EDGES = [(a, b) for a in range(1, 7) for b in range(a + 1, 7) if a + b != 7]


@dataclass(frozen=True)
class Config:
    """What a scene may hold; the defaults are the training mix."""

    min_dice: int = 1
    max_dice: int = 25
    sizes: tuple[tuple[int, int], ...] = SIZES
    elevation: tuple[float, float] = (35.0, 90.0)  # camera above the table, degrees
    die_px: tuple[float, float] | None = None  # a die's side at the centre, pixels
    styles: tuple[str, ...] = STYLES
    backgrounds: tuple[str, ...] = BACKGROUNDS
    clean: bool = False  # no glare, tilt, blur, noise, colour shift or uneven light
    # Real dice and cheap cameras (the fifth model's training mix, `--real-look`): pips
    # from the rendered 0.085-0.115 of the face up to the large pips of common dice
    # (0.15), rounder and softer; smaller dice in the frame; grey, washed-out,
    # low-contrast and low-resolution photos; JPEG down to quality 20.  Off by default so
    # the held-out benchmark and the tests' seeds render the same bytes as before.
    real_look: bool = False


@dataclass
class Die:
    face: int
    box: tuple[int, int, int, int]
    visible: float
    hull: np.ndarray = field(repr=False)  # the die's outline in the image, (N, 2)
    top_quad: np.ndarray = field(repr=False)  # the flat part of the top face, (4, 2)
    style: str = ""

    def label(self) -> dict[str, object]:
        return {"box": list(self.box), "face": self.face, "visible": self.visible}


@dataclass
class Scene:
    image: np.ndarray  # BGR uint8
    dice: list[Die]
    quality: int  # the JPEG quality this image is saved at


# ---------------------------------------------------------------------------------------
# Camera


@dataclass
class _Camera:
    C: np.ndarray  # centre in the world
    R: np.ndarray  # rows: image right, image down, forward
    f: float
    cx: float
    cy: float

    def project(self, P: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        q = (P - self.C) @ self.R.T
        z = q[:, 2]
        uv = np.stack([self.f * q[:, 0] / z + self.cx, self.f * q[:, 1] / z + self.cy], axis=1)
        return uv, z

    def ray_to_table(self, u: float, v: float) -> np.ndarray | None:
        d = self.R.T @ np.array([(u - self.cx) / self.f, (v - self.cy) / self.f, 1.0])
        if d[2] > -1e-3:
            return None
        t = -self.C[2] / d[2]
        return self.C + t * d


def _camera(rng: np.random.Generator, w: int, h: int, el: float, die_px: float) -> _Camera:
    az = rng.uniform(0, 2 * math.pi)
    fov = math.radians(rng.uniform(50, 72))
    f = 0.5 * max(w, h) / math.tan(fov / 2)
    dist = f / die_px  # a die of side 1 at the aim point is die_px wide
    C = dist * np.array([math.cos(el) * math.cos(az), math.cos(el) * math.sin(az), math.sin(el)])
    fwd = -C / np.linalg.norm(C)
    right = np.array([-math.sin(az), math.cos(az), 0.0])
    down = np.cross(fwd, right)
    roll = rng.uniform(-math.pi, math.pi) if el > math.radians(75) else rng.normal(0, 0.1)
    Rr = _rot_axis(fwd, roll)
    R = np.stack([Rr @ right, Rr @ down, fwd])
    return _Camera(C, R, f, w / 2, h / 2)


# ---------------------------------------------------------------------------------------
# Dice


@dataclass
class _Style:
    name: str
    body: np.ndarray  # BGR 0..255
    pip: np.ndarray
    alpha: float  # < 1 for translucent dice
    radius: float  # rounded edges, a share of the side
    pip_r: float  # pip radius, a share of the flat face
    pip_d: float  # pip offset from the centre, a share of the flat face
    pip_soft: float  # pip edge blur, a share of the flat face (0: a sharp edge)
    rim: float  # how much darker the pip's recess rim is (0.25 rendered before)
    one_red: bool
    one_big: bool
    wood: bool
    gloss: float
    variant: tuple[bool, bool, bool]  # 2, 3, 6 turned


def _jitter(rng: np.random.Generator, bgr: Sequence[float], amount: float) -> np.ndarray:
    c = np.array(bgr, dtype=np.float64) + rng.normal(0, amount, 3)
    return np.clip(c, 0, 255)


def _style(rng: np.random.Generator, name: str, real_look: bool = False) -> _Style:
    dark_pip = _jitter(rng, (25, 25, 30), 8)
    white_pip = _jitter(rng, (238, 238, 238), 8)
    alpha, wood, gloss = 1.0, False, rng.uniform(0.2, 0.8)
    if name == "white":
        body, pip = _jitter(rng, (242, 242, 242), 5), dark_pip
    elif name == "ivory":
        body, pip = _jitter(rng, (195, 228, 240), 6), dark_pip
    elif name == "red":
        body, pip = _jitter(rng, (40, 35, 185), 12), white_pip
    elif name == "black":
        body, pip = _jitter(rng, (28, 28, 30), 5), white_pip
        gloss = rng.uniform(0.5, 1.0)
    elif name == "green_translucent":
        body, pip = _jitter(rng, (55, 150, 25), 15), white_pip
        alpha, gloss = rng.uniform(0.6, 0.82), rng.uniform(0.6, 1.0)
    elif name == "blue_translucent":
        body, pip = _jitter(rng, (175, 90, 20), 15), white_pip
        alpha, gloss = rng.uniform(0.6, 0.82), rng.uniform(0.6, 1.0)
    elif name == "wood":
        tone = rng.uniform(0, 1)
        body = _jitter(rng, (95 - 45 * tone, 160 - 70 * tone, 210 - 75 * tone), 6)
        pip = _jitter(rng, (25, 35, 55), 6)
        wood, gloss = True, rng.uniform(0.0, 0.25)
    else:  # an opaque coloured die
        choices = (
            ((40, 205, 235), dark_pip), ((30, 125, 235), white_pip), ((130, 45, 110), white_pip),
            ((60, 130, 35), white_pip), ((150, 65, 25), white_pip), ((150, 110, 230), white_pip),
        )  # fmt: skip
        body_c, pip = choices[int(rng.integers(len(choices)))]
        body = _jitter(rng, body_c, 10)
    one_red = name in ("white", "ivory") and rng.random() < 0.2
    # The draws keep their old order without `real_look`, so old seeds give old bytes.
    radius = rng.uniform(0.06, 0.16) if not wood else rng.uniform(0.04, 0.1)
    if real_look:
        pip_r, pip_d = real_pips(rng)
        pip_soft, rim = float(rng.uniform(0.0, 0.03)), float(rng.uniform(0.0, 0.4))
    else:
        pip_r, pip_d = float(rng.uniform(*PIP_RADIUS)), float(rng.uniform(0.27, 0.31))
        pip_soft, rim = 0.0, 0.25
    return _Style(
        name=name,
        body=body,
        pip=pip,
        alpha=alpha,
        radius=radius,
        pip_r=pip_r,
        pip_d=pip_d,
        pip_soft=pip_soft,
        rim=rim,
        one_red=one_red,
        one_big=one_red or rng.random() < 0.15,
        wood=wood,
        gloss=gloss,
        variant=(bool(rng.random() < 0.5), bool(rng.random() < 0.5), bool(rng.random() < 0.5)),
    )


PIP_RADIUS = (0.085, 0.115)  # the rendered pips before `real_look`, a share of the flat face
REAL_PIP_RADIUS = (0.085, 0.15)  # with `real_look`: up to the large pips of common dice


def real_pips(rng: np.random.Generator) -> tuple[float, float]:
    """A pip radius and pip offset for `real_look`, both shares of the flat face.

    Large pips sit further out on real dice: the offset keeps a six's three pips in a row
    apart (offset >= 2 radius + 0.02) and every pip off the face's edge (offset + radius
    <= 0.47), so a radius of 0.15 forces an offset of 0.32."""
    r = float(rng.uniform(*REAL_PIP_RADIUS))
    lo, hi = max(0.27, 2 * r + 0.02), min(0.33, 0.47 - r)
    return r, float(rng.uniform(lo, max(lo, hi)))


def pip_layout(value: int, turned: bool = False) -> list[tuple[float, float]]:
    """The pips of a face in units of the pip offset, centre (0, 0)."""
    corners_a = [(-1.0, -1.0), (1.0, 1.0)]
    corners_b = [(1.0, -1.0), (-1.0, 1.0)]
    if value == 1:
        return [(0.0, 0.0)]
    if value == 2:
        return corners_b if turned else corners_a
    if value == 3:
        return [*(corners_b if turned else corners_a), (0.0, 0.0)]
    if value == 4:
        return corners_a + corners_b
    if value == 5:
        return [*corners_a, *corners_b, (0.0, 0.0)]
    if value == 6:
        if turned:
            return [(x, y) for y in (-1.0, 1.0) for x in (-1.0, 0.0, 1.0)]
        return [(x, y) for x in (-1.0, 1.0) for y in (-1.0, 0.0, 1.0)]
    raise ValueError(value)


def _wood_texture(rng: np.random.Generator, h: int, w: int, period: float) -> np.ndarray:
    """A grain pattern in 0..1 with its lines along a random direction."""
    ang = rng.uniform(0, math.pi)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    across = -xx * math.sin(ang) + yy * math.cos(ang)
    warp = (
        _fractal(rng, h, w, max(h, w) / rng.uniform(0.7, 1.5), 2) * period * rng.uniform(0.05, 0.35)
    )
    g = 0.5 + 0.5 * np.sin((across + warp) * (2 * math.pi / period))
    return g ** rng.uniform(1.5, 4.0)


def _face_texture(
    rng: np.random.Generator, st: _Style, value: int, size: int, glare: float
) -> np.ndarray:
    """The flat part of one face, size x size, BGR + opacity, float32 0..255 / 0..1."""
    tex = np.empty((size, size, 4), np.float32)
    tex[:, :, :3] = st.body
    tex[:, :, 3] = st.alpha
    if st.wood:
        g = _wood_texture(rng, size, size, size / rng.uniform(3, 8))
        tex[:, :, :3] *= (0.85 + 0.2 * g)[:, :, None]
    elif st.alpha < 1:  # translucent: deeper colour towards the middle of the die
        yy, xx = np.mgrid[0:size, 0:size].astype(np.float32) / size - 0.5
        rr = np.sqrt(xx * xx + yy * yy)
        tex[:, :, :3] *= (0.85 + 0.3 * rr)[:, :, None]
    turned = {2: st.variant[0], 3: st.variant[1], 6: st.variant[2]}.get(value, False)
    shift = 4
    sc = size * (1 << shift)
    pip_mask = np.zeros((size, size), np.uint8)
    rim_mask = np.zeros((size, size), np.uint8)
    for px, py in pip_layout(value, turned):
        r = st.pip_r * (1.45 if value == 1 and st.one_big else 1.0)
        cx = (0.5 + px * st.pip_d) * sc
        cy = (0.5 + py * st.pip_d) * sc
        rad = int(round(r * sc))
        center = (int(round(cx)), int(round(cy)))
        cv2.circle(rim_mask, center, int(rad * 1.12), 255, -1, cv2.LINE_AA, shift)
        cv2.circle(pip_mask, center, rad, 255, -1, cv2.LINE_AA, shift)
    pip = np.asarray(st.pip, np.float32)
    if value == 1 and st.one_red:
        pip = np.array([40, 30, 200], np.float32)
    rim = rim_mask.astype(np.float32)[:, :, None] / 255.0
    m = pip_mask.astype(np.float32)[:, :, None] / 255.0
    # The pip's recess: a darker rim round each pip, then the paint.
    if st.pip_soft > 0:  # worn or moulded pips: a soft edge rather than a cut one
        sigma = st.pip_soft * size
        rim = cv2.GaussianBlur(rim, (0, 0), sigma)[:, :, None]
        m = cv2.GaussianBlur(m, (0, 0), sigma)[:, :, None]
    tex[:, :, :3] = tex[:, :, :3] * (1 - st.rim * rim)
    tex[:, :, :3] = tex[:, :, :3] * (1 - m) + pip * m
    tex[:, :, 3:] = tex[:, :, 3:] * (1 - m) + m
    if glare > 0:
        gx, gy = rng.uniform(0.15, 0.85, 2) * size
        sx, sy = rng.uniform(0.06, 0.3, 2) * size
        yy, xx = np.mgrid[0:size, 0:size].astype(np.float32)
        g = np.exp(-(((xx - gx) / sx) ** 2 + ((yy - gy) / sy) ** 2)) * glare
        tex[:, :, :3] += (255 - tex[:, :, :3]) * g[:, :, None]
        tex[:, :, 3] += (1 - tex[:, :, 3]) * g
    return tex


@dataclass
class _Pose:
    center: np.ndarray
    R: np.ndarray  # die frame -> world
    side: float
    yaw: float
    style: _Style
    face: int = 0
    pts: np.ndarray = field(default_factory=lambda: np.zeros((0, 3)))  # rounded outline
    hull: np.ndarray = field(default_factory=lambda: np.zeros((0, 2)))
    depth: float = 0.0


def _pose(
    st: _Style, side: float, xy: np.ndarray, yaw: float, face: int, tilt: float, tilt_dir: float
) -> _Pose:
    R = _rot_z(yaw) @ _FACE_UP[face]
    if tilt:
        axis = np.array([math.cos(tilt_dir), math.sin(tilt_dir), 0.0])
        R = _rot_axis(axis, tilt) @ R
    h_in = side * (0.5 - st.radius)
    local = _CORNER_SIGN * h_in + _CORNER_DIR * (st.radius * side)
    world = local @ R.T
    z0 = -world[:, 2].min()
    center = np.array([xy[0], xy[1], z0])
    up = max(FACE_NORMAL, key=lambda v: float((R @ FACE_NORMAL[v])[2]))
    return _Pose(center=center, R=R, side=side, yaw=yaw, style=st, face=up, pts=world + center)


def _face_quad(pose: _Pose, value: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The world corners of a face's flat part, in texture order, its normal and centre."""
    n, u = FACE_NORMAL[value], _FACE_U[value]
    v = np.cross(n, u)
    h_in = pose.side * (0.5 - pose.style.radius)
    c = n * pose.side / 2
    local = np.array([c - u * h_in - v * h_in, c + u * h_in - v * h_in,
                      c + u * h_in + v * h_in, c - u * h_in + v * h_in])  # fmt: skip
    return local @ pose.R.T + pose.center, pose.R @ n, pose.R @ c + pose.center


def _fill(mask: np.ndarray, pts: np.ndarray, value: int = 255) -> None:
    cv2.fillConvexPoly(mask, np.round(pts * 16).astype(np.int32), value, cv2.LINE_AA, 4)


@dataclass
class _Light:
    L: np.ndarray  # towards the light
    ambient: float
    view: np.ndarray  # a rough direction towards the camera for highlights


def _shade(n: np.ndarray, light: _Light, gloss: float) -> tuple[float, float]:
    lam = max(0.0, float(n @ light.L))
    diffuse = light.ambient + (1 - light.ambient) * lam / max(light.L[2], 0.35)
    h = light.L + light.view
    h = h / np.linalg.norm(h)
    spec = gloss * max(0.0, float(n @ h)) ** 40
    return min(diffuse, 1.35), spec


def _render_die(
    canvas: np.ndarray,
    pose: _Pose,
    cam: _Camera,
    light: _Light,
    rng: np.random.Generator,
    clean: bool,
) -> None:
    st = pose.style
    hull = pose.hull
    h, w = canvas.shape[:2]
    x0 = max(int(math.floor(hull[:, 0].min())) - 2, 0)
    y0 = max(int(math.floor(hull[:, 1].min())) - 2, 0)
    x1 = min(int(math.ceil(hull[:, 0].max())) + 3, w)
    y1 = min(int(math.ceil(hull[:, 1].max())) + 3, h)
    rw, rh = x1 - x0, y1 - y0
    off = np.array([x0, y0], np.float64)
    body = np.asarray(st.body, np.float32)

    hull_mask = np.zeros((rh, rw), np.uint8)
    _fill(hull_mask, hull - off)
    alpha = hull_mask.astype(np.float32) / 255.0 * st.alpha
    mean_shade, _ = _shade(np.array([0.0, 0.0, 1.0]), light, 0)
    col = np.empty((rh, rw, 3), np.float32)
    col[:] = body * (0.8 * mean_shade)

    def sub(pts: np.ndarray) -> tuple[int, int, int, int] | None:
        """The part of the die's buffer a polygon covers."""
        bx0 = max(int(math.floor(pts[:, 0].min())) - 1, 0)
        by0 = max(int(math.floor(pts[:, 1].min())) - 1, 0)
        bx1 = min(int(math.ceil(pts[:, 0].max())) + 2, rw)
        by1 = min(int(math.ceil(pts[:, 1].max())) + 2, rh)
        return (bx0, by0, bx1, by1) if bx1 > bx0 and by1 > by0 else None

    def over(pts: np.ndarray, colour: np.ndarray) -> None:
        local = pts - off
        b = sub(local)
        if b is None:
            return
        bx0, by0, bx1, by1 = b
        m = np.zeros((by1 - by0, bx1 - bx0), np.uint8)
        _fill(m, local - [bx0, by0])
        a = m.astype(np.float32)[:, :, None] / 255.0
        c = col[by0:by1, bx0:bx1]
        c[:] = c * (1 - a) + colour * a

    # The rounded edges, in three bands each, shaded by their own normals.
    h_in = pose.side * (0.5 - st.radius)
    rad = st.radius * pose.side
    angles = np.linspace(0, math.pi / 2, 4)
    for a, b in _EDGES:
        na, nb = FACE_NORMAL[a], FACE_NORMAL[b]
        axis = np.cross(na, nb)
        e0 = h_in * (na + nb) - h_in * axis
        e1 = h_in * (na + nb) + h_in * axis
        for t0, t1 in zip(angles[:-1], angles[1:], strict=True):
            o0 = rad * (math.cos(t0) * na + math.sin(t0) * nb)
            o1 = rad * (math.cos(t1) * na + math.sin(t1) * nb)
            tm = (t0 + t1) / 2
            n_world = pose.R @ (math.cos(tm) * na + math.sin(tm) * nb)
            p_world = pose.R @ (e0 + o0) + pose.center
            if float(n_world @ (cam.C - p_world)) <= 0:
                continue
            quad = np.array([e0 + o0, e1 + o0, e1 + o1, e0 + o1]) @ pose.R.T + pose.center
            uv, _ = cam.project(quad)
            d, s = _shade(n_world, light, st.gloss * 0.45)
            over(uv, np.minimum(body * d + 255 * s, 255))

    # The flat faces, pips and all, warped through the camera.
    for value in range(1, 7):
        quad, n_world, c_world = _face_quad(pose, value)
        if float(n_world @ (cam.C - c_world)) <= 0:
            continue
        uv, z = cam.project(quad)
        area = abs(cv2.contourArea(uv.astype(np.float32)))
        if area < 1.0:
            continue
        local = uv - off
        b = sub(local)
        if b is None:
            continue
        bx0, by0, bx1, by1 = b
        local = local - [bx0, by0]
        size = int(np.clip(2.0 * math.sqrt(area), 24, 256))
        d, s = _shade(n_world, light, st.gloss * 0.3)
        glare = 0.0
        if not clean and rng.random() < 0.25 * (0.5 + st.gloss):
            glare = rng.uniform(0.3, 1.0) * (0.4 + st.gloss)
        tex = _face_texture(rng, st, value, size, glare)
        tex[:, :, :3] = np.minimum(tex[:, :, :3] * d + 255 * s, 255)
        src = np.array([[0, 0], [size, 0], [size, size], [0, size]], np.float32)
        H = cv2.getPerspectiveTransform(src, local.astype(np.float32))
        warped = cv2.warpPerspective(
            tex, H, (bx1 - bx0, by1 - by0), flags=cv2.INTER_LINEAR,
            borderMode=cv2.BORDER_REPLICATE,
        )  # fmt: skip
        m = np.zeros((by1 - by0, bx1 - bx0), np.uint8)
        _fill(m, local)
        cov = m.astype(np.float32) / 255.0
        c = col[by0:by1, bx0:bx1]
        c[:] = c * (1 - cov[:, :, None]) + warped[:, :, :3] * cov[:, :, None]
        al = alpha[by0:by1, bx0:bx1]
        inside = hull_mask[by0:by1, bx0:bx1] > 0
        al[:] = al * (1 - cov) + warped[:, :, 3] * cov * inside

    roi = canvas[y0:y1, x0:x1]
    a = alpha[:, :, None]
    if st.alpha < 1:  # what shows through a translucent die takes its colour
        hm = (hull_mask.astype(np.float32) / 255.0)[:, :, None]
        through = np.minimum(body / 255.0 * 0.8 + 0.35, 1.0)
        roi[:] = roi * (1 - hm) + roi * through * hm
    roi[:] = roi * (1 - a) + col * a


# ---------------------------------------------------------------------------------------
# Tables


def _noise(rng: np.random.Generator, h: int, w: int, cell: float) -> np.ndarray:
    """Smooth noise, about N(0, 1), with features about `cell` pixels across."""
    gh = max(int(h / cell) + 3, 3)
    gw = max(int(w / cell) + 3, 3)
    g = rng.standard_normal((gh, gw)).astype(np.float32)
    return cv2.resize(g, (w, h), interpolation=cv2.INTER_CUBIC)


def _fractal(rng: np.random.Generator, h: int, w: int, cell: float, octaves: int) -> np.ndarray:
    out = np.zeros((h, w), np.float32)
    amp = 1.0
    for _ in range(octaves):
        out += amp * _noise(rng, h, w, max(cell, 1.5))
        cell /= 2
        amp *= 0.5
    return out


def _grain(rng: np.random.Generator, h: int, w: int, sigma: float) -> np.ndarray:
    n = rng.standard_normal((h, w), dtype=np.float32)
    return cv2.GaussianBlur(n, (0, 0), sigma) if sigma > 0 else n


def _paint(base: Sequence[float], shade: np.ndarray) -> np.ndarray:
    return shade[:, :, None] * np.asarray(base, np.float32)[None, None, :]


def _bg_wood(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    woods = (
        ((60, 110, 165), (25, 55, 95)),  # oak
        ((40, 70, 110), (15, 30, 55)),  # walnut
        ((120, 180, 225), (70, 125, 180)),  # pine
        ((45, 60, 120), (20, 30, 70)),  # cherry
        ((150, 165, 180), (100, 115, 130)),  # grey-washed
    )
    light, dark = (np.array(c, np.float32) for c in woods[int(rng.integers(len(woods)))])
    light = light + rng.normal(0, 8, 3).astype(np.float32)
    ang = rng.uniform(0, math.pi)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    across = -xx * math.sin(ang) + yy * math.cos(ang)
    along = xx * math.cos(ang) + yy * math.sin(ang)
    plank_w = rng.uniform(0.18, 0.6) * max(h, w)
    pos = (across + rng.uniform(0, plank_w)) / plank_w
    plank = np.floor(pos)
    tones = rng.normal(0, 0.1, 64).astype(np.float32)
    tone = tones[(plank.astype(np.int64) % 64)]
    period = rng.uniform(8, 30) * max(h, w) / 1280
    warp = _fractal(rng, h, w, rng.uniform(80, 250), 3) * period * rng.uniform(1.0, 4.0)
    rings = 0.5 + 0.5 * np.sin((across + warp + plank * 997.0) * (2 * math.pi / period))
    fine = np.sin((across + 0.3 * warp) * (2 * math.pi / (period / rng.uniform(4, 9))))
    streak = _noise(rng, h, w, 60) * 0.5
    mix = 0.55 + 0.3 * (rings ** rng.uniform(1, 3) - 0.4) + 0.06 * fine + tone + 0.08 * streak
    mix += 0.03 * np.sin(along * 0.002 + plank)
    seam = np.abs(pos - np.round(pos)) * plank_w
    mix = np.where(seam < 1.5, mix - 0.35, mix)
    mix = np.clip(mix, 0, 1)[:, :, None]
    return dark + (light - dark) * mix


def _bg_felt(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    colours = ((40, 95, 35), (90, 45, 20), (35, 35, 120), (35, 35, 38), (90, 40, 80),
               (110, 110, 105), (25, 60, 25))  # fmt: skip
    base = _jitter(rng, colours[int(rng.integers(len(colours)))], 8)
    shade = 1 + 0.07 * _grain(rng, h, w, 0.7) + 0.05 * _fractal(rng, h, w, 150, 3)
    return _paint(base, shade)


def _bg_tray(
    rng: np.random.Generator,
    h: int,
    w: int,
    centre: tuple[float, float],
    half: tuple[float, float],
    unit: float,
) -> tuple[np.ndarray, np.ndarray]:
    """A grey dice tray: its floor round the table's origin, its walls, the table beyond."""
    g = rng.uniform(95, 175)
    base = _jitter(rng, (g, g, g * rng.uniform(0.95, 1.05)), 3)
    shade = 1 + 0.025 * _grain(rng, h, w, 0.6) + 0.04 * _fractal(rng, h, w, 200, 3)
    img = _paint(base, shade)
    region = np.ones((h, w), bool)
    if rng.random() < 0.75:
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        dx = np.abs(xx - centre[0]) - half[0]
        dy = np.abs(yy - centre[1]) - half[1]
        out = np.maximum(dx, dy)  # > 0 outside the floor, in texture pixels
        wall = rng.uniform(0.6, 1.6) * unit
        inside_wall = (out > 0) & (out < wall)
        tone = rng.uniform(0.55, 1.3)
        img[inside_wall] *= (tone * (0.85 + 0.3 * (out[inside_wall] / wall)))[:, None]
        img[(out > -1.5) & (out < 1.0)] *= 0.7
        beyond = [_bg_wood, _bg_felt, _bg_board][int(rng.integers(3))](rng, h, w)
        img = np.where((out >= wall)[:, :, None], beyond, img)
        region = out < -0.6 * unit
    return img, region


def _blend_mask(img: np.ndarray, m: np.ndarray, colour: np.ndarray, opacity: float) -> None:
    """Paint `colour` over `img` where the uint8 mask `m` is set, only inside its bounding box."""
    x, y, bw, bh = cv2.boundingRect(m)
    if bw == 0 or bh == 0:
        return
    a = m[y : y + bh, x : x + bw].astype(np.float32)[:, :, None] * (opacity / 255.0)
    sub = img[y : y + bh, x : x + bw]
    sub[:] = sub * (1 - a) + np.asarray(colour, np.float32) * a


def _bg_board(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    g = rng.uniform(215, 250)
    base = _jitter(rng, (g, g, g), 3)
    shade = 1 + 0.015 * _grain(rng, h, w, 0.8) + 0.02 * _fractal(rng, h, w, 250, 2)
    img = _paint(base, shade)
    if rng.random() < 0.5:  # a printed game board: spaces, paths, areas
        m = np.zeros((h, w), np.uint8)
        for _ in range(int(rng.integers(4, 14))):
            colour = rng.uniform(60, 230, 3)
            kind = rng.integers(3)
            c = (int(rng.uniform(0, w)), int(rng.uniform(0, h)))
            s = int(rng.uniform(0.05, 0.25) * min(h, w))
            m[:] = 0
            if kind == 0:
                cv2.circle(m, c, s, 255, -1 if rng.random() < 0.6 else 4, cv2.LINE_AA)
            elif kind == 1:
                cv2.rectangle(m, (c[0] - s, c[1] - s // 2), (c[0] + s, c[1] + s // 2), 255, -1)
            else:
                p2 = (int(rng.uniform(0, w)), int(rng.uniform(0, h)))
                cv2.line(m, c, p2, 255, int(rng.integers(3, 20)), cv2.LINE_AA)
            _blend_mask(img, m, colour, rng.uniform(0.3, 0.8))
        if rng.random() < 0.5:
            step = int(rng.uniform(0.08, 0.2) * min(h, w))
            for x in range(int(rng.integers(step)), w, step):
                cv2.line(img, (x, 0), (x, h - 1), (90, 90, 90), 1, cv2.LINE_AA)
            for y in range(int(rng.integers(step)), h, step):
                cv2.line(img, (0, y), (w - 1, y), (90, 90, 90), 1, cv2.LINE_AA)
    return img


def _bg_fabric(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    base = rng.uniform(40, 220, 3)
    ang = rng.uniform(0, math.pi)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    a = xx * math.cos(ang) + yy * math.sin(ang)
    b = -xx * math.sin(ang) + yy * math.cos(ang)
    p = rng.uniform(2.5, 6.0) * max(h, w) / 1280
    weave = np.sin(a * 2 * math.pi / p) * np.sin(b * 2 * math.pi / p)
    shade = 1 + 0.08 * weave + 0.05 * _grain(rng, h, w, 0.6) + 0.06 * _fractal(rng, h, w, 120, 3)
    img = _paint(base, shade)
    if rng.random() < 0.4:  # stripes or checks
        stripe = rng.uniform(0.03, 0.12) * max(h, w)
        other = rng.uniform(40, 220, 3).astype(np.float32)
        sa = (np.floor(a / stripe) % 2).astype(np.float32)
        sb = (np.floor(b / stripe) % 2).astype(np.float32) if rng.random() < 0.5 else 0 * sa
        k = (0.5 * sa + 0.5 * sb)[:, :, None]
        img = img * (1 - k) + _paint(other, shade) * k
    return img


def _bg_bowl(
    rng: np.random.Generator, h: int, w: int, centre: tuple[float, float], radius: float
) -> tuple[np.ndarray, np.ndarray]:
    """A round bowl on a table, lit from one side: dice lie in its flat middle."""
    outer = [_bg_wood, _bg_felt, _bg_board][int(rng.integers(3))](rng, h, w)
    colours = ((235, 235, 235), (30, 30, 32), (60, 110, 165), (150, 90, 40), (60, 60, 150))
    base = _jitter(rng, colours[int(rng.integers(len(colours)))], 6)
    cx, cy = centre
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    r = np.sqrt((xx - cx) ** 2 + (yy - cy) ** 2) / radius
    ang = rng.uniform(0, 2 * math.pi)
    side = ((xx - cx) * math.cos(ang) + (yy - cy) * math.sin(ang)) / radius
    inner = 1.05 - 0.55 * r**3 + rng.uniform(0.1, 0.5) * side * r**2
    img = _paint(base, np.clip(inner, 0.2, 1.4)) * (1 + 0.02 * _grain(rng, h, w, 0.7))[:, :, None]
    rim = (r > 0.97) & (r < 1.04)
    img[rim] = (base * 1.1).clip(0, 255)
    img = np.where((r >= 1.04)[:, :, None], outer * 0.85, img)
    return img, r < 0.7


def _table(
    rng: np.random.Generator, kind: str, cam: _Camera, w: int, h: int, px: float, clutter: bool
) -> tuple[np.ndarray, np.ndarray | None]:
    """The table as the camera sees it: a texture made flat on the table, then projected."""
    dist = float(np.linalg.norm(cam.C))
    xy = []
    for u in np.linspace(0, w, 6):
        for v in np.linspace(0, h, 6):
            d = cam.R.T @ np.array([(u - cam.cx) / cam.f, (v - cam.cy) / cam.f, 1.0])
            t = -cam.C[2] / d[2] if d[2] < -1e-6 else math.inf
            xy.append((cam.C + min(t, 4 * dist) * d)[:2])
    pts = np.array(xy)
    lo, hi = pts.min(0), pts.max(0)
    area = float(np.prod(hi - lo))
    unit = min(px, math.sqrt(1.8 * w * h / max(area, 1e-6)))  # texture pixels per die side
    tw = int(math.ceil((hi[0] - lo[0]) * unit)) + 2
    th = int(math.ceil((hi[1] - lo[1]) * unit)) + 2
    origin = (-lo[0] * unit, -lo[1] * unit)  # the table's origin (the camera's aim) in the texture
    region = None
    if kind == "wood":
        tex = _bg_wood(rng, th, tw)
    elif kind == "felt":
        tex = _bg_felt(rng, th, tw)
    elif kind == "tray":
        half = (rng.uniform(0.4, 0.6) * w / px * unit, rng.uniform(0.4, 0.6) * h / px * unit)
        tex, region = _bg_tray(rng, th, tw, origin, half, unit)
    elif kind == "board":
        tex = _bg_board(rng, th, tw)
    elif kind == "fabric":
        tex = _bg_fabric(rng, th, tw)
    elif kind == "bowl":
        radius = rng.uniform(0.4, 0.6) * max(w, h) / px * unit
        tex, region = _bg_bowl(rng, th, tw, origin, radius)
    else:
        raise ValueError(f"unknown background {kind!r}")
    if clutter:
        _distractors(rng, tex, unit)
    A = np.array([[1 / unit, 0, lo[0]], [0, 1 / unit, lo[1]], [0, 0, 1]])
    K = np.array([[cam.f, 0, cam.cx], [0, cam.f, cam.cy], [0, 0, 1]])
    M = K @ np.column_stack([cam.R[:, 0], cam.R[:, 1], -cam.R @ cam.C])
    H = M @ A
    img = cv2.warpPerspective(
        tex.astype(np.float32), H, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT_101
    )
    if region is not None:
        region = (
            cv2.warpPerspective(
                region.astype(np.uint8),
                H,
                (w, h),
                flags=cv2.INTER_NEAREST,
                borderMode=cv2.BORDER_CONSTANT,
                borderValue=0,
            )  # fmt: skip
            > 0
        )
    return img, region


def _distractors(rng: np.random.Generator, img: np.ndarray, px: float) -> None:
    """Tokens, cubes of another game, a pencil: things on a table that are not dice."""
    h, w = img.shape[:2]
    for _ in range(int(rng.integers(1, 5))):
        colour = rng.uniform(20, 240, 3)
        c = (int(rng.uniform(0, w)), int(rng.uniform(0, h)))
        kind = rng.integers(3)
        m = np.zeros((h, w), np.uint8)
        if kind == 0:  # a round token
            cv2.circle(m, c, int(px * rng.uniform(0.5, 1.2)), 255, -1, cv2.LINE_AA)
        elif kind == 1:  # a card's edge or a tile
            box = (
                (c[0], c[1]),
                (px * rng.uniform(2, 5), px * rng.uniform(2, 7)),
                rng.uniform(0, 180),
            )
            cv2.fillConvexPoly(m, cv2.boxPoints(box).astype(np.int32), 255, cv2.LINE_AA)
        else:  # a pencil
            ang = rng.uniform(0, math.pi)
            ln = px * rng.uniform(4, 10)
            p2 = (int(c[0] + ln * math.cos(ang)), int(c[1] + ln * math.sin(ang)))
            cv2.line(m, c, p2, 255, max(int(px * 0.35), 2), cv2.LINE_AA)
        sh = np.roll(cv2.GaussianBlur(m, (0, 0), px * 0.15), (int(px * 0.1), int(px * 0.1)), (0, 1))
        _blend_mask(img, sh, np.zeros(3, np.float32), 0.35)
        _blend_mask(img, m, colour, 1.0)


# ---------------------------------------------------------------------------------------
# Scenes


def _layout(
    rng: np.random.Generator,
    cfg: Config,
    w: int,
    h: int,
    n: int,
    px: float,
    cam: _Camera,
    region: np.ndarray | None,
    styles: list[_Style],
) -> list[_Pose]:
    poses: list[_Pose] = []
    margin = 0.03 * min(w, h)
    base_side = 1.0
    mixed_size = rng.random() < 0.15
    touch = rng.uniform(0.0, 0.35)
    attempts = 0
    while len(poses) < n and attempts < 40 * n + 40:
        attempts += 1
        st = styles[len(poses) % len(styles)]
        side = base_side * (rng.uniform(0.75, 1.2) if mixed_size else rng.uniform(0.97, 1.03))
        face = int(rng.integers(1, 7))
        tilt = 0.0
        if not cfg.clean and rng.random() < 0.08:
            tilt = math.radians(rng.uniform(3, 18))
        if poses and rng.random() < touch:  # flush against a die already down
            other = poses[int(rng.integers(len(poses)))]
            k = int(rng.integers(4))
            yaw = other.yaw + k * math.pi / 2
            gap = 1.03 + rng.uniform(0, 0.06)
            d = np.array([math.cos(yaw), math.sin(yaw)]) * (other.side + side) / 2 * gap
            perp = np.array([-math.sin(yaw), math.cos(yaw)]) * rng.uniform(-0.4, 0.4) * side
            xy = other.center[:2] + d + perp
            yaw += rng.normal(0, math.radians(1.5))
            tilt = 0.0
        else:
            u = rng.uniform(margin, w - margin)
            v = rng.uniform(margin, h - margin)
            if region is not None and not region[int(v), int(u)]:
                continue
            P = cam.ray_to_table(u, v)
            if P is None:
                continue
            xy = P[:2]
            yaw = rng.uniform(0, 2 * math.pi)
            other = None
        pose = _pose(st, side, xy, yaw, face, tilt, rng.uniform(0, 2 * math.pi))
        ok = True
        for q in poses:
            dist = float(np.linalg.norm(q.center[:2] - pose.center[:2]))
            need = (q.side + pose.side) / 2 * (1.0 if q is other else 1.45)
            if dist < need:
                ok = False
                break
        if not ok:
            continue
        uv, z = cam.project(pose.pts)
        if z.min() <= 0:
            continue
        hull = cv2.convexHull(uv.astype(np.float32)).reshape(-1, 2).astype(np.float64)
        if hull[:, 0].min() < 2 or hull[:, 1].min() < 2:
            continue
        if hull[:, 0].max() > w - 3 or hull[:, 1].max() > h - 3:
            continue
        span = max(np.ptp(hull[:, 0]), np.ptp(hull[:, 1]))
        if span < max(14.0, 0.5 * px) or span > 3 * px:
            continue
        pose.hull = hull
        pose.depth = float(np.linalg.norm(pose.center - cam.C))
        poses.append(pose)
    return poses


def _visibility(poses: list[_Pose], cam: _Camera, w: int, h: int) -> list[tuple[float, float]]:
    """Per pose (in the given far-to-near order): its outline's and its top face's visible share."""
    ids = np.zeros((h, w), np.int32)
    for i, p in enumerate(poses):
        cv2.fillConvexPoly(ids, np.round(p.hull).astype(np.int32), i + 1)
    out = []
    for i, p in enumerate(poses):
        x0, y0 = np.floor(p.hull.min(0)).astype(int)
        x1, y1 = np.ceil(p.hull.max(0)).astype(int) + 1
        sub = ids[y0:y1, x0:x1]
        own = np.zeros(sub.shape, np.uint8)
        cv2.fillConvexPoly(own, np.round(p.hull - [x0, y0]).astype(np.int32), 1)
        total = max(int(own.sum()), 1)
        seen = int(((sub == i + 1) & (own > 0)).sum())
        top, _, _ = _face_quad(p, p.face)
        tuv, _ = cam.project(top)
        tm = np.zeros(sub.shape, np.uint8)
        cv2.fillConvexPoly(tm, np.round(tuv - [x0, y0]).astype(np.int32), 1)
        ttotal = max(int(tm.sum()), 1)
        tseen = int(((sub == i + 1) & (tm > 0)).sum())
        out.append((seen / total, tseen / ttotal))
    return out


def _postprocess(rng: np.random.Generator, img: np.ndarray) -> np.ndarray:
    h, w = img.shape[:2]
    scale = max(h, w) / 1280
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    xn, yn = xx / w - 0.5, yy / h - 0.5
    # Uneven light: a gradient across the table, a lamp's pool, the lens's vignette.
    ang = rng.uniform(0, 2 * math.pi)
    light = 1 + rng.uniform(0, 0.35) * (xn * math.cos(ang) + yn * math.sin(ang))
    if rng.random() < 0.4:
        lx, ly = rng.uniform(-0.5, 0.5, 2)
        light += rng.uniform(0.1, 0.35) * np.exp(-((xn - lx) ** 2 + (yn - ly) ** 2) / 0.08)
    light *= 1 - rng.uniform(0, 0.35) * (xn**2 + yn**2) * 2
    if rng.random() < 0.15:  # a glossy surface's reflected lamp
        lx, ly = rng.uniform(-0.45, 0.45, 2)
        sx = rng.uniform(0.03, 0.12)
        spot = np.exp(-((xn - lx) ** 2 + ((yn - ly) * h / w) ** 2) / (2 * sx**2))
        img += (255 - img) * (spot * rng.uniform(0.3, 0.9))[:, :, None]
    img *= light[:, :, None] * rng.uniform(0.75, 1.2)
    # White balance and a touch of gamma.
    temp = rng.normal(0, 0.08)
    gains = np.exp(np.array([-temp, 0, temp]) + rng.normal(0, 0.03, 3)).astype(np.float32)
    img *= gains
    np.clip(img, 0, 255, out=img)
    img[:] = 255 * (img / 255) ** rng.uniform(0.8, 1.25)
    # Blur: out of focus or moved.
    r = rng.random()
    if r < 0.35:
        img[:] = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.4, 1.8) * scale)
    elif r < 0.5:
        ln = max(int(rng.uniform(3, 11) * scale), 2)
        k = np.zeros((ln, ln), np.float32)
        cv2.line(k, (0, ln // 2), (ln - 1, ln // 2), 1.0, 1)
        rot = cv2.getRotationMatrix2D((ln / 2 - 0.5, ln / 2 - 0.5), rng.uniform(0, 180), 1)
        k = cv2.warpAffine(k, rot, (ln, ln))
        img[:] = cv2.filter2D(img, -1, k / max(k.sum(), 1e-6))
    # Phone processing: a resample, then sharpening.
    if rng.random() < 0.2:
        f = rng.uniform(0.45, 0.8)
        small = cv2.resize(img, (int(w * f), int(h * f)), interpolation=cv2.INTER_AREA)
        img[:] = cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)
    # Sensor noise: shot noise grows with the light, read noise and colour blotches do not.
    sigma = rng.uniform(0.5, 5.0)
    lum = np.sqrt(np.clip(img, 1, 255) / 255)
    noise = rng.standard_normal((h, w, 3), dtype=np.float32) * (sigma * (0.5 + lum))
    if rng.random() < 0.4:
        noise += (
            cv2.resize(rng.standard_normal((h // 4, w // 4, 3)).astype(np.float32), (w, h))
            * sigma
            * 0.6
        )
    img += noise
    if rng.random() < 0.35:
        blur = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.8, 2.0) * scale)
        img[:] = img + rng.uniform(0.3, 1.0) * (img - blur)
    return img


REAL_LOW_JPEG = (20, 55)  # `real_look`: the low JPEG qualities, [lo, hi)


def _cheap_camera(rng: np.random.Generator, img: np.ndarray) -> np.ndarray:
    """What cheap cameras, thumbnails and forwarded photos do to a photo (`real_look`).

    Shrunk and grown back (a thumbnail, a small sensor, digital zoom), low contrast (haze,
    a dim room, auto-exposure on a bright table), colour drained or gone (grey cameras,
    scanned or filtered photos).  Each is independent, so some photos get all three."""
    h, w = img.shape[:2]
    if rng.random() < 0.3:
        f = rng.uniform(0.12, 0.45)
        small = cv2.resize(
            img, (max(int(w * f), 8), max(int(h * f), 8)), interpolation=cv2.INTER_AREA
        )
        up = cv2.INTER_CUBIC if rng.random() < 0.5 else cv2.INTER_LINEAR
        img = cv2.resize(small, (w, h), interpolation=up)
    if rng.random() < 0.3:
        c = rng.uniform(0.4, 0.85)
        mid = float(img.mean()) + rng.uniform(-25, 25)
        img = mid + (img - mid) * c
    r = rng.random()
    if r < 0.35:
        grey = img @ np.array([0.114, 0.587, 0.299], np.float32)
        keep = 0.0 if r < 0.15 else rng.uniform(0.15, 0.7)
        img = grey[:, :, None] + (img - grey[:, :, None]) * keep
    return np.clip(img, 0, 255).astype(np.float32)


def render(rng: np.random.Generator, cfg: Config = Config()) -> Scene:
    """One photograph and its dice."""
    if not 1 <= cfg.min_dice <= cfg.max_dice:
        raise ValueError("need 1 <= min_dice <= max_dice")
    w, h = cfg.sizes[int(rng.integers(len(cfg.sizes)))]
    n = int(rng.integers(cfg.min_dice, cfg.max_dice + 1))
    kind = cfg.backgrounds[int(rng.integers(len(cfg.backgrounds)))]
    el = math.radians(rng.uniform(*cfg.elevation))
    # Which dice: one set, two sets, or a handful of odd ones.
    r = rng.random()
    k = 1 if r < 0.5 else 2 if r < 0.8 else n
    names = [cfg.styles[int(rng.integers(len(cfg.styles)))] for _ in range(min(k, n))]
    styles = [_style(rng, nm, cfg.real_look) for nm in names]
    m = min(h, w)
    if cfg.die_px is not None:
        px = rng.uniform(*cfg.die_px)
    else:
        hi = min(0.16 * m, 0.75 * math.sqrt(w * h * 0.45 / n))
        # Real photos hold small dice too: with `real_look` down to 12 px a side.
        lo = min(max(12.0, 0.022 * m) if cfg.real_look else max(18.0, 0.035 * m), hi)
        px = math.exp(rng.uniform(math.log(lo), math.log(hi)))
    clutter = not cfg.clean and rng.random() < 0.3
    poses: list[_Pose] = []
    for _ in range(30):
        cam = _camera(rng, w, h, el, px)
        bg, region = _table(rng, kind, cam, w, h, px, clutter)
        poses = _layout(rng, cfg, w, h, n, px, cam, region, styles)
        poses.sort(key=lambda p: -p.depth)
        while poses:  # drop the die whose top is hidden most, till every top can be read
            vis = _visibility(poses, cam, w, h)
            worst = min(range(len(poses)), key=lambda i: min(vis[i][0] / 0.35, vis[i][1] / 0.6))
            if vis[worst][0] >= 0.35 and vis[worst][1] >= 0.6:
                break
            poses.pop(worst)
        if len(poses) >= cfg.min_dice:
            break
        px *= 0.85
    else:
        raise RuntimeError("could not place the dice")
    canvas = bg
    # The light: one lamp, maybe a second weaker one; the camera's rough direction for highlights.
    az, lel = rng.uniform(0, 2 * math.pi), math.radians(rng.uniform(30, 80))
    L = np.array([math.cos(lel) * math.cos(az), math.cos(lel) * math.sin(az), math.sin(lel)])
    view = cam.C / np.linalg.norm(cam.C)
    light = _Light(L=L, ambient=rng.uniform(0.4, 0.7), view=view)
    _shadows(rng, canvas, poses, cam, light, px)
    for p in poses:
        _render_die(canvas, p, cam, light, rng, cfg.clean)
    if not cfg.clean:
        canvas = _postprocess(rng, canvas)
        if cfg.real_look:
            canvas = _cheap_camera(rng, canvas)
    image = np.clip(canvas + 0.5, 0, 255).astype(np.uint8)
    vis = _visibility(poses, cam, w, h)
    dice = []
    for p, (seen, _) in zip(poses, vis, strict=True):
        x0 = max(int(math.floor(p.hull[:, 0].min())), 0)
        y0 = max(int(math.floor(p.hull[:, 1].min())), 0)
        x1 = min(int(math.ceil(p.hull[:, 0].max())) + 1, w)
        y1 = min(int(math.ceil(p.hull[:, 1].max())) + 1, h)
        top, _, _ = _face_quad(p, p.face)
        tuv, _ = cam.project(top)
        dice.append(
            Die(
                face=p.face,
                box=(x0, y0, x1, y1),
                visible=round(seen, 3),
                hull=p.hull,
                top_quad=tuv,
                style=p.style.name,
            )
        )
    if cfg.clean:
        quality = 95
    elif cfg.real_look and rng.random() < 0.3:
        quality = int(rng.integers(*REAL_LOW_JPEG))  # a thumbnail saved small, or re-sent
    else:
        quality = int(rng.integers(55, 96))
    return Scene(image=image, dice=dice, quality=quality)


def _shadows(
    rng: np.random.Generator,
    canvas: np.ndarray,
    poses: list[_Pose],
    cam: _Camera,
    light: _Light,
    px: float,
) -> None:
    h, w = canvas.shape[:2]
    k = 2 if px > 24 else 1  # shadows are soft: work at half size
    sw, sh = (w + k - 1) // k, (h + k - 1) // k
    cast = np.zeros((sh, sw), np.uint8)
    contact = np.zeros((sh, sw), np.uint8)
    L = light.L
    for p in poses:
        P = p.pts
        S = P - (P[:, 2:3] / L[2]) * L[None, :]
        uv, z = cam.project(S)
        if z.min() <= 0:
            continue
        hull = cv2.convexHull(uv.astype(np.float32)).reshape(-1, 2)
        val = 255 if p.style.alpha >= 1 else 150
        _fill(cast, hull.astype(np.float64) / k, val)
        foot = P[P[:, 2] < p.side * 0.08]
        if len(foot) >= 3:
            fuv, _ = cam.project(foot)
            c = fuv.mean(0)
            fh = cv2.convexHull(((fuv - c) * 1.06 + c).astype(np.float32)).reshape(-1, 2)
            _fill(contact, fh.astype(np.float64) / k, val)
    soft = rng.uniform(0.05, 0.25) * px
    cs = cv2.GaussianBlur(cast, (0, 0), max(soft / k, 0.8)).astype(np.float32) / 255.0
    ct = cv2.GaussianBlur(contact, (0, 0), max(0.06 * px / k, 0.8)).astype(np.float32) / 255.0
    if k > 1:
        cs = cv2.resize(cs, (w, h), interpolation=cv2.INTER_LINEAR)
        ct = cv2.resize(ct, (w, h), interpolation=cv2.INTER_LINEAR)
    strength = rng.uniform(0.3, 0.65) * (1.3 - light.ambient)
    canvas *= ((1 - strength * cs) * (1 - 0.35 * ct))[:, :, None]


# ---------------------------------------------------------------------------------------
# Files


def make(
    seed: int, index: int, cfg: Config = Config()
) -> tuple[bytes, dict[str, object], list[Die], tuple[int, int]]:
    """Image `index` of the data set `seed`: its JPEG bytes, its labels line, its dice, its size."""
    rng = np.random.default_rng([seed, index])
    scene = render(rng, cfg)
    ok, buf = cv2.imencode(".jpg", scene.image, [cv2.IMWRITE_JPEG_QUALITY, scene.quality])
    if not ok:
        raise RuntimeError("JPEG encoding failed")
    h, w = scene.image.shape[:2]
    line: dict[str, object] = {
        "image": f"images/{index:06d}.jpg",
        "width": w,
        "height": h,
        "dice": [d.label() for d in scene.dice],
    }
    return buf.tobytes(), line, scene.dice, (w, h)


def yolo_lines(dice: Sequence[Die], w: int, h: int) -> str:
    rows = []
    for d in dice:
        x0, y0, x1, y1 = d.box
        rows.append(
            f"{d.face - 1} {(x0 + x1) / 2 / w:.6f} {(y0 + y1) / 2 / h:.6f} "
            f"{(x1 - x0) / w:.6f} {(y1 - y0) / h:.6f}"
        )
    return "".join(r + "\n" for r in rows)


def _job(args: tuple[int, int, Config]) -> tuple[int, bytes, dict[str, object], str]:
    seed, index, cfg = args
    data, line, dice, (w, h) = make(seed, index, cfg)
    return index, data, line, yolo_lines(dice, w, h)


def generate(
    out: Path,
    count: int,
    seed: int,
    cfg: Config = Config(),
    yolo: bool = False,
    jobs: int = 1,
    start: int = 0,
) -> Iterator[int]:
    """Write images `start` to `count - 1` of the data set; yields each index as it is
    written.  With `start` > 0 the labels are added to the folder's `labels.jsonl`, so a set
    grows to the same bytes as one written whole."""
    (out / "images").mkdir(parents=True, exist_ok=True)
    if yolo:
        (out / "labels").mkdir(parents=True, exist_ok=True)
    tasks = [(seed, i, cfg) for i in range(start, count)]
    mode = "a" if start else "w"
    with open(out / "labels.jsonl", mode, encoding="utf-8", newline="\n") as labels:
        if jobs > 1:
            import multiprocessing

            with multiprocessing.get_context("spawn").Pool(jobs) as pool:
                results: Iterator[tuple[int, bytes, dict[str, object], str]] = pool.imap(
                    _job, tasks, chunksize=4
                )
                yield from _write(out, labels, results, yolo)
        else:
            yield from _write(out, labels, map(_job, tasks), yolo)


def _write(out: Path, labels, results, yolo: bool) -> Iterator[int]:  # type: ignore[no-untyped-def]
    for index, data, line, yl in results:
        (out / "images" / f"{index:06d}.jpg").write_bytes(data)
        labels.write(json.dumps(line, separators=(",", ":")) + "\n")
        if yolo:
            (out / "labels" / f"{index:06d}.txt").write_text(yl, encoding="utf-8", newline="\n")
        yield index


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m training.dice.synth",
        description="Synthetic photographs of six-sided dice on tables, with labels.",
    )
    ap.add_argument("--out", type=Path, required=True, help="folder to write")
    ap.add_argument("--count", type=int, required=True, help="how many images")
    ap.add_argument(
        "--start", type=int, default=0, help="first index to write (grow an existing set)"
    )
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--min-dice", type=int, default=1)
    ap.add_argument("--max-dice", type=int, default=25)
    ap.add_argument("--size", help="one size for every image, WIDTHxHEIGHT (default: a mix)")
    ap.add_argument("--yolo", action="store_true", help="also write labels/NNNNNN.txt")
    ap.add_argument("--jobs", type=int, default=1, help="processes (the output is the same)")
    ap.add_argument(
        "--real-look",
        action="store_true",
        help="large, soft pips, small dice, grey, low-contrast, low-resolution photos",
    )
    ap.add_argument("--quiet", action="store_true")
    a = ap.parse_args(argv)
    sizes = SIZES
    if a.size:
        sw, sh = (int(v) for v in a.size.lower().split("x"))
        sizes = ((sw, sh),)
    cfg = Config(min_dice=a.min_dice, max_dice=a.max_dice, sizes=sizes, real_look=a.real_look)
    for i in generate(a.out, a.count, a.seed, cfg, a.yolo, a.jobs, a.start):
        if not a.quiet and (i + 1) % 100 == 0:
            print(f"{i + 1}/{a.count}", file=sys.stderr)
    if not a.quiet:
        print(f"wrote {a.count} images to {a.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
