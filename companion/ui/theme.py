"""Colours for the light and dark themes, chosen for reading across a table.

Both keep text contrast well above WCAG AA; the warning colour is used only with a word
beside it so nobody has to tell red from green.
"""

from __future__ import annotations

RGBA = tuple[float, float, float, float]


def _hex(code: str, alpha: float = 1.0) -> RGBA:
    code = code.lstrip("#")
    r, g, b = (int(code[i : i + 2], 16) / 255 for i in (0, 2, 4))
    return (r, g, b, alpha)


PALETTES: dict[str, dict[str, RGBA]] = {
    "dark": {
        "bg": _hex("121417"),
        "panel": _hex("1e2227"),
        "fg": _hex("f2f2f2"),
        "muted": _hex("a9b1ba"),
        "button": _hex("2f3640"),
        "button_down": _hex("465263"),
        "accent": _hex("f2b33d"),
        "accent_fg": _hex("121417"),
        "warn": _hex("e5534b"),
        "ok": _hex("57ab5a"),
    },
    "light": {
        "bg": _hex("f6f4ef"),
        "panel": _hex("ffffff"),
        "fg": _hex("1b1d21"),
        "muted": _hex("545c66"),
        "button": _hex("e3e0d8"),
        "button_down": _hex("c9c4b8"),
        "accent": _hex("8a4b00"),
        "accent_fg": _hex("ffffff"),
        "warn": _hex("b3261e"),
        "ok": _hex("2e6b30"),
    },
}

TOUCH_TARGET_DP = 48  # the smallest thing a finger has to hit (Material and Apple guidance)
BUTTON_DP = 64  # what the app actually uses for main controls, for arm's length play
