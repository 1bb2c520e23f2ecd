"""What a player across the table sees wrong on a screen, measured on the drawn window.

Why a module of its own: the ergonomics checks (tests/ui/test_ergonomics.py) hold every
screen, panel and sheet to the same rules at every size and text size, so the rules live
in one place: touch targets of 48 dp, no text clipped or a word broken mid-word, no widget
off the window or over another, no words of a game's view half hidden by its scrolling
column's edge (a stencil's cut is no overlap of drawn words, yet reads as one), the words
a board draws itself read whole, and text contrast of 4.5:1 (3:1 for large text and for
drawn marks) measured from the rendered pixels, not from the colours the code asked for
(a label over a drawn bar or board reads only as well as what is really under it).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

Box = tuple[float, float, float, float]  # left, bottom, right, top in window pixels

MARKUP = re.compile(r"\[/?[a-z_]+(=[^\]]*)?\]")


# -- the drawn window -------------------------------------------------------------------


def window_pixels() -> np.ndarray:
    """The window as drawn now, rows bottom-up (as window y grows), RGB floats 0..1: the
    widgets drawn again into a framebuffer of the window's size (`companion.ui.shot.redrawn`,
    as SDL's offscreen surface keeps its first size)."""
    from kivy.core.window import Window

    from companion.ui.shot import redrawn

    width, height = (int(v) for v in Window.size)
    raw = redrawn(lambda fbo: fbo.texture.pixels)
    rgba = np.frombuffer(raw, dtype=np.uint8).reshape(height, width, 4)
    return rgba[:, :, :3].astype(np.float32) / 255.0


def luminance(rgb: np.ndarray) -> np.ndarray:
    """WCAG relative luminance of sRGB colours (…, 3) in 0..1."""
    linear = np.where(rgb <= 0.04045, rgb / 12.92, ((rgb + 0.055) / 1.055) ** 2.4)
    return linear @ np.array([0.2126, 0.7152, 0.0722], dtype=np.float32)


def ratio(a: float, b: float) -> float:
    high, low = max(a, b), min(a, b)
    return (high + 0.05) / (low + 0.05)


def measured_contrast(pixels: np.ndarray, box: Box) -> float | None:
    """The contrast of the ink in `box` against its background, from the pixels: the
    background is the box's most common colour, the ink the pixels standing out from it
    (the strongest tenth of them, so a glyph's soft edges do not pull it down and one
    stray pixel does not push it up).  None: nothing drawn stands out (an empty box)."""
    height, width = pixels.shape[:2]
    left, bottom, right, top = (int(round(v)) for v in box)
    left, bottom = max(left, 0), max(bottom, 0)
    right, top = min(right, width), min(top, height)
    if right - left < 2 or top - bottom < 2:
        return None
    patch = pixels[bottom:top, left:right].reshape(-1, 3)
    codes = (patch * 255).round().astype(np.int32)
    keys = codes[:, 0] * 65536 + codes[:, 1] * 256 + codes[:, 2]
    values, counts = np.unique(keys, return_counts=True)
    back = values[counts.argmax()]
    lum = luminance(patch)
    back_lum = float(lum[keys == back][0])
    contrasts = (np.maximum(lum, back_lum) + 0.05) / (np.minimum(lum, back_lum) + 0.05)
    ink = contrasts[contrasts > 1.15]
    if ink.size < 4:
        return 1.0 if ink.size == 0 else float(ink.max())
    return float(np.quantile(ink, 0.9))


# -- the widget tree --------------------------------------------------------------------


def walk(widget: Any) -> Iterator[Any]:
    yield widget
    for child in widget.children:
        yield from walk(child)


def ancestors(widget: Any) -> Iterator[Any]:
    parent = widget.parent
    while parent is not None and parent is not widget:
        yield parent
        widget, parent = parent, parent.parent


def box(widget: Any) -> Box:
    left, bottom = widget.to_window(widget.x, widget.y)
    return left, bottom, left + widget.width, bottom + widget.height


def intersection(a: Box, b: Box) -> Box | None:
    out = (max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3]))
    return out if out[0] < out[2] and out[1] < out[3] else None


def shown(widget: Any) -> bool:
    """Drawn for a player: in the window, neither it nor a holder see-through or 0 high."""
    if widget.get_root_window() is None or widget.width <= 1 or widget.height <= 1:
        return False
    return all(w.opacity > 0.05 for w in [widget, *ancestors(widget)])


