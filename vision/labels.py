"""Printable QR labels: one card as a PNG, or sheets of stickers as a PDF.

Each sticker is a white square holding the code with its full 4-module quiet zone (so it
reads even stuck on a dark card back), the card's name under it, and its id in small grey
type for sorting.  The code is made at error correction Q (25% of the symbol may be lost),
raised to H when that fits in the same version: glare on a sleeve blots out a patch of
modules, and Q is the lowest level that survives a typical highlight; H on every label
would push longer ids to a version with smaller modules.  See docs/cards.md.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import segno

from vision.payload import encode

QUIET_ZONE = 4  # modules of white around the symbol, as ISO 18004 asks
PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
DEFAULT_SIZE_MM = 24.0  # the white square; a version 3 code then has 0.65 mm modules
MARGIN_MM = 10.0
GAP_MM = 3.0
NAME_PT = 7.0
ID_PT = 4.5


@dataclass(frozen=True)
class Label:
    card_id: str
    name: str

    @property
    def text(self) -> str:
        return encode(self.card_id)


def qr_code(card_id: str, error: str = "q") -> segno.QRCode:
    """The smallest QR code holding the card's payload, at error correction Q or better
    (`error` is there so the benchmark can compare levels)."""
    return segno.make(encode(card_id), error=error, boost_error=True, micro=False)


def modules(card_id: str, error: str = "q") -> np.ndarray:
    """The code as a bool array (True = dark), quiet zone included."""
    matrix = np.array([list(row) for row in qr_code(card_id, error).matrix], dtype=bool)
    return np.pad(matrix, QUIET_ZONE, constant_values=False)


def card_kinds(game: Any) -> list[str]:
    """The content kinds that are physical cards: the game's `card_kinds`, else every kind."""
    kinds = game.card_kinds or tuple(game.content_kinds)
    return list(kinds)


def labels_for(game: Any, content: Any, kind: str | None = None) -> list[Label]:
    """Labels for every card in `content`, or for one kind: a content kind (`ai_cards`) or
    the kind inside the ids (`ai`), whichever the player typed."""
    if kind is None:
        items = [item for k in card_kinds(game) for item in content.all(k)]
    elif kind in content.items or kind in game.content_kinds:
        items = content.all(kind)
    else:
        items = [i for k in content.items for i in content.all(k) if i.id.split("/")[1] == kind]
        if not items:
            known = ", ".join(sorted(card_kinds(game))) or "none"
            raise LookupError(f"{game.title} has no card kind '{kind}' (card kinds: {known})")
    return [Label(item.id, getattr(item, "title", "") or item.id) for item in items]


def _font_file() -> str | None:
    """A Unicode TrueType font: Kivy ships DejaVu Sans, which covers accented names."""
    spec = importlib.util.find_spec("kivy")
    for root in (spec.submodule_search_locations or []) if spec else []:
        path = Path(root) / "data" / "fonts" / "DejaVuSans.ttf"
        if path.is_file():
            return str(path)
    return None


