"""A card's form drawn from its schema's form model (`companion.content.forms`).

Why generic: the loader's schemas say what every field holds, so this draws numbers as
steppers (with a keypad for big ones), choices as buttons, lists with Add and Remove,
nested parts as sections, and asks for the keyboard only for names and free text.  A field
added to a schema shows here with no code.  The form edits a plain dict (the card as it is
written to YAML); every change is checked at once by the caller, which hands back the
problems to show beside their fields.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, TypeVar

from kivy.lang import Builder
from kivy.metrics import dp
from kivy.properties import BooleanProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.textinput import TextInput
from kivy.uix.widget import Widget

from companion.content import forms
from companion.content.forms import FormField
from companion.ui.widgets import BigButton, BigToggle, Body, fit_columns, text_width

if TYPE_CHECKING:
    from companion.core.workshop import FieldProblem

Builder.load_file(str(Path(__file__).with_suffix(".kv")))

Path_ = tuple[str | int, ...]
MORE = "more"  # the last part of a section's path while its folded fields are shown
BIG_STEP = 20  # numbers that may go past this get a keypad as well as + and -

_Key = TypeVar("_Key", contravariant=True)
K = TypeVar("K", bound=str | int)


class Holder(Protocol[_Key]):
    """What holds a field's value: a struct's dict (by the field's name), a mapping's
    dict (by the entry's name) or a list (by the entry's place)."""

    def __getitem__(self, key: _Key, /) -> object: ...

    def __setitem__(self, key: _Key, value: object, /) -> None: ...


class FieldBox(BoxLayout):
    """One field: its name, its control, and the problem with it (if any) below."""

    nested = BooleanProperty(False)


class Problem(Body):
    pass


class FieldText(TextInput):
    pass


class NumberPad(GridLayout):
    """Digits for a number too big to step to (a boss's 40 HP), opened under the field by
    tapping the number; OK puts it in."""

    def __init__(self, value: int, on_done: Callable[[int], None], **kw: object) -> None:
        super().__init__(cols=4, spacing=dp(8), size_hint_y=None, **kw)
        self.bind(minimum_height=self.setter("height"))
        self._typed = str(value)
        self._on_done = on_done
        self.fresh = True
        self.shown = BigButton(text=self._typed, disabled=True)
        keys = ("7", "8", "9", "Delete", "4", "5", "6", "-", "1", "2", "3", "0")
        for key in keys:
            button = BigButton(text=key)
            button.bind(on_release=lambda b: self.press(b.text))
            self.add_widget(button)
        ok = BigButton(text="OK", primary=True)
        ok.bind(on_release=lambda _b: self.done())
        self.add_widget(ok)

    def press(self, key: str) -> None:
        if key == "Delete":
            self._typed = self._typed[:-1]
        elif key == "-":
            self._typed = self._typed[1:] if self._typed.startswith("-") else "-" + self._typed
        else:
            self._typed = key if self.fresh else (self._typed + key)[:6]
        self.fresh = False

    @property
    def typed(self) -> int:
        try:
            return int(self._typed)
        except ValueError:
            return 0

    def done(self) -> None:
        self._on_done(self.typed)


def _item_word(f: FormField) -> str:
    return f.label.lower()


def _word_button(word: str) -> BigButton:
    """A button as wide as its word at the text size chosen ("Remove" stays whole at
    Largest beside an entry's header)."""
    button = BigButton(text=word, size_hint_x=None)

    def fit(*_args: object) -> None:
        width = text_width(word, button.font_size, button.font_name)
        button.width = max(dp(130), width + dp(28))

    button.bind(font_size=fit)  # the text size may change while the form is shown
    fit()
    return button


def _head() -> BoxLayout:
    """A list entry's header row: its line (or name) and its Remove."""
    return BoxLayout(size_hint_y=None, height=dp(64), spacing=dp(8))


def _fit_head(head: BoxLayout) -> None:
    """The header as tall as its tallest part: an entry's line wraps at the Largest text
    (a chart row's "Sum from 2, Sum to 4, Effects ..."), and a fixed 64 dp row drew it
    over the next entry's.  Remove stays at the top, beside the line's start."""

    def fit(*_args: object) -> None:
        head.height = max([dp(64), *(c.height for c in head.children)])

    for child in head.children:
        child.pos_hint = {"top": 1}
        child.bind(height=fit)
    fit()


class CardForm(BoxLayout):
    """The whole card: every field of the kind's form, editing `card` in place.

    `on_change(rebuilt)` is called after every change; structural ones (an entry added or
    removed, a kind of value switched) redraw the form first."""

    def __init__(
        self,
        form: FormField,
        card: dict[str, object],
        on_change: Callable[[], None],
        cards: Callable[[str], list[tuple[str, str]]] | None = None,
        **kw: object,
    ) -> None:
        super().__init__(orientation="vertical", size_hint_y=None, spacing=dp(12), **kw)
        self.bind(minimum_height=self.setter("height"))
        self.form = form
        self.card = card
        self.on_change = on_change
        # the pack's cards of a kind as (id, name), for a field that names another card
        self.cards = cards or (lambda _kind: [])
        self.opened: set[Path_] = set()  # list entries shown in full, not as one line
        self.boxes: dict[Path_, FieldBox] = {}
        self.lists: dict[Path_, list[object]] = {}  # each list drawn, by its path
        self.list_items: dict[Path_, FormField] = {}
        self.render()

    # -- drawing ---------------------------------------------------------------------

    def render(self) -> None:
        self.clear_widgets()
        self.boxes = {}
        self.lists = {}
        self.list_items = {}
        for w in self._fields(self.form, self.card, (), nested=False):
            self.add_widget(w)

    def _fields(
        self, form: FormField, value: dict[str, object], path: Path_, nested: bool
    ) -> list[Widget]:
        """A struct's fields as the printed card shows them: hidden ones never drawn, the
        ones printed on a few cards only (`more`) folded under one button while unset."""
        shown: list[Widget] = []
        folded: list[FormField] = []
        for sub in forms.fields_of(form):
            if sub.hidden:
                continue
            if sub.more and path + (MORE,) not in self.opened and _unset(sub, value):
                folded.append(sub)
                continue
            shown.append(self._field(sub, value, sub.name, path + (sub.name,), nested))
        if folded:
            names = ", ".join(f.label for f in folded[:3]) + (", …" if len(folded) > 3 else "")
            more = BigButton(text=f"More: {names}")
            more.bind(on_release=lambda _b: self._open(path + (MORE,)))
            self.boxes[path + (MORE,)] = more
            shown.append(more)
        return shown

    def changed(self, rebuild: bool = False) -> None:
        if rebuild:
            self.render()
        self.on_change()

    def _field(
        self, f: FormField, holder: Holder[K], key: K, path: Path_, nested: bool = True
    ) -> FieldBox:
        box = FieldBox(nested=nested)
        box.path = path
        self.boxes[path] = box
        if not isinstance(key, int):  # a list's entry is named by its own header
            box.add_widget(Body(text=f"[b]{f.label}[/b]"))
        if f.help:
            box.add_widget(Body(text=f.help))
        if key not in holder if isinstance(holder, dict) else False:
            holder[key] = f.blank()
        value = holder[key]
        if value is None and f.nullable:
            add = BigButton(text=f"Add {_item_word(f)}")
            add.bind(on_release=lambda _b: self._set(holder, key, forms.blank_value(f), True))
            box.add_widget(add)
        else:
            box.add_widget(self._control(f, holder, key, path))
            if f.nullable and not f.required:
                drop = BigButton(text=f"No {_item_word(f)}")
                drop.bind(on_release=lambda _b: self._set(holder, key, None, True))
                box.add_widget(drop)
        problem = Problem(text="")
        box.problem = problem
        box.add_widget(problem)
        return box

    def _set(self, holder: Holder[K], key: K, value: object, rebuild: bool = False) -> None:
        holder[key] = value
        self.changed(rebuild)

    def _control(self, f: FormField, holder: Holder[K], key: K, path: Path_) -> Widget:
        kind = f.kind
        if kind == forms.INT:
            return self._number(f, holder, key)
        if kind == forms.FLOAT:
            return self._text(f, holder, key, number=True)
        if kind == forms.BOOL:
            return self._choices(("Yes", "No"), holder, key, values=(True, False))
        if kind == forms.CHOICE and f.among:
            return self._among(f, holder, key, path)
        if kind == forms.CHOICE:
            labels = [f.choice_label(c) for c in f.choices]
            return self._choices(
                labels, holder, key, values=f.choices, rebuild=f.name in self.amongs
            )
        value = holder[key]
        if kind == forms.LIST and isinstance(value, list):
            return self._list(f, value, path)
        if kind == forms.MAPPING and isinstance(value, dict):
            return self._mapping(f, value, path)
        if kind == forms.STRUCT and isinstance(value, dict):
            return self._struct(f, value, path)
        if kind == forms.EITHER:
            return self._either(f, holder, key, path)
        if f.refers:
            return self._card_choice(f, holder, key)
        return self._text(f, holder, key)

    @property
    def amongs(self) -> set[str]:
        """Fields other fields offer the values of (an action's key, for a Default)."""
        return set(getattr(self, "_amongs", ()))

    def _among(self, f: FormField, holder: Holder[K], key: K, path: Path_) -> Widget:
        """One of this card's own entries (a HEXplore action's Default: one of the card's
        other actions), by the rulebook's word for it; "None" when optional."""
        entries = self.lists.get(path[:-2], [])
        item = self.list_items.get(path[:-2])
        source = item.find(f.among) if item is not None else None
        values: list[object] = [""]
        labels = ["None"]
        for entry in entries:
            v = entry.get(f.among) if isinstance(entry, dict) else None
            if entry is holder or v in (None, "") or v in values:
                continue
            values.append(v)
            labels.append(source.choice_label(v) if source is not None else str(v))
        current = holder[key]
        if current not in values:
            values.append(current)
            labels.append(f"{current} (not on this card)")
        return self._choices(labels, holder, key, values=values)

    def _card_choice(self, f: FormField, holder: Holder[K], key: K) -> Widget:
        """Another card of the pack, tapped by its name (the card keeps its id)."""
        known = self.cards(f.refers)
        ids: list[object] = [card_id for card_id, _name in known]
        names = [name for _card_id, name in known]
        if not f.required and not isinstance(key, int):
            ids, names = ["", *ids], ["None", *names]
        current = holder[key]
        if current and current not in ids:  # written by hand, or from another pack
            ids, names = [*ids, current], [*names, f"{current} (not in this pack)"]
        if not ids:
            kind = forms.label_of(f.refers).lower()
            return Body(text=f"This pack has no {kind} yet: make one first, then pick it here.")
        return self._choices(names, holder, key, values=ids)

    def _number(self, f: FormField, holder: Holder[K], key: K) -> Widget:
        section = self._section()
        row = BoxLayout(size_hint_y=None, height=dp(64), spacing=dp(8))
        value = holder[key] if isinstance(holder[key], int) else 0
        shown = BigButton(text=str(value))
        low = f.minimum if f.minimum is not None else -999
        high = f.maximum if f.maximum is not None else 9999
        pads: list[NumberPad] = []

        def put(n: int) -> None:
            n = int(min(high, max(low, n)))
            holder[key] = n
            shown.text = str(n)
            for pad in pads:
                section.remove_widget(pad)
            pads.clear()
            self.changed()

        def keypad() -> None:
            if pads:
                section.remove_widget(pads.pop())
                return
            pads.append(NumberPad(_int(holder[key]), put))
            section.add_widget(pads[0])

        minus = BigButton(text="-", size_hint_x=None, width=dp(96))
        plus = BigButton(text="+", size_hint_x=None, width=dp(96))
        minus.bind(on_release=lambda _b: put(_int(holder[key]) - 1))
        plus.bind(on_release=lambda _b: put(_int(holder[key]) + 1))
        shown.bind(on_release=lambda _b: keypad())
        for w in (minus, shown, plus):
            row.add_widget(w)
        section.add_widget(row)
        return section

    def _text(self, f: FormField, holder: Holder[K], key: K, number: bool = False) -> Widget:
        current = holder[key]
        box = FieldText(text="" if current is None else str(current), multiline=f.long)
        if number:
            box.input_filter = "float"

        def typed(_w: FieldText, text: str) -> None:
            if number:
                try:
                    holder[key] = float(text)
                except ValueError:
                    holder[key] = text
            else:
                holder[key] = text
            self.changed()

        box.bind(text=typed)
        return box

    def _choices(
        self,
        labels: Sequence[str],
        holder: Holder[K],
        key: K,
        values: Sequence[object],
        rebuild: bool = False,
    ) -> Widget:
        labels, values = list(labels), list(values)
        grid = GridLayout(cols=min(len(labels), 4) or 1, spacing=dp(8), size_hint_y=None)
        grid.bind(minimum_height=grid.setter("height"))
        group = f"choice-{id(holder)}-{key}"
        for label, value in zip(labels, values, strict=True):
            toggle = BigToggle(
                text=label.replace("_", " "),
                group=group,
                state="down" if holder[key] == value else "normal",
            )
            toggle.value = value
            toggle.bind(on_release=lambda t: self._picked(t, holder, key, rebuild))
            grid.add_widget(toggle)
        fit_columns(grid, 4)  # fewer where a word would break ("Monstr/ous" on a phone)
        return grid

    def _picked(self, toggle: BigToggle, holder: Holder[K], key: K, rebuild: bool = False) -> None:
        if toggle.state != "down":  # tapping the chosen one again keeps it chosen
            toggle.state = "down"
        changed = holder[key] != toggle.value
        holder[key] = toggle.value
        self.changed(rebuild and changed)  # another field offers this one's values

    def _section(self) -> BoxLayout:
        box = BoxLayout(orientation="vertical", size_hint_y=None, spacing=dp(8))
        box.bind(minimum_height=box.setter("height"))
        return box

    def _struct(self, f: FormField, value: dict[str, object], path: Path_) -> Widget:
        section = self._section()
        for w in self._fields(f, value, path, nested=True):
            section.add_widget(w)
        return section

    def _list(self, f: FormField, items: list[object], path: Path_) -> Widget:
        section = self._section()
        item = f.item or FormField("item", "Entry", forms.TEXT)
        word = _item_word(item)
        self.lists[path] = items
        self.list_items[path] = item
        if item.kind == forms.STRUCT:
            self._amongs = self.amongs | {s.among for s in forms.fields_of(item) if s.among}
        for i in range(len(items)):
            where = path + (i,)
            head = _head()
            if item.kind == forms.STRUCT and where not in self.opened:
                line = BigButton(text=f"{i + 1}. {forms.summary(items[i], item)}")
                line.bind(on_release=lambda _b, w=where: self._open(w))
                self.boxes[where] = line
                head.add_widget(line)
            else:
                head.add_widget(Body(text=f"{item.label} {i + 1}"))
            remove = _word_button("Remove")
            remove.bind(on_release=lambda _b, n=i: self._remove(items, n))
            head.add_widget(remove)
            _fit_head(head)
            section.add_widget(head)
            if item.kind != forms.STRUCT or where in self.opened:
                section.add_widget(self._field(item, items, i, where))
        add = BigButton(text=f"Add {word}")
        add.bind(on_release=lambda _b: self._append(items, item, path))
        section.add_widget(add)
        return section

    def _open(self, where: Path_) -> None:
        self.opened.add(where)
        self.changed(rebuild=True)

    def _remove(self, items: list[object], n: int) -> None:
        del items[n]
        self.opened.clear()
        self.changed(rebuild=True)

    def _append(self, items: list[object], item: FormField, path: Path_) -> None:
        items.append(forms.blank_value(item))
        self.opened = {p for p in self.opened if p[: len(path)] != path}
        self.opened.add(path + (len(items) - 1,))
        self.changed(rebuild=True)

    def _mapping(self, f: FormField, entries: dict[str, object], path: Path_) -> Widget:
        section = self._section()
        value = f.item or FormField("value", "Value", forms.TEXT)
        for name in list(entries):
            head = _head()
            key_box = FieldText(text=str(name), multiline=False)
            key_box.bind(focus=partial(self._renamed, entries, name))
            head.add_widget(key_box)
            remove = _word_button("Remove")
            remove.bind(on_release=lambda _b, k=name: self._drop(entries, k))
            head.add_widget(remove)
            _fit_head(head)
            section.add_widget(head)
            section.add_widget(self._field(value, entries, name, path + (name,)))
        add = BigButton(text=f"Add {f.label.lower()}")
        add.bind(on_release=lambda _b: self._add_key(entries, value))
        section.add_widget(add)
        return section

    def _renamed(self, entries: dict[str, object], old: str, box: FieldText, focused: bool) -> None:
        """The key's box lost focus: the entry takes the key typed."""
        if not focused:
            self._rename(entries, old, box.text)

    def _rename(self, entries: dict[str, object], old: str, new: str) -> None:
        new = new.strip()
        if not new or new == old or new in entries:
            return
        rebuilt = {(new if k == old else k): v for k, v in entries.items()}
        entries.clear()
        entries.update(rebuilt)
        self.changed(rebuild=True)

    def _drop(self, entries: dict[str, object], name: str) -> None:
        entries.pop(name, None)
        self.changed(rebuild=True)

    def _add_key(self, entries: dict[str, object], value: FormField) -> None:
        n = len(entries) + 1
        while f"entry {n}" in entries:
            n += 1
        entries[f"entry {n}"] = forms.blank_value(value)
        self.changed(rebuild=True)

    def _either(self, f: FormField, holder: Holder[K], key: K, path: Path_) -> Widget:
        section = self._section()
        chosen = _option_of(f, holder[key])
        labels = [o.label for o in f.options]
        grid = GridLayout(cols=min(len(labels), 4), spacing=dp(8), size_hint_y=None)
        grid.bind(minimum_height=grid.setter("height"))
        for option in f.options:
            toggle = BigToggle(
                text=option.label,
                group=f"either-{id(holder)}-{key}",
                state="down" if option is chosen else "normal",
            )
            toggle.bind(on_release=lambda t, o=option: self._switch(t, holder, key, o, f))
            grid.add_widget(toggle)
        fit_columns(grid, 4)
        section.add_widget(grid)
        if chosen is not None and not (chosen.kind == forms.CHOICE and len(chosen.choices) == 1):
            section.add_widget(self._control(chosen, holder, key, path))
        return section

    def _switch(
        self, toggle: BigToggle, holder: Holder[K], key: K, option: FormField, f: FormField
    ) -> None:
        toggle.state = "down"
        if _option_of(f, holder[key]) is not option:
            holder[key] = forms.blank_value(option)
            self.changed(rebuild=True)

    # -- problems --------------------------------------------------------------------

    def show_problems(self, problems: Sequence[FieldProblem]) -> list[str]:
        """Each problem beside the nearest field drawn for its path; returns the words of
        any that no field shows (the caller says them at the top)."""
        for box in self.boxes.values():
            if isinstance(box, FieldBox):
                box.problem.text = ""
        unplaced = []
        for problem in problems:
            path = tuple(problem.path)
            while path and path not in self.boxes:
                path = path[:-1]
            target = self.boxes.get(path)
            if isinstance(target, FieldBox):
                target.problem.text = problem.message
            else:
                if target is not None:
                    target.text = "Needs fixing: " + target.text.split(": ", 1)[-1]
                unplaced.append(str(problem))
        return unplaced


def _unset(f: FormField, holder: Mapping[str, object]) -> bool:
    """A folded field stays folded only while it holds nothing a player entered."""
    value = holder.get(f.name)
    if f.name not in holder or value in (None, "", [], {}, False, 0):
        return True
    return bool(value == f.blank())


def _int(value: object) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _option_of(f: FormField, value: object) -> FormField | None:
    """Which of an `either` field's kinds a value is."""
    for option in f.options:
        if option.kind == forms.INT and isinstance(value, int) and not isinstance(value, bool):
            return option
        if option.kind == forms.CHOICE and value in option.choices:
            return option
        if option.kind == forms.STRUCT and isinstance(value, dict):
            return option
        if option.kind == forms.LIST and isinstance(value, list):
            return option
    for option in f.options:
        if option.kind == forms.TEXT and isinstance(value, str):
            return option
    return f.options[0] if f.options else None