def clipping(widget: Any) -> Box | None:
    """The part of `widget` not cut away by the scrolling areas holding it (a row
    scrolled out of its list is not on screen, whatever its coordinates say)."""
    from kivy.uix.stencilview import StencilView

    seen: Box | None = box(widget)
    for holder in ancestors(widget):
        if seen is None:
            return None
        if isinstance(holder, StencilView):
            seen = intersection(seen, box(holder))
    return seen


def is_text(widget: Any) -> bool:
    from kivy.uix.label import Label

    return isinstance(widget, Label) and bool(str(widget.text).strip())


def is_target(widget: Any) -> bool:
    from kivy.uix.behaviors import ButtonBehavior
    from kivy.uix.textinput import TextInput

    return isinstance(widget, ButtonBehavior | TextInput)


def words_of(widget: Any) -> list[str]:
    text = MARKUP.sub("", str(widget.text)) if getattr(widget, "markup", False) else widget.text
    return [w for w in str(text).split() if w]


def text_width(widget: Any, text: str) -> float:
    from kivy.core.text import Label as CoreLabel

    core = CoreLabel(
        text=text, font_size=widget.font_size, font_name=widget.font_name, bold=widget.bold
    )
    core.refresh()
    return float(core.texture.size[0])


def name(widget: Any) -> str:
    text = " ".join(words_of(widget))[:40] if is_text(widget) else ""
    return f"{type(widget).__name__} {text!r}" if text else type(widget).__name__


