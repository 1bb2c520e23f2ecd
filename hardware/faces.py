"""The faces of each kind of die the app rolls or reads, in face-index order, with the
number each face stands for.

Why here and not imported from the core: these are facts about physical dice (a d3 is a
six-sided die marked 1-3 twice; HEXplore's skill d10 shows a hex where a 1 would be), and
the dice adapters stand on their own, below the table layer that joins them to a session
(`companion/table/`).  The core's rules hold the same table
(`companion.core.rules.DIE_FACES`); `tests/table/test_adapter_facts.py` holds the two
equal, so they cannot drift apart.
"""

from __future__ import annotations

DIE_FACES: dict[str, tuple[tuple[str, int], ...]] = {
    "d3": (("1", 1), ("2", 2), ("3", 3), ("1", 1), ("2", 2), ("3", 3)),
    "d6": tuple((str(v), v) for v in range(1, 7)),
    "hex_d6": (("1", 1), ("2", 2), ("3", 3), ("4", 4), ("5", 5), ("hex", 6)),
    "skill_d10": (("hex", 1),) + tuple((str(v), v) for v in range(2, 11)),
    "fate_d8": (("hex", 1),) + tuple((str(v), v) for v in range(2, 9)),
    "d8": tuple((str(v), v) for v in range(1, 9)),
    "d10": tuple((str(v), v) for v in range(1, 11)),
    "d20": tuple((str(v), v) for v in range(1, 21)),
}
