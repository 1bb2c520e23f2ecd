"""Card forms read from the schemas: what the pack editor asks for, field by field.

Why: the loader's msgspec schemas already say every field's type, bounds, choices and
default.  Reading them here (through `msgspec.inspect`) means a field added to a schema
appears in the tablet's editor with no screen code, and the editor can only offer values
the loader accepts.  A schema may give a field a player's name or a list of choices in
its metadata: `Annotated[str, Meta(title="Attack", extra={"choices": TARGETS})]`.

Metadata the editor reads from `Meta(extra=...)` (never a field's name in screen code):
`choices` (a fixed set of words) with `labels` (the words the rulebook prints for them),
`among` (the choice is one of this card's own entries: a HEXplore action's Default is one
of its card's actions), `refers` (another card of the pack), `hidden` (the printed card
does not show it: ids, the demo mark, internal flags) and `more` (printed on a few cards
only: folded under "More" until it holds something).  A new card starts from its kind's
template (`templates_for`), the game's own data beside its schemas.
"""

from __future__ import annotations

import copy
import enum
import importlib
import typing
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, cast

import msgspec
import msgspec.inspect as mi

# What the editor draws for each kind of field.
INT, FLOAT, TEXT, CHOICE, BOOL, LIST, STRUCT, MAPPING, EITHER = (
    "int",
    "float",
    "text",
    "choice",
    "bool",
    "list",
    "struct",
    "mapping",
    "either",
)
LONG_TEXT_NAMES = ("text", "description", "rules")  # free rules text: a bigger box


@dataclass(frozen=True)
class FormField:
    """One field of a form: what it is called, what it holds and what it may hold."""

    name: str  # the key in the card as written (a schema's `rename` applied)
    label: str
    kind: str
    required: bool = False
    default: object = None
    minimum: int | float | None = None
    maximum: int | float | None = None
    choices: tuple[object, ...] = ()
    nullable: bool = False  # may be left empty (None)
    item: FormField | None = None  # a list's items, a mapping's values
    key: FormField | None = None  # a mapping's keys
    fields: tuple[FormField, ...] = ()  # a nested struct's fields
    options: tuple[FormField, ...] = ()  # `either`: the kinds of value it may hold
    long: bool = False  # free text of more than a line
    help: str = ""
    schema: type | None = None  # a struct met again inside itself: its fields are read when drawn
    # the content kind whose card ids this text holds (`Meta(extra={"refers": kind})`):
    # picked from the pack's cards of that kind by name, never typed as an id
    refers: str = ""
    hidden: bool = False  # not printed on the card: never drawn (an id, the demo mark)
    more: bool = False  # printed on a few cards only: folded under "More" while unset
    labels: tuple[str, ...] = ()  # the rulebook's words for `choices`, in their order
    among: str = ""  # choices are this field's values in the other entries of its list
    titled: bool = False  # named by its schema (`Meta(title=...)`), not from its key

    def choice_label(self, value: object) -> str:
        """A choice as the rulebook prints it ("start_player" -> "Start player")."""
        if value in self.choices and len(self.labels) == len(self.choices):
            return self.labels[self.choices.index(value)]
        return label_of(str(value)) if isinstance(value, str) else str(value)

    def blank(self) -> object:
        """The value a new, untouched field starts with."""
        if self.default is not None:
            return _copy(self.default)
        if self.nullable and not self.required:
            return None
        return blank_value(self)

    def find(self, name: str) -> FormField:
        return next(f for f in fields_of(self) if f.name == name)


_BUILDING: list[type] = []  # the structs being read, to stop at one that holds itself


def fields_of(f: FormField) -> tuple[FormField, ...]:
    """A struct field's fields; a recursive one (an effect offering a choice of effects)
    is read only when it is drawn, one level at a time."""
    if f.fields or f.schema is None:
        return f.fields
    return struct_fields(cast(mi.StructType, mi.type_info(f.schema)))