@dataclass
class Looks:
    """The problems of what the window shows now: `check(root)` after the layout settled."""

    dp48: float
    window: tuple[int, int]
    checked_targets: int = 0
    checked_texts: int = 0

    def check(self, roots: Iterable[Any], pixels: np.ndarray | None) -> list[str]:
        problems: list[str] = []
        shown_ink: list[tuple[Any, Box]] = []
        win: Box = (0, 0, self.window[0], self.window[1])
        for root in roots:
            for w in walk(root):
                if not shown(w):
                    problems += self.squeezed(w)
                    continue
                seen = clipping(w)
                if seen is None:
                    continue  # scrolled out of its list
                problems += self.off_window(w, seen, win)
                problems += self.scrolled_away(w)
                # a board's squares are touch targets (48 dp), and never under 40 px while it
                # waits on a roll or card and takes no taps (issue 25: 28 px, 24 in portrait)
                cell = getattr(w, "touch_cell_size", None)
                least = max(40.0, self.dp48 * 40 / 48) if w.disabled else self.dp48
                if callable(cell) and cell() < least - 0.5:
                    problems.append(
                        f"{type(w).__name__} squares are {cell():.0f} px, under {least:.0f} px"
                    )
                problems += self.track_spaces(w)
                if w.disabled:
                    continue
                if is_target(w):
                    self.checked_targets += 1
                    if min(w.size) < self.dp48 - 0.5:
                        problems.append(
                            f"{name(w)} is {w.width:.0f}x{w.height:.0f} px, under 48 dp"
                        )
                if is_text(w):
                    self.checked_texts += 1
                    problems += self.clipped(w)
                    problems += self.half_hidden(w, seen)
                    problems += self.cut_lines(w, seen)
                    shown_ink.append((w, seen))
                    if pixels is not None:
                        problems += self.contrast(w, seen, pixels)
                if pixels is not None:
                    problems += self.marks(w, pixels)
                    problems += self.drawn_words(w, pixels)
        problems += self.overlaps(shown_ink)
        for root in roots:
            problems += self.edge_labels(root, shown_ink)
        return problems

    def track_spaces(self, w: Any) -> list[str]:
        """A drawn track's spaces (`track_space()`: a space's side in pixels, Direwild's
        Karn's track pinned above the board) read from across the table: never under
        40 dp, the least a board square waited on is drawn at (issue 25: beside the
        next step's button on a phone at Largest text they were 11 px)."""
        told = getattr(w, "track_space", None)
        if not callable(told):
            return []
        least = max(40.0, self.dp48 * 40 / 48)
        if told() < least - 0.5:
            return [f"{type(w).__name__} spaces are {told():.0f} px, under {least:.0f} px"]
        return []

    @staticmethod
    def edge_labels(root: Any, ink: list[tuple[Any, Box]]) -> list[str]:
        """A board's edge labels (`edge_labels()`: its column letters and row numbers,
        (what, box) pairs in window pixels) each seen whole or not at all, and none under
        words drawn above the board (outside its scrolling area): the Enemy AI card names
        squares by them (issue 25: in portrait at Largest text the letters sat half under
        Karn's track, cut by the scrolling column's top edge; a stencil's cut is not drawn,
        so the overlap check never saw it)."""
        from kivy.uix.scrollview import ScrollView
        from kivy.uix.stencilview import StencilView

        problems = []
        for w in walk(root):
            told = getattr(w, "edge_labels", None)
            if not callable(told) or not shown(w):
                continue
            stencils = [box(a) for a in ancestors(w) if isinstance(a, StencilView)]
            scroller = next((a for a in ancestors(w) if isinstance(a, ScrollView)), None)
            above = [
                (o, obox)
                for o, obox in ink
                if scroller is None or scroller not in ancestors(o)
                if o is not w and o not in ancestors(w)
            ]
            for what, drawn in told():
                area = (drawn[2] - drawn[0]) * (drawn[3] - drawn[1])
                if area <= 0:
                    continue
                inner: Box | None = drawn  # drawn beside the board's box: only stencils cut
                for cut in stencils:
                    inner = intersection(inner, cut) if inner is not None else None
                part = (inner[2] - inner[0]) * (inner[3] - inner[1]) / area if inner else 0.0
                # the top edge: under what is pinned above (the fold below is a board
                # sliding on, as a list cut at its end)
                if 0.02 < part < 0.98 and inner is not None and inner[3] < drawn[3] - 1:
                    problems.append(
                        f"{type(w).__name__} {what} is half hidden by its scrolling area's "
                        f"top edge ({part:.0%} of it seen)"
                    )
                    continue
                if inner is None:
                    continue
                for o, obox in above:
                    met = intersection(inner, obox)
                    if met is not None and met[2] - met[0] >= 2 and met[3] - met[1] >= 2:
                        problems.append(f"{type(w).__name__} {what} is under {name(o)}")
                        break
        return problems

    @staticmethod
    def squeezed(w: Any) -> list[str]:
        """Words drawn in a box with no width or height left (a row's steppers took it
        all on a phone at the Largest text: "Level" drawn a letter a line over them); a
        label put away on purpose is see-through or has no words."""
        if not is_text(w) or w.get_root_window() is None or w.width > 1 and w.height > 1:
            return []
        if not all(v.opacity > 0.05 for v in [w, *ancestors(w)]):
            return []
        if min(w.texture_size) <= 2:
            return []
        return [f"{name(w)} has no room: drawn in {w.width:.0f}x{w.height:.0f} px"]

    @staticmethod
    def off_window(w: Any, seen: Box, win: Box) -> list[str]:
        left, bottom, right, top = seen
        if left < -1 or bottom < -1 or right > win[2] + 1 or top > win[3] + 1:
            return [
                f"{name(w)} is off the window "
                f"(x {left:.0f}..{right:.0f} of {win[2]:.0f}, y {bottom:.0f}..{top:.0f} of {win[3]:.0f})"
            ]
        return []

    @staticmethod
    def scrolled_away(w: Any) -> list[str]:
        """A scrolling area showing none of what it holds (its content scrolled off)."""
        from kivy.uix.scrollview import ScrollView

        if not isinstance(w, ScrollView) or not w.children:
            return []
        content = w.children[0]
        if content.height <= 1 or not any(shown(c) for c in content.children):
            return []
        if intersection(box(content), box(w)) is None:
            return [f"{name(w)} shows none of its content (scroll_y {w.scroll_y:.2f})"]
        return []

    @staticmethod
    def clipped(w: Any) -> list[str]:
        """Text cut short ("Direwil..."), a word broken over two lines ("Dic/e"), or text
        taller or wider than the box it is drawn in."""
        problems = []
        room = w.text_size[0] if w.text_size[0] is not None else None
        if w.shorten and text_width(w, MARKUP.sub("", w.text)) > (room or w.width) + 1:
            problems.append(f"{name(w)} is cut short to fit {w.width:.0f} px")
        if room is not None:
            for word in words_of(w):
                if text_width(w, word) > room + 1:
                    problems.append(f"{name(w)}: {word!r} is broken over lines in {room:.0f} px")
                    break
        if w.texture_size[1] > w.height + 2 and not w.shorten:
            problems.append(
                f"{name(w)} is clipped: {w.texture_size[1]:.0f} px of text in {w.height:.0f} px"
            )
        if room is None and w.texture_size[0] > w.width + 2:
            problems.append(
                f"{name(w)} runs out of its box: {w.texture_size[0]:.0f} px in {w.width:.0f} px"
            )
        return problems

    @staticmethod
    def half_hidden(w: Any, seen: Box) -> list[str]:
        """Words of a game's view (the table at a glance) that an edge of a scrolling area
        runs through: whole or gone.  Under the top edge a button reads as lying under
        what borders it (issue 25: Direwild's turn-order picks showed their lower halves
        under the next step's button at Largest text; the overlap check compares only
        drawn words, and what a stencil cuts is not drawn); at the fold a row of cards
        reads as broken (Kradia's hero cards split through their names in portrait), in
        the views that say they keep their fold between rows (`fold_between_rows`).  A
        game's view places its scrolling column itself, so what its edges cut is its
        doing; a panel's or a sheet's list cut at its end says there is more below."""
        from companion.ui.gameviews import SendsCommands

        view = next((a for a in ancestors(w) if isinstance(a, SendsCommands)), None)
        if not is_text(w) or view is None:
            return []
        left, bottom, right, top = box(w)
        th = min(float(w.texture_size[1]), top - bottom)
        cy = (bottom + top) / 2
        low, high = cy - th / 2, cy + th / 2  # the words' band, as the label centres them
        # the fold: held to it in the views that keep it between rows (Direwild, Kradia)
        folded = getattr(view, "fold_between_rows", False) and seen[1] > low + 1
        if th < 4 or (seen[3] >= high - 1 and not folded):
            return []
        shown_part = max(0.0, min(seen[3], high) - max(seen[1], low)) / th
        if shown_part <= 0.02:
            return []
        edge = "top" if seen[3] < high - 1 else "bottom"
        return [
            f"{name(w)} is half hidden by its scrolling area's {edge} edge "
            f"({shown_part:.0%} of its words seen)"
        ]

    @staticmethod
    def cut_lines(w: Any, seen: Box) -> list[str]:
        """Text in a scrolling area whose edge runs through a line of it, as first shown
        (issue 25: the AI card's moves cut mid-line, the boss's attack read as two and a
        half lines): each edge of what is seen falls between two lines.  Only text drawn
        from its box's top (as tall as its lines, or aligned to the top), and only what a
        scrolling area holds as its own content (a list's rows cut at its end are a list)."""
        from kivy.uix.scrollview import ScrollView

        if not isinstance(w.parent, ScrollView):
            return []
        lines = list(getattr(getattr(w, "_label", None), "_cached_lines", None) or ())
        left, bottom, right, top = box(w)
        if len(lines) < 2 or (seen[1] <= bottom + 1 and seen[3] >= top - 1):
            return []
        if abs(w.height - w.texture_size[1]) > 2 and w.valign != "top":
            return []
        edges = [top - float(w.padding[1])]
        for line in lines:
            edges.append(edges[-1] - line.h)
        for edge, cut in ((seen[3], seen[3] < top - 1), (seen[1], seen[1] > bottom + 1)):
            if not cut or edge <= edges[-1] + 1 or edge >= edges[0] - 1:
                continue
            if min(abs(edge - e) for e in edges) > 3:
                return [f"{name(w)} shows a line cut through by its scrolling area's edge"]
        return []

    @staticmethod
    def large(w: Any) -> bool:
        """WCAG's large text: 18 pt, or 14 pt bold (24 and 18.7 px)."""
        from kivy.metrics import sp

        points = w.font_size / sp(1) * 0.75
        return points >= 18 or (w.bold and points >= 14)

    def contrast(self, w: Any, seen: Box, pixels: np.ndarray) -> list[str]:
        if len(w.color) > 3 and w.color[3] < 0.1:
            return []
        # the text's own box: its texture, where the label draws it (centred unless aligned)
        tw, th = w.texture_size
        left, bottom, right, top = box(w)
        if tw < right - left:
            cx = (left + right) / 2
            left, right = cx - tw / 2, cx + tw / 2
        if th < top - bottom:
            cy = (bottom + top) / 2
            bottom, top = cy - th / 2, cy + th / 2
        inner = intersection((left, bottom, right, top), seen)
        if inner is None or inner[3] - inner[1] < 0.9 * (top - bottom):
            return []  # a row partly scrolled out of its list: what is left is not its words
        got = measured_contrast(pixels, inner)
        need = 3.0 if self.large(w) else 4.5
        if got is not None and got < need - 0.05:
            return [f"{name(w)} contrast {got:.1f}:1, under {need}:1"]
        return []

    @staticmethod
    def marks(w: Any, pixels: np.ndarray) -> list[str]:
        """Drawn marks a widget names (`marks()`: (what, box) pairs in window pixels), each
        3:1 against what is around it (WCAG's graphical objects)."""
        told = getattr(w, "marks", None)
        if not callable(told):
            return []
        problems = []
        seen = clipping(w)
        for what, drawn in told():
            mark = intersection(drawn, seen) if seen is not None else None
            if mark is None or mark[2] - mark[0] < drawn[2] - drawn[0] - 1:
                continue  # scrolled out of sight, or only partly
            if mark[3] - mark[1] < drawn[3] - drawn[1] - 1:
                continue
            got = measured_contrast(pixels, mark)
            if got is not None and got < 2.95:
                problems.append(f"{type(w).__name__} {what} contrast {got:.1f}:1, under 3:1")
        return problems

    @staticmethod
    def drawn_words(w: Any, pixels: np.ndarray) -> list[str]:
        """Words a widget draws itself (`words()`: (what, box) pairs in window pixels, a
        board's spawn words), each read whole and at 4.5:1: within its box only its
        background, its ink and their blend (issue 25: a spawn ring and a minion's path
        ran through "Red", read "Rei")."""
        told = getattr(w, "words", None)
        if not callable(told):
            return []
        problems = []
        seen = clipping(w)
        for what, drawn in told():
            inner = intersection(drawn, seen) if seen is not None else None
            if inner is None or (inner[2] - inner[0]) * (inner[3] - inner[1]) < 0.95 * (
                (drawn[2] - drawn[0]) * (drawn[3] - drawn[1])
            ):
                continue  # scrolled out of sight, or only partly
            got = measured_contrast(pixels, inner)
            if got is not None and got < 4.45:
                problems.append(f"{type(w).__name__} {what} contrast {got:.1f}:1, under 4.5:1")
            crossed = foreign_share(pixels, inner)
            if crossed > 0.01:
                problems.append(
                    f"{type(w).__name__} {what} is crossed by other drawing "
                    f"({crossed:.0%} of its box neither its words nor their background)"
                )
        return problems

    @staticmethod
    def overlaps(ink: list[tuple[Any, Box]]) -> list[str]:
        """Two pieces of text drawn over each other (neither holding the other)."""
        problems = []
        for i, (a, abox) in enumerate(ink):
            for b, bbox in ink[i + 1 :]:
                both = intersection(abox, bbox)
                if both is None or both[2] - both[0] < 3 or both[3] - both[1] < 3:
                    continue
                if a in ancestors(b) or b in ancestors(a):
                    continue
                if not (texts_meet(a, b, both)):
                    continue
                problems.append(f"{name(a)} overlaps {name(b)}")
        return problems


