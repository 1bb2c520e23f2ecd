"""Colours of the physical pieces, so the screen looks like the table.

Why these values: no two units may be told apart by hue alone (issue 12), so each also has a
shape (pieces.py) and initials; and the colours that players with red-green colour blindness
would confuse most on the table are pushed apart in lightness too: the green minion is a pale
lime, far lighter than Shadowleaf's deep green, and Karn is near-black crimson, far darker than
Stormbringer's lilac.  tests/ui/test_direwild_board.py checks them through simulated
deuteranopia and protanopia.
"""

from __future__ import annotations

SLOT_COLOURS: dict[str, tuple[float, float, float]] = {
    "red": (0.86, 0.2, 0.2),
    "blue": (0.22, 0.45, 0.9),
    "green": (0.72, 0.93, 0.35),
    "black": (0.15, 0.15, 0.15),
    "karn": (0.35, 0.02, 0.12),
}
CLAN_COLOURS: dict[str, tuple[float, float, float]] = {
    "stormbringer": (0.78, 0.62, 1.0),
    "shadowleaf": (0.1, 0.42, 0.18),
    "groundbreaker": (0.45, 0.45, 0.45),
    "featherheart": (0.3, 0.6, 0.95),
    "bloodmaker": (0.85, 0.25, 0.25),
}
GRASS = (0.55, 0.68, 0.42)
GRID = (0.3, 0.38, 0.22)
WALL = (0.25, 0.15, 0.05)
TREASURE = (0.95, 0.8, 0.2)
ALTAR = (0.35, 0.1, 0.35)
ENTRANCE = (0.95, 0.95, 0.85)
OUTLINE = (0.05, 0.05, 0.05)
FACE_DOWN = (0.22, 0.2, 0.18)  # a minion card not yet turned face up
