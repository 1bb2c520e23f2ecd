"""Colours of the physical pieces, so the screen looks like the table."""

from __future__ import annotations

SLOT_COLOURS: dict[str, tuple[float, float, float]] = {
    "red": (0.86, 0.2, 0.2),
    "blue": (0.22, 0.45, 0.9),
    "green": (0.2, 0.7, 0.3),
    "black": (0.15, 0.15, 0.15),
    "karn": (0.45, 0.05, 0.45),
}
CLAN_COLOURS: dict[str, tuple[float, float, float]] = {
    "stormbringer": (0.6, 0.3, 0.85),
    "shadowleaf": (0.25, 0.65, 0.3),
    "groundbreaker": (0.3, 0.3, 0.3),
    "featherheart": (0.3, 0.6, 0.95),
    "bloodmaker": (0.85, 0.25, 0.25),
}
GRASS = (0.55, 0.68, 0.42)
GRID = (0.3, 0.38, 0.22)
WALL = (0.25, 0.15, 0.05)
TREASURE = (0.95, 0.8, 0.2)
ALTAR = (0.35, 0.1, 0.35)