def _copy(value: object) -> object:
    return msgspec.to_builtins(value)


def blank_value(f: FormField) -> object:
    if f.kind == INT:
        return int(f.minimum) if f.minimum is not None and f.minimum > 0 else 0
    if f.kind == FLOAT:
        return float(f.minimum or 0)
    if f.kind == BOOL:
        return False
    if f.kind == CHOICE:
        return f.choices[0] if f.choices else ""
    if f.kind == LIST:
        return []
    if f.kind == MAPPING:
        return {}
    if f.kind == STRUCT:
        return blank_struct(f)
    if f.kind == EITHER:
        return f.options[0].blank() if f.options else None
    return ""


def blank_struct(f: FormField) -> dict[str, object]:
    """A struct field's blank value: each required field at its own blank."""
    return {sub.name: sub.blank() for sub in fields_of(f) if sub.required}


def label_of(name: str) -> str:
    """A field's name as a player reads it: `hit_effects` -> "Hit effects"."""
    words = name.strip("_").replace("_", " ")
    return words[:1].upper() + words[1:]


def _default(f: mi.Field) -> object:
    if f.default is not msgspec.NODEFAULT:
        return f.default
    if f.default_factory is not msgspec.NODEFAULT:
        return f.default_factory()
    return None


def _build(name: str, t: mi.Type, **extra: Any) -> FormField:
    """The field for type `t`, with `extra` (label, required, default) from its struct."""
    label = extra.pop("label", None) or label_of(name)
    help_text = ""
    choices: tuple[object, ...] = ()
    refers = ""
    marks: dict[str, Any] = {}
    if isinstance(t, mi.Metadata):
        schema = t.extra_json_schema or {}
        label = schema.get("title") or label
        if schema.get("title"):
            extra["titled"] = True
        help_text = schema.get("description") or ""
        given = t.extra or {}
        choices = tuple(given.get("choices") or ())
        refers = str(given.get("refers") or "")
        marks = {
            k: v
            for k, v in (
                ("hidden", bool(given.get("hidden"))),
                ("more", bool(given.get("more"))),
                ("labels", tuple(given.get("labels") or ())),
                ("among", str(given.get("among") or "")),
            )
            if v
        }
        t = t.type
    base = dict(label=label, help=help_text, **extra, **marks)
    if isinstance(t, mi.UnionType):
        kinds = [x for x in t.types if not isinstance(x, mi.NoneType)]
        nullable = len(kinds) < len(t.types)
        if len(kinds) == 1:
            inner = _build(name, kinds[0], label=label)
            return _replace(inner, nullable=nullable, **extra, **marks)
        options = tuple(_build(name, x, label=_kind_word(x)) for x in kinds)
        return FormField(name, kind=EITHER, options=options, nullable=nullable, **base)
    if marks.get("among"):
        return FormField(name, kind=CHOICE, **base)
    if choices:
        return FormField(name, kind=CHOICE, choices=choices, **base)
    if isinstance(t, mi.IntType | mi.FloatType):
        low = t.ge if t.ge is not None else (t.gt + 1 if t.gt is not None else None)
        high = t.le if t.le is not None else (t.lt - 1 if t.lt is not None else None)
        kind = INT if isinstance(t, mi.IntType) else FLOAT
        return FormField(name, kind=kind, minimum=low, maximum=high, **base)
    if isinstance(t, mi.BoolType):
        return FormField(name, kind=BOOL, **base)
    if isinstance(t, mi.LiteralType):
        return FormField(name, kind=CHOICE, choices=tuple(t.values), **base)
    if isinstance(t, mi.EnumType):
        values = tuple(m.value for m in t.cls) if issubclass(t.cls, enum.Enum) else ()
        return FormField(name, kind=CHOICE, choices=values, **base)
    if isinstance(t, mi.ListType | mi.SetType | mi.FrozenSetType | mi.VarTupleType):
        item = _build("item", t.item_type, label=_item_label(name, label, t.item_type))
        return FormField(name, kind=LIST, item=item, minimum=t.min_length, **base)
    if isinstance(t, mi.DictType):
        key = _build("key", t.key_type, label="Name")
        value = _build("value", t.value_type, label=label)
        return FormField(name, kind=MAPPING, key=key, item=value, **base)
    if isinstance(t, mi.StructType):
        if t.cls in _BUILDING:
            return FormField(name, kind=STRUCT, schema=t.cls, **base)
        return FormField(name, kind=STRUCT, fields=struct_fields(t), **base)
    long = name in LONG_TEXT_NAMES
    return FormField(name, kind=TEXT, long=long, refers=refers, **base)


