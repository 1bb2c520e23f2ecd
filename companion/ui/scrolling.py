"""Every scrolling area of the app stays on what it holds, however late its layout comes.

Why: under load (a busy tablet, a CPU hog beside the tests) Kivy's default scroll effect
kept animating the old scroll offset after a list's content was replaced by a much shorter
one; `ScrollView._update_effect_y` divides that stale offset by the new, tiny scrollable
height, and scroll_y went to -14 (the Kradia Cards panel empty while a card was asked for,
its buttons 40 000 px off the window; issue 25).  So: no bouncing effect (its offset is set
at once from scroll_y, never animated against old bounds) and, with no finger on it, a
scroll position outside [0, 1] is brought back inside.  Applied to every ScrollView and
RecycleView by one kv rule, as each is declared in its own .kv file.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kivy.lang import Builder

if TYPE_CHECKING:
    from kivy.uix.scrollview import ScrollView


def keep_in_range(view: ScrollView) -> None:
    """scroll_x and scroll_y back inside [0, 1] unless a finger is dragging the view."""
    if getattr(view, "_touch", None) is not None:
        return
    for axis in ("scroll_x", "scroll_y"):
        value = getattr(view, axis)
        if value < 0.0 or value > 1.0:
            setattr(view, axis, min(1.0, max(0.0, value)))


RULE = """
#:import keep_in_range companion.ui.scrolling.keep_in_range
<ScrollView>:
    effect_cls: "ScrollEffect"
    on_scroll_y: keep_in_range(self)
    on_scroll_x: keep_in_range(self)
"""


def install() -> None:
    """The rule for every ScrollView, once (after this module is whole: the rule imports
    `keep_in_range` from it)."""
    if RULE not in _LOADED:
        Builder.load_string(RULE, filename="companion-scrolling.kv")
        _LOADED.add(RULE)


_LOADED: set[str] = set()
