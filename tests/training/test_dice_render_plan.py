"""The rendered dice photographs' plans (training/dice/render_plan.py): what decides a label.

Blender is not in the project's environment, so the renderer itself (training/dice/render.py)
is checked where it runs (training/README.md, "The thirteenth"); what it labels with is
checked here: which face is up after a die is turned, that the faces are a real die's, that
the pips sit on their face apart, that the dice stand apart, and that a seed gives one plan.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from training.dice import render_plan as rp


def test_the_faces_are_a_western_die() -> None:
    normals = {f: np.array(n) for f, n in rp.FACE_NORMALS.items()}
    for f, n in normals.items():
        assert np.allclose(n, -normals[7 - f])  # opposite faces make 7
    # 1, 2 and 3 run counter-clockwise round their corner, seen from outside the die.
    a, b, c = normals[1], normals[2], normals[3]
    corner = a + b + c
    assert float(np.cross(b - a, c - a) @ corner) > 0


@pytest.mark.parametrize("face", range(1, 7))
def test_the_face_put_up_is_the_face_labelled(face: int) -> None:
    rng = np.random.default_rng(face)
    for _ in range(50):
        pose = rp.DiePose(
            style=0, face=face, yaw=float(rng.uniform(0, 2 * math.pi)), x=0.0, y=0.0,
            tilt=float(rng.uniform(-0.12, 0.12)),
        )  # fmt: skip
        r = rp.rotation(pose)
        assert np.allclose(r @ r.T, np.eye(3))
        assert np.isclose(np.linalg.det(r), 1.0)  # turned, never mirrored
        assert rp.top_face(r) == face
        up = r @ np.array(rp.FACE_NORMALS[face])
        assert up[2] > math.cos(0.13)


def test_pips_count_their_face_and_stay_on_it_apart() -> None:
    for index in range(40):
        for style in rp.plan(3, index).styles:
            r, g = style.pip_radius, style.pip_offset
            for value in range(1, 7):
                spots = rp.pips(value, style)
                assert len(spots) == value
                for x, y in spots:
                    assert max(abs(x), abs(y)) + r <= 0.47 + 1e-9  # off the rounded edge
                for i, p in enumerate(spots):
                    for q in spots[i + 1 :]:
                        assert math.dist(p, q) >= 2 * r  # never run together
            assert g >= 2 * r


def test_a_seed_gives_one_plan_and_the_dice_stand_apart() -> None:
    assert rp.plan(1, 5) == rp.plan(1, 5)
    assert rp.plan(1, 5) != rp.plan(1, 6)
    assert rp.plan(1, 5) != rp.plan(2, 5)
    counts = []
    for index in range(200):
        p = rp.plan(1, index)
        assert (p.width, p.height) in rp.SIZES
        assert 1 <= len(p.dice) <= 12
        assert math.radians(35) <= p.elevation <= math.radians(90)
        for i, d in enumerate(p.dice):
            assert d.face in range(1, 7)
            assert 0 <= d.style < len(p.styles)
            for e in p.dice[i + 1 :]:
                assert math.hypot(d.x - e.x, d.y - e.y) >= 1.55  # a die's diagonal and more
        counts.append(len(p.dice))
    assert max(counts) >= 5  # tables with many dice, not only one
    faces = [d.face for i in range(200) for d in rp.plan(1, i).dice]
    assert set(faces) == set(range(1, 7))
