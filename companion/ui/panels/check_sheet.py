"""Check a card against the group's printed one, the moment it comes into play.

Why: a group plays the demo's invented numbers until its own copy is entered, and an
evening should not start with an hour of typing.  When a card still holding the demo's
numbers comes into play, the result card offers this sheet: the card's numbers laid out
as the card prints them (its own fields in order, its chart rows and hit effects each a
block), each with big - and + steppers.  "Matches" is one tap; a changed number is
"Save".  Both go through `our_copy.keep`, which logs the check (so the rules use it from
this step on and one Undo takes it back) and writes the card into the group's pack.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

import msgspec
from kivy.lang import Builder
from kivy.metrics import dp, sp
from kivy.properties import BooleanProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView
from kivy.uix.widget import Widget

from companion.content.forms import (
    EITHER,
    INT,
    LIST,
    STRUCT,
    FormField,
    fields_of,
    form_for,
    without_defaults,
)
from companion.ui.style import style
from companion.ui.widgets import BigButton, clear_and_fill

Builder.load_file(str(Path(__file__).with_suffix(".kv")))

Keep = Callable[[str, Mapping[str, object] | None], str]  # (card id, numbers or None) -> refusal


@dataclass(frozen=True)
class Number:
    """One number printed on a card: where it sits in the card, its words and bounds."""

    path: tuple[str | int, ...]
    label: str
    value: int
    least: int
    most: int
    block: str  # the part of the card it is printed in ("" for the card's own numbers)


def numbers(form: FormField, card: object) -> Iterator[Number]:
    """Every number the card prints, in the card's own order (hidden fields left out)."""
    yield from _walk(form, card, (), "", "")


def _bounds(f: FormField) -> tuple[int, int]:
    least = int(f.minimum) if f.minimum is not None else 0
    most = int(f.maximum) if f.maximum is not None else max(99, least + 99)
    return least, most


def _walk(
    f: FormField, value: object, path: tuple[str | int, ...], block: str, label: str
) -> Iterator[Number]:
    if f.hidden:
        return
    if f.kind == STRUCT and isinstance(value, dict):
        for sub in fields_of(f):
            if sub.name in value:
                yield from _walk(sub, value[sub.name], (*path, sub.name), block, sub.label)
    elif f.kind == LIST and isinstance(value, list) and f.item is not None:
        for i, entry in enumerate(value):
            inner = f"{block}: {f.label} {i + 1}" if block else f"{f.label} {i + 1}"
            if f.item.kind == INT and isinstance(entry, int):
                least, most = _bounds(f.item)
                yield Number((*path, i), f"{f.label} {i + 1}", entry, least, most, block)
            else:
                yield from _walk(f.item, entry, (*path, i), inner, f.item.label)
    elif f.kind == INT and isinstance(value, int) and not isinstance(value, bool):
        least, most = _bounds(f)
        yield Number(path, label, value, least, most, block)
    elif f.kind == EITHER and isinstance(value, int) and not isinstance(value, bool):
        for option in f.options:
            if option.kind == INT:
                least, most = _bounds(option)
                yield Number(path, label, value, least, most, block)
                break


def _set(card: dict[str, object], path: tuple[str | int, ...], value: int) -> None:
    """The number at `path` (one `numbers` found in this card) set to `value`."""
    target: object = card
    for part in path[:-1]:
        target = _part(target, part)
    last = path[-1]
    if isinstance(target, list) and isinstance(last, int):
        target[last] = value
        return
    if not isinstance(target, dict):
        raise TypeError(f"no number at {path} in this card")
    target[last] = value


def _part(node: object, part: str | int) -> object:
    """The entry `part` of a card's struct (by name) or list (by place)."""
    if isinstance(node, list) and isinstance(part, int):
        return node[part]
    if isinstance(node, dict):
        return node[part]
    raise TypeError(f"{part!r} is not in a {type(node).__name__}")


class NumberRow(BoxLayout):
    """One printed number: its words, then - value + as big as a thumb."""

    label = StringProperty("")
    value = NumericProperty(0)
    least = NumericProperty(0)
    most = NumericProperty(99)
    changed = BooleanProperty(False)
    wide = BooleanProperty(True)  # the words beside the stepper (else above it)

    @staticmethod
    def fits_beside(width: float, words: str, font_size: float, font: str, scale: float) -> bool:
        """Whether the words keep their longest word whole beside the stepper."""
        from companion.ui.widgets import text_width

        stepper = dp(72) * scale * 3 + dp(8) * 3
        longest = max((text_width(w, font_size, font) for w in words.split()), default=0)
        return bool(width - stepper >= longest + 2)

    def step(self, delta: int) -> None:
        self.value = max(int(self.least), min(int(self.most), int(self.value) + delta))


class CheckSheet(ModalView):
    """The card's numbers with steppers; Matches, Save and Later."""

    title = StringProperty("")
    hint = StringProperty("")
    error = StringProperty("")
    dirty = BooleanProperty(False)

    def __init__(
        self, card_id: str, item: object, schema: type, keep: Keep, **kwargs: object
    ) -> None:
        super().__init__(**kwargs)
        self.card_id = card_id
        self._keep = keep
        self._card: dict[str, object] = msgspec.to_builtins(item)
        form = form_for(schema)
        # the numbers the card prints: what it sets, not the schema's every default
        self._numbers = list(numbers(form, without_defaults(form, self._card)))
        self.title = f"{getattr(item, 'title', card_id)}: check against your card"
        self.hint = (
            "Same numbers as your printed card? Tap Matches. If not, set them here, then Save."
            if self._numbers
            else "This card prints no numbers to set here: tap Matches to keep it as yours."
        )
        rows: list[Widget] = []
        block = None
        for n in self._numbers:
            if n.block != block and n.block:
                rows.append(_block_heading(n.block))
            block = n.block
            row = NumberRow(label=n.label, value=n.value, least=n.least, most=n.most)
            row.number = n
            row.bind(value=self._on_value)
            rows.append(row)
        clear_and_fill(self.ids.rows, rows)

    def _on_value(self, row: NumberRow, value: float) -> None:
        row.changed = int(value) != row.number.value
        self.dirty = any(getattr(r, "changed", False) for r in self.ids.rows.children)

    def rows(self) -> list[NumberRow]:
        return [r for r in reversed(self.ids.rows.children) if isinstance(r, NumberRow)]

    def printed(self) -> dict[str, object] | None:
        """The card with the numbers set here, or None when they all match."""
        if not self.dirty:
            return None
        card: dict[str, object] = msgspec.json.decode(msgspec.json.encode(self._card))
        for row in self.rows():
            _set(card, row.number.path, int(row.value))
        return card

    def save(self) -> bool:
        error = self._keep(self.card_id, self.printed())
        if error:
            self.error = error
            return False
        self.dismiss(animation=False)
        return True


def _block_heading(text: str) -> Label:
    label = Label(
        text=text,
        bold=True,
        color=style.fg,
        font_size=sp(24) * style.font_scale,
        size_hint_y=None,
        halign="left",
        valign="bottom",
    )
    label.bind(width=lambda w, width: setattr(w, "text_size", (width, None)))
    label.bind(texture_size=lambda w, size: setattr(w, "height", size[1] + dp(10)))
    return label


def open_check(card_id: str, item: object, schema: type, keep: Keep) -> CheckSheet:
    sheet = CheckSheet(card_id, item, schema, keep)
    sheet.open(animation=False)
    return sheet


__all__ = ["BigButton", "CheckSheet", "Number", "numbers", "open_check"]