def write_png(label: Label, path: Path | str, module_px: int = 12) -> Path:
    """One card's label as a PNG: the code, its name under it, the id in small grey type."""
    from PIL import Image, ImageDraw, ImageFont

    grid = modules(label.card_id)
    code = np.where(np.kron(grid, np.ones((module_px, module_px), dtype=bool)), 0, 255)
    width = code.shape[1]
    font_file = _font_file()

    def font(size: int) -> Any:
        return ImageFont.truetype(font_file, size) if font_file else ImageFont.load_default(size)

    name_font, id_font = font(max(14, module_px * 3)), font(max(10, module_px * 3 // 2))
    name_lines = _wrap(label.name, lambda s: name_font.getlength(s), width * 0.92, 2)
    line_h = int(name_font.size * 1.25)
    height = code.shape[0] + line_h * len(name_lines) + int(id_font.size * 1.6)
    image = Image.new("L", (width, height), 255)
    image.paste(Image.fromarray(code.astype(np.uint8)), (0, 0))
    draw = ImageDraw.Draw(image)
    y = code.shape[0] - module_px
    for line in name_lines:
        draw.text(((width - name_font.getlength(line)) / 2, y), line, fill=0, font=name_font)
        y += line_h
    draw.text(
        ((width - id_font.getlength(label.card_id)) / 2, y), label.card_id, fill=110, font=id_font
    )
    path = Path(path)
    image.save(path, format="PNG")
    return path


def _wrap(text: str, width_of: Any, max_width: float, max_lines: int) -> list[str]:
    """Greedy word wrap; the last line is shortened with an ellipsis if the name is long."""
    lines: list[str] = []
    words = text.split()
    while words and len(lines) < max_lines:
        line = words.pop(0)
        while words and width_of(f"{line} {words[0]}") <= max_width:
            line = f"{line} {words.pop(0)}"
        lines.append(line)
    if words or (lines and width_of(lines[-1]) > max_width):
        last = lines[-1]
        while last and width_of(last + "…") > max_width:
            last = last[:-1]
        lines[-1] = last.rstrip() + "…"
    return lines


@dataclass(frozen=True)
class Sheet:
    """Where stickers go on the paper: a grid of cells, filled row by row, page by page."""

    paper: str = "a4"
    size_mm: float = DEFAULT_SIZE_MM

    @property
    def cell(self) -> tuple[float, float]:
        return self.size_mm + GAP_MM, self.size_mm + 9.0 + GAP_MM

    @property
    def grid(self) -> tuple[int, int]:
        w, h = PAPERS[self.paper]
        cw, ch = self.cell
        return int((w - 2 * MARGIN_MM + GAP_MM) // cw), int((h - 2 * MARGIN_MM + GAP_MM) // ch)

    @property
    def per_page(self) -> int:
        cols, rows = self.grid
        return cols * rows

    def place(self, index: int) -> tuple[int, float, float]:
        """Page number and top-left corner (mm) of the `index`th sticker."""
        cols, _ = self.grid
        page, slot = divmod(index, self.per_page)
        row, col = divmod(slot, cols)
        cw, ch = self.cell
        return page, MARGIN_MM + col * cw, MARGIN_MM + row * ch


def write_pdf(
    labels: Sequence[Label], path: Path | str, paper: str = "a4", size_mm: float = DEFAULT_SIZE_MM
) -> int:
    """Sheets of stickers for `labels`; returns the number of pages written."""
    from fpdf import FPDF

    if paper not in PAPERS:
        raise ValueError(f"unknown paper '{paper}' (choose {', '.join(PAPERS)})")
    if not 12.0 <= size_mm <= 80.0:
        raise ValueError("a label must be between 12 and 80 mm wide to print and scan well")
    if not labels:
        raise ValueError("there are no cards to print")
    sheet = Sheet(paper, size_mm)
    pdf = FPDF(unit="mm", format=PAPERS[paper])
    pdf.set_auto_page_break(False)
    pdf.set_title("Table Companion card labels")
    font_file = _font_file()
    family = "Helvetica"
    if font_file:
        pdf.add_font("DejaVu", "", font_file)
        family = "DejaVu"
    pages = 0
    for i, label in enumerate(labels):
        page, x, y = sheet.place(i)
        if page == pages:
            pdf.add_page()
            pages += 1
        _sticker(pdf, label, x, y, size_mm, family, bool(font_file))
    pdf.output(str(path))
    return pages


def _sticker(
    pdf: Any, label: Label, x: float, y: float, size: float, family: str, unicode: bool
) -> None:
    grid = modules(label.card_id)
    module = size / grid.shape[0]
    pdf.set_draw_color(200)
    pdf.set_line_width(0.1)
    pdf.set_dash_pattern(dash=1, gap=1)
    pdf.rect(x, y, size, size + 9.0)  # cut guide
    pdf.set_dash_pattern()
    pdf.set_fill_color(0)
    for r, row in enumerate(grid):
        for c0, c1 in _runs(row):
            pdf.rect(x + c0 * module, y + r * module, (c1 - c0) * module, module, style="F")
    name = label.name if unicode else label.name.encode("latin-1", "replace").decode("latin-1")
    pdf.set_text_color(0)
    pdf.set_font(family, size=NAME_PT)
    lines = _wrap(name, pdf.get_string_width, size - 1.0, 2)
    ty = y + size - 0.6
    for line in lines:
        pdf.set_xy(x, ty)
        pdf.cell(size, 3.0, line, align="C")
        ty += 3.0
    pdf.set_text_color(110)
    pdf.set_font(family, size=ID_PT)
    pdf.set_xy(x, y + size + 6.4)
    pdf.cell(size, 2.0, label.card_id, align="C")


def _runs(row: Iterable[bool]) -> list[tuple[int, int]]:
    """Dark runs in a row of modules, so a code is a few dozen rectangles, not hundreds."""
    runs, start = [], None
    for i, dark in enumerate([*row, False]):
        if dark and start is None:
            start = i
        elif not dark and start is not None:
            runs.append((start, i))
            start = None
    return runs
