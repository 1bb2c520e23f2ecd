"""Face normal tables and the face from a gravity vector, for a home-made smart die.

An accelerometer at rest reads +1 g pointing up, so the face on top is the one whose
outward normal is nearest (largest dot product) to the reading.  Tables list normals in
face-index order: index i is the face printed i + 1, and opposite faces add up as on a
real die (7 on a d6, 9 on a d8, 11 on a d10, 21 on a d20).  Mark a home-made die to match
the table (firmware/README.md shows how).  A reading too far from every normal means the
die leans on something: that is a crooked roll.
"""

import math

# How far (degrees) the reading may lean off the nearest normal before the roll counts as
# crooked: about half the angle to the neighbouring face, less a margin.
CROOKED_DEGREES = {"d6": 20, "d8": 15, "d10": 14, "d20": 12}


def _unit(v):
    n = math.sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2])
    return (v[0] / n, v[1] / n, v[2] / n)


def _neg(v):
    return (-v[0], -v[1], -v[2])


def _with_opposites(first_half, total):
    """Normals for faces 1..n/2 given; face v's opposite is face total - v."""
    n = len(first_half) * 2
    table = [None] * n
    for i, v in enumerate(first_half):
        table[i] = _unit(v)
        table[total - (i + 1) - 1] = _neg(_unit(v))
    return tuple(table)


# d6: 1 up on +z, 2 on +y, 3 on +x; 6, 5, 4 opposite.
D6 = _with_opposites([(0, 0, 1), (0, 1, 0), (1, 0, 0)], 7)
# d8: the octahedron's faces point to the cube's corners.
D8 = _with_opposites([(1, 1, 1), (-1, 1, 1), (-1, -1, 1), (1, -1, 1)], 9)

_PHI = (1 + math.sqrt(5)) / 2
# d20: the icosahedron's face normals point to the dodecahedron's 20 vertices.
D20 = _with_opposites(
    [
        (1, 1, 1),
        (-1, 1, 1),
        (-1, -1, 1),
        (1, -1, 1),
        (0, 1 / _PHI, _PHI),
        (0, -1 / _PHI, _PHI),
        (1 / _PHI, _PHI, 0),
        (-1 / _PHI, _PHI, 0),
        (_PHI, 0, 1 / _PHI),
        (-_PHI, 0, 1 / _PHI),
    ],
    21,
)


def _d10():
    # The pentagonal trapezohedron: kites every 36 degrees, alternately tilted up and down
    # by 16.4 degrees (the polar dual of the uniform pentagonal antiprism).
    tilt = math.atan2(0.25, 0.5 / math.sin(math.pi / 5))
    first = []
    for k in range(5):
        az = math.radians(36 * k)
        el = tilt if k % 2 == 0 else -tilt
        first.append((math.cos(el) * math.cos(az), math.cos(el) * math.sin(az), math.sin(el)))
    return _with_opposites(first, 11)


D10 = _d10()
TABLES = {"d6": D6, "d8": D8, "d10": D10, "d20": D20}


def nearest_face(table, x, y, z):
    """(face index, cosine to its normal); the first entry wins a tie."""
    n = math.sqrt(x * x + y * y + z * z)
    if n == 0:
        return -1, 0.0
    best, best_dot = -1, -2.0
    for i, v in enumerate(table):
        dot = (v[0] * x + v[1] * y + v[2] * z) / n
        if dot > best_dot:
            best, best_dot = i, dot
    return best, best_dot


def read_face(kind, x, y, z):
    """(face index, crooked?) for a die of `kind` resting with gravity reading x y z."""
    face, cos = nearest_face(TABLES[kind], x, y, z)
    return face, cos < math.cos(math.radians(CROOKED_DEGREES[kind]))