def foreign_share(pixels: np.ndarray, box: Box) -> float:
    """The share of `box`'s pixels that are neither its background (the commonest
    colour), its ink (the colour furthest from it) nor a blend of the two (a glyph's soft
    edge): what else is drawn over or under the words, a line through them."""
    height, width = pixels.shape[:2]
    left, bottom, right, top = (int(round(v)) for v in box)
    left, bottom = max(left, 0), max(bottom, 0)
    right, top = min(right, width), min(top, height)
    if right - left < 2 or top - bottom < 2:
        return 0.0
    patch = pixels[bottom:top, left:right].reshape(-1, 3).astype(np.float64)

    def commonest(rows: np.ndarray) -> np.ndarray:
        codes = (rows * 255).round().astype(np.int64)
        keys = codes[:, 0] * 65536 + codes[:, 1] * 256 + codes[:, 2]
        values, counts = np.unique(keys, return_counts=True)
        return rows[keys == values[counts.argmax()]][0]

    back = commonest(patch)
    distance = np.linalg.norm(patch - back, axis=1)
    if distance.max() <= 0.3:
        return 0.0
    # the ink: what stands out most (a glyph's full colour; were a line through the
    # words drawn further from the background, the glyphs fall off the blend instead)
    ink = patch[distance.argmax()]
    line = ink - back
    t = np.clip((patch - back) @ line / float(line @ line), 0.0, 1.0)
    off = np.linalg.norm(patch - (back + t[:, None] * line), axis=1)
    return float((off > 0.15).mean())


def texts_meet(a: Any, b: Any, both: Box) -> bool:
    """Whether the drawn words of two labels (not only their boxes) share pixels."""

    def ink(w: Any) -> Box:
        tw, th = w.texture_size
        left, bottom, right, top = box(w)
        cx, cy = (left + right) / 2, (bottom + top) / 2
        return cx - tw / 2, cy - th / 2, cx + tw / 2, cy + th / 2

    met = intersection(ink(a), ink(b))
    return met is not None and met[2] - met[0] >= 3 and met[3] - met[1] >= 3
