"""The synthetic dice photographs (training/dice/synth.py): reproducible, labelled right.

The pip count below checks the renderer (a die drawn from straight above shows its label's
number of pips), not a reader: it knows where the top face is.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np

from training.dice.synth import (
    FACE_NORMAL,
    PIP_RADIUS,
    REAL_PIP_RADIUS,
    Config,
    _cheap_camera,
    _style,
    make,
    pip_layout,
    real_pips,
    render,
)

ROOT = Path(__file__).resolve().parents[2]
SMALL = Config(min_dice=1, max_dice=6, sizes=((320, 240),))


def test_same_seed_same_bytes() -> None:
    a = make(7, 3, SMALL)
    b = make(7, 3, SMALL)
    assert a[0] == b[0]
    assert json.dumps(a[1]) == json.dumps(b[1])
    assert make(8, 3, SMALL)[0] != a[0]


def test_boxes_faces_and_counts() -> None:
    cfg = Config(min_dice=2, max_dice=5, sizes=((320, 240), (240, 320)))
    for i in range(6):
        scene = render(np.random.default_rng([11, i]), cfg)
        h, w = scene.image.shape[:2]
        assert 2 <= len(scene.dice) <= 5
        for d in scene.dice:
            x0, y0, x1, y1 = d.box
            assert 0 <= x0 < x1 <= w and 0 <= y0 < y1 <= h
            # The whole die's outline lies in its box.
            assert d.hull[:, 0].min() >= x0 and d.hull[:, 0].max() <= x1
            assert d.hull[:, 1].min() >= y0 and d.hull[:, 1].max() <= y1
            assert d.face in range(1, 7)
            assert 0.0 < d.visible <= 1.0


def test_pip_layouts_are_a_real_die() -> None:
    assert [len(pip_layout(v)) for v in range(1, 7)] == [1, 2, 3, 4, 5, 6]
    assert pip_layout(2) != pip_layout(2, turned=True)
    assert sorted(pip_layout(6)) != sorted(pip_layout(6, turned=True))
    # Opposite faces sum to 7; 1, 2, 3 run counter-clockwise round their corner.
    for v in range(1, 7):
        assert np.array_equal(FACE_NORMAL[v], -FACE_NORMAL[7 - v])
    assert np.cross(FACE_NORMAL[1], FACE_NORMAL[2]) @ FACE_NORMAL[3] > 0


def _pips_on_top(image: np.ndarray, quad: np.ndarray) -> int:
    """Blobs that differ from the face's own colour inside the top face's flat part."""
    c = quad.mean(0)
    mask = np.zeros(image.shape[:2], np.uint8)
    cv2.fillConvexPoly(mask, np.round((quad - c) * 0.97 + c).astype(np.int32), 255)
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY).astype(np.int16)
    body = int(np.median(gray[mask > 0]))
    blobs = ((np.abs(gray - body) > 60) & (mask > 0)).astype(np.uint8)
    n, _, stats, _ = cv2.connectedComponentsWithStats(blobs, connectivity=8)
    return sum(1 for s in stats[1:] if s[cv2.CC_STAT_AREA] >= 6)


def test_top_face_from_above_shows_its_pips() -> None:
    cfg = Config(
        min_dice=3, max_dice=4, sizes=((480, 360),), elevation=(90.0, 90.0),
        die_px=(60.0, 70.0), clean=True,
        styles=("white", "ivory", "red", "black", "wood", "green_translucent"),
        backgrounds=("board", "felt", "wood"),
    )  # fmt: skip
    seen = set()
    for i in range(5):
        scene = render(np.random.default_rng([3, i]), cfg)
        for d in scene.dice:
            assert _pips_on_top(scene.image, d.top_quad) == d.face, (i, d.style, d.face)
            seen.add(d.face)
    assert len(seen) >= 5


def test_cli_writes_images_labels_and_yolo(tmp_path: Path) -> None:
    out = tmp_path / "set"
    cmd = [sys.executable, "-m", "training.dice.synth", "--out", str(out), "--count", "2",
           "--seed", "1", "--max-dice", "4", "--size", "320x240", "--yolo", "--quiet"]  # fmt: skip
    subprocess.run(cmd, cwd=ROOT, check=True, timeout=60)
    lines = (out / "labels.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(lines) == 2
    for i, line in enumerate(lines):
        rec = json.loads(line)
        assert rec["image"] == f"images/{i:06d}.jpg"
        img = cv2.imread(str(out / rec["image"]))
        assert img.shape[:2] == (240, 320)
        yolo = (out / "labels" / f"{i:06d}.txt").read_text(encoding="utf-8").splitlines()
        assert len(yolo) == len(rec["dice"]) >= 1
        for row, die in zip(yolo, rec["dice"], strict=True):
            assert int(row.split()[0]) == die["face"] - 1
    # The CLI's image 0 is the library's image 0.
    data, line, _, _ = make(1, 0, Config(max_dice=4, sizes=((320, 240),)))
    assert (out / "images" / "000000.jpg").read_bytes() == data
    assert json.loads(lines[0]) == line


def test_a_set_grown_with_start_is_the_set_written_whole(tmp_path: Path) -> None:
    """`--start` adds images to a set (a longer training run needs more): the grown set has
    the same labels and bytes as one written in one go."""
    whole, grown = tmp_path / "whole", tmp_path / "grown"
    base = [sys.executable, "-m", "training.dice.synth", "--seed", "3", "--max-dice", "3",
            "--size", "320x240", "--quiet"]  # fmt: skip
    subprocess.run([*base, "--out", str(whole), "--count", "3"], cwd=ROOT, check=True, timeout=60)
    subprocess.run([*base, "--out", str(grown), "--count", "1"], cwd=ROOT, check=True, timeout=60)
    subprocess.run(
        [*base, "--out", str(grown), "--count", "3", "--start", "1"], cwd=ROOT, check=True,
        timeout=60,
    )  # fmt: skip
    labels = (grown / "labels.jsonl").read_text(encoding="utf-8")
    assert labels == (whole / "labels.jsonl").read_text(encoding="utf-8")
    assert len(labels.splitlines()) == 3
    for i in range(3):
        name = f"images/{i:06d}.jpg"
        assert (grown / name).read_bytes() == (whole / name).read_bytes()


def test_real_look_pips_span_large_pips_and_stay_apart_on_the_face() -> None:
    """Common dice have pips up to 0.15 of the face; a six's pips must still not touch."""
    rng = np.random.default_rng(0)
    draws = [real_pips(rng) for _ in range(2000)]
    radii = [r for r, _ in draws]
    assert REAL_PIP_RADIUS[0] <= min(radii) < 0.09
    assert 0.145 < max(radii) <= REAL_PIP_RADIUS[1]
    for r, d in draws:
        assert d >= 2 * r + 0.02 - 1e-9, (r, d)  # neighbours in a six's row apart
        assert d + r <= 0.47 + 1e-9, (r, d)  # no pip over the face's edge