def _replace(f: FormField, **changes: Any) -> FormField:
    from dataclasses import replace

    return replace(f, **changes)


def _item_label(name: str, label: str, t: mi.Type) -> str:
    """One entry of a list, as a player names it: "Hit effects" -> "Hit effect"; a list
    named in the singular ("chart") by what its entries are ("Chart row")."""
    if name.endswith("ies") and label.endswith("ies"):
        return label[:-3] + "y"
    if name.endswith("sses") and label.endswith("sses"):
        return label[:-2]
    if name.endswith("s") and label.endswith("s") and not label.endswith("ss"):
        return label[:-1]
    inner = t.type if isinstance(t, mi.Metadata) else t
    return _kind_word(t) if isinstance(inner, mi.StructType) else label


def _kind_word(t: mi.Type) -> str:
    """How a player names a kind of value when choosing between them."""
    if isinstance(t, mi.Metadata):
        t = t.type
    if isinstance(t, mi.IntType):
        return "Number"
    if isinstance(t, mi.LiteralType):
        return " / ".join(label_of(str(v)) for v in t.values)
    if isinstance(t, mi.StructType):
        return label_of(_snake(t.cls.__name__))
    if isinstance(t, mi.BoolType):
        return "Yes or no"
    return "Text"


def _snake(name: str) -> str:
    return "".join(f"_{c.lower()}" if c.isupper() else c for c in name).strip("_")


def struct_fields(t: mi.StructType) -> tuple[FormField, ...]:
    """A struct's fields as written in a card (`raise_` is written `raise`)."""
    hints = typing.get_type_hints(t.cls, include_extras=True)
    out = []
    _BUILDING.append(t.cls)
    try:
        for f in t.fields:
            built = _build(f.encode_name, f.type, required=f.required, default=_default(f))
            out.append(_in_declared_order(built, _literals(hints.get(f.name))))
    finally:
        _BUILDING.pop()
    return tuple(out)


def _literals(hint: object) -> list[object]:
    """Every Literal value in a type hint, in the order the schema wrote them (msgspec
    sorts them; a player expects the author's order: revealed, damaged, defeated)."""
    if hint is None:
        return []
    if typing.get_origin(hint) is Literal:
        return list(typing.get_args(hint))
    return [v for arg in typing.get_args(hint) for v in _literals(arg)]


def _in_declared_order(f: FormField, order: list[object]) -> FormField:
    if not order:
        return f
    rank = {v: i for i, v in enumerate(order)}
    if f.kind == CHOICE:
        return _replace(f, choices=tuple(sorted(f.choices, key=lambda v: rank.get(v, 0))))
    if f.kind == EITHER:
        return _replace(f, options=tuple(_in_declared_order(o, order) for o in f.options))
    return f


FIRST, LAST = ("id", "name"), ("demo",)  # a card's name on top; the demo mark at the end


def form_for(schema: type) -> FormField:
    """The whole form for one kind of card: a struct field named for its class, its
    name first (msgspec lists a subclass's own fields before its base's)."""
    t = mi.type_info(schema)
    if not isinstance(t, mi.StructType):
        raise TypeError(f"{schema.__name__} is not a msgspec Struct")
    fields = struct_fields(t)
    rank = {name: i for i, name in enumerate(FIRST)} | {name: 99 for name in LAST}
    ordered = sorted(fields, key=lambda f: rank.get(f.name, 50))
    return FormField(
        "card", label=label_of(_snake(schema.__name__)), kind=STRUCT, fields=tuple(ordered)
    )