def test_real_look_is_reproducible_and_leaves_the_default_mix_alone() -> None:
    real = Config(min_dice=1, max_dice=6, sizes=((320, 240),), real_look=True)
    a = make(7, 3, real)
    assert a[0] == make(7, 3, real)[0]
    assert a[0] != make(7, 3, SMALL)[0]
    for i in range(20):  # without real_look every style keeps the old pip sizes
        st = _style(np.random.default_rng(i), "white")
        assert PIP_RADIUS[0] <= st.pip_r <= PIP_RADIUS[1] and st.pip_soft == 0.0


def test_real_look_top_faces_still_show_their_pips() -> None:
    cfg = Config(
        min_dice=3, max_dice=4, sizes=((480, 360),), elevation=(90.0, 90.0),
        die_px=(60.0, 70.0), clean=True, real_look=True,
        styles=("white", "ivory", "red", "black"), backgrounds=("board", "felt", "wood"),
    )  # fmt: skip
    for i in range(5):
        scene = render(np.random.default_rng([4, i]), cfg)
        for d in scene.dice:
            assert _pips_on_top(scene.image, d.top_quad) == d.face, (i, d.style, d.face)


def test_cheap_camera_makes_grey_photos_and_keeps_the_range() -> None:
    img = np.random.default_rng(1).uniform(0, 255, (60, 80, 3)).astype(np.float32)
    img[:, :, 2] = 250.0  # strongly coloured
    grey = 0
    for i in range(60):
        out = _cheap_camera(np.random.default_rng(i), img.copy())
        assert out.shape == img.shape and out.min() >= 0 and out.max() <= 255
        grey += int(np.abs(out[:, :, 0] - out[:, :, 2]).max() < 1e-3)
    assert 3 <= grey <= 20  # about 15% of photos lose their colour altogether