def new_card(schema: type, template: Mapping[str, object] | None = None) -> dict[str, object]:
    """A card as the editor starts it: its kind's template (a minion at level 1 with its
    usual hit effect, a boss with its chart's rows laid out), and every other required
    field at its blank value, so entering a card is mostly stepping numbers."""
    card = blank_struct(form_for(schema))
    card.update(copy.deepcopy(dict(template or {})))
    return card


TEMPLATES_MODULE = "card_templates"  # beside a game's schemas: `TEMPLATES = {kind: card}`


def templates_for(game: object) -> dict[str, dict[str, object]]:
    """A game's card templates, by kind: the data in its package's `card_templates`
    module (none: every kind starts blank)."""
    package = type(game).__module__.rpartition(".")[0]
    try:
        module = importlib.import_module(f"{package}.{TEMPLATES_MODULE}")
    except ModuleNotFoundError:
        return {}
    return dict(getattr(module, "TEMPLATES", {}))


def template_for(game: object, kind: str) -> dict[str, object]:
    return copy.deepcopy(templates_for(game).get(kind, {}))


def without_defaults(form: FormField, value: object) -> Any:
    """The card as written to YAML: fields left at their default are left out, so a
    pack file reads like the shipped ones."""
    if form.kind == STRUCT and isinstance(value, dict):
        out = {}
        for f in fields_of(form):
            if f.name not in value:
                continue
            v = without_defaults(f, value[f.name])
            if not f.required and f.default is not None and v == _copy(f.default):
                continue
            if not f.required and f.default is None and v is None:
                continue
            out[f.name] = v
        out.update({k: v for k, v in value.items() if k not in out and k not in form_names(form)})
        return out
    if form.kind == LIST and isinstance(value, list) and form.item is not None:
        return [without_defaults(form.item, v) for v in value]
    if form.kind == MAPPING and isinstance(value, dict) and form.item is not None:
        return {k: without_defaults(form.item, v) for k, v in value.items()}
    return value


def form_names(form: FormField) -> set[str]:
    return {f.name for f in fields_of(form)}


def summary(value: object, form: FormField, limit: int = 60) -> str:
    """One line for a list entry the player taps to open (an effect line, a chart row)."""
    if form.kind == STRUCT and isinstance(value, dict):
        parts = []
        for f in fields_of(form):
            v = value.get(f.name)
            if f.hidden or v in (None, "", [], {}, False):
                continue
            if not f.required and v == _copy(f.default):
                continue
            if isinstance(v, dict | list):
                shown = summary(v, f, limit)
            else:
                shown = f.choice_label(v) if f.kind in (CHOICE, EITHER) else str(v)
            if f.kind == BOOL:
                parts.append(f.label)
            elif f.kind == CHOICE and not f.among:
                parts.append(shown)  # "Poison 2", not "kind poison, amount 2"
            else:
                parts.append(f"{f.label} {shown}")
        text = ", ".join(parts) or "(empty)"
    elif isinstance(value, list):
        item = form.item or form
        text = "; ".join(summary(v, item, limit) for v in value) or "none"
    else:
        text = str(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


@dataclass
class FormTree:
    """Every kind of a game, each with its form (the editor's list of kinds)."""

    game: str
    forms: dict[str, FormField] = field(default_factory=dict)


class _Kinds(Protocol):
    """What the forms read of a game (companion.core.game.Game): its id and card kinds."""

    @property
    def id(self) -> str: ...

    @property
    def content_kinds(self) -> Mapping[str, type]: ...


def forms_for(game: _Kinds) -> FormTree:
    return FormTree(game.id, {kind: form_for(s) for kind, s in game.content_kinds.items()})
