"""One card at a time from the command line: `companion content cards | set | add`.

Why a module: the three verbs read a card by its name, change a field by a dotted path
typed as `FIELD=VALUE` and write the card into the group's pack, the layer over the demo
(DESIGN 11).  The command line stays a thin shell over these functions, and every card is
checked with the editor's own words (`workshop.card_problems`, `in_words`) and the game's
own cross-checks (`validate_content`) before a byte is written; a change the pack as a
whole then refuses is put back, so a refusal never leaves anything behind.
"""

from __future__ import annotations

import copy
import datetime
import difflib
import re
import shutil
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, TypedDict

import msgspec
import yaml

from companion.content import forms
from companion.content.diff import FieldPath, changes
from companion.content.forms import CHOICE, EITHER, LIST, MAPPING, STRUCT, TEXT, FormField
from companion.content.pack import DRAFT_MARKER, Content, default_packs, load_content, own_packs
from companion.content.schema import Item
from companion.core import workshop
from companion.core.registry import get_game
from companion.paths import user_content_dir

if TYPE_CHECKING:
    from companion.core.game import Game

OUR_COPY = "Our copy"  # the pack made for the group when it has none yet
_FIELD = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.([A-Za-z_][A-Za-z0-9_]*|\d+))*$")
_COUNT = {2: "two", 3: "three", 4: "four", 5: "five"}


class EditError(Exception):
    """What is wrong with the input, in one sentence; nothing was written."""


@dataclass(frozen=True)
class Assignment:
    """One `FIELD=VALUE` as typed: the field's path in the card and the value read."""

    text: str
    path: FieldPath
    raw: str
    value: object


@dataclass
class Edit:
    """What `set_card` or `add_card` did."""

    game: str
    kind: str
    card_id: str
    name: str
    pack: str
    pack_title: str
    made_pack: bool = False
    changes: list[tuple[FieldPath, object, object]] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # the pack's own, left from before
    unchanged: bool = False  # already checked: nothing written
    own: bool = True  # the pack is one of the group's (not the rulebook's own numbers)


def dotted(path: Iterable[str | int]) -> str:
    return ".".join(str(p) for p in path)


def singular(kind: str) -> str:
    """A kind's key as one card of it is called: `karn_cards` -> "karn card"."""
    word = kind
    if word.endswith("ies"):
        word = word[:-3] + "y"
    elif word.endswith(("sses", "xes", "ches", "shes")):
        word = word[:-2]
    elif word.endswith("s") and not word.endswith("ss"):
        word = word[:-1]
    return word.replace("_", " ")


# -- FIELD=VALUE ----------------------------------------------------------------------------


def parse_assignment(text: str) -> Assignment:
    """`attack=6`, `hit_effects.0.amount=1`, `level=acolyte`, `hits=[5, 6]`."""
    key, eq, raw = text.partition("=")
    key = key.strip()
    if not eq or not _FIELD.match(key):
        raise EditError(
            f"'{text}' is not FIELD=VALUE (for example attack=6 or hit_effects.0.amount=1)"
        )
    path: FieldPath = tuple(int(p) if p.isdigit() else p for p in key.split("."))
    return Assignment(text, path, raw, parse_value(raw))


def parse_value(raw: str) -> object:
    """A value as YAML reads a scalar (6, 2.5, true, words); a list or mapping only when
    written as one (`[5, 6]`, `{kind: poison, amount: 1}`), so `Ink: the Second` is text."""
    text = raw.strip()
    if not text:
        return ""
    flow = text[:1] in "[{"
    try:
        value = yaml.safe_load(text)
    except yaml.YAMLError:
        if flow:
            raise EditError(f"'{text}' is not a list or mapping YAML can read") from None
        return text
    if isinstance(value, dict | list) and not flow:
        return text
    return _plain(value)


def _plain(value: object) -> object:
    """YAML's dates and times as the text typed (a card holds none)."""
    if isinstance(value, datetime.date | datetime.time):
        return value.isoformat()
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def _settable(form: FormField) -> list[FormField]:
    return [f for f in forms.fields_of(form) if not f.hidden]


def field_at(form: FormField, path: FieldPath, what: str) -> FormField:
    """The form field a path names, or a refusal naming the fields there are (`what` is
    how the card is called: "a Direwild minion")."""
    here = form
    for i, part in enumerate(path):
        if here.kind == EITHER:
            shapes = (LIST,) if isinstance(part, int) else (STRUCT, MAPPING)
            option = next((o for o in here.options if o.kind in shapes), None)
            if option is None:
                raise EditError(f"{dotted(path[:i])} holds a single value, not {dotted(path)}")
            here = option
        if isinstance(part, int):
            if here.kind != LIST or here.item is None:
                raise EditError(
                    f"{dotted(path[:i])} is not a list, so {dotted(path)} names nothing"
                )
            here = here.item
            continue
        if here.kind == MAPPING and here.item is not None:
            here = here.item
            continue
        if here.kind != STRUCT:
            raise EditError(f"{dotted(path[:i])} holds a single value, not {dotted(path)}")
        names = [f.name for f in _settable(here)]
        if part not in names:
            who = what if i == 0 else dotted(path[:i])
            raise EditError(f"{who} has no field '{part}': its fields are {', '.join(names)}")
        here = here.find(part)
    return here


def coerce(target: FormField, a: Assignment) -> object:
    """The value as the field takes it: words stay words in a text field or a choice of
    words (`name=No`, `name=2024` are names, not a false or a number)."""
    words = target.kind == TEXT or (
        target.kind == CHOICE and all(isinstance(c, str) for c in target.choices)
    )
    text = a.raw.strip()
    if words and a.value is not None and not isinstance(a.value, str) and text[:1] not in "[{":
        return text
    return a.value


def set_path(card: dict[str, object], path: FieldPath, value: object) -> None:
    """Set one value in a card by its path; a list grows by one at its end (index = len)."""
    node: object = card
    for i, part in enumerate(path):
        last = i == len(path) - 1
        blank: list[object] | dict[str, object] | None = (
            None if last else ([] if isinstance(path[i + 1], int) else {})
        )
        if isinstance(part, int):
            if not isinstance(node, list):
                raise EditError(
                    f"{dotted(path[:i])} is not a list, so {dotted(path)} names nothing"
                )
            if part > len(node):
                entries = "1 entry" if len(node) == 1 else f"{len(node)} entries"
                raise EditError(
                    f"{dotted(path[:i])} has {entries}, numbered from 0: "
                    f"{dotted(path[: i + 1])} is past the end ({len(node)} adds one)"
                )
            if part == len(node):
                node.append(blank)
            if last:
                node[part] = value
            elif node[part] is None:
                node[part] = blank
            if not last:
                node = node[part]
        else:
            if not isinstance(node, dict):
                raise EditError(f"{dotted(path[:i])} holds a single value, not {dotted(path)}")
            if last:
                node[part] = value
            elif node.get(part) is None:
                node[part] = blank
            if not last:
                node = node[part]


def apply(
    card: dict[str, object], form: FormField, assignments: Sequence[Assignment], what: str
) -> dict[str, object]:
    """The card with every assignment made, each field checked to exist first."""
    out = copy.deepcopy(card)
    for a in assignments:
        target = field_at(form, a.path, what)
        set_path(out, a.path, coerce(target, a))
    return out


# -- reading the cards in play --------------------------------------------------------------


def in_play(game_id: str) -> Content:
    """What a new game of `game_id` plays: the demo with the group's finished packs over it."""
    game = get_game(game_id)
    return load_content(
        game_id,
        game.content_kinds,
        default_packs(game_id),
        validate=game.validate_content,
    )


class CardRow(TypedDict):
    """One card in play as `content cards` lists it."""

    id: str
    name: str
    kind: str
    pack: str
    checked: bool


def card_rows(content: Content, kinds: Iterable[str]) -> list[CardRow]:
    """One entry per card in play, in the game's order of kinds."""
    rows: list[CardRow] = []
    for kind in kinds:
        for item_id, item in content.items.get(kind, {}).items():
            rows.append(
                {
                    "id": item_id,
                    "name": item.title,
                    "kind": kind,
                    "pack": content.pack_of.get(item_id, ""),
                    "checked": content.checked(item_id),
                }
            )
    return rows


def _cards(content: Content) -> list[tuple[str, str, Item]]:
    return [(k, i, item) for k, items in content.items.items() for i, item in items.items()]


def find_card(content: Content, game_title: str, text: str) -> tuple[str, str]:
    """(kind, id) of the card `text` names: its id, its name or its id's last part, in any
    case; refused in words when none or several answer to it."""
    wanted = text.strip()
    item_id = content.canonical(wanted)
    kind = content.kind_of(item_id)
    if kind is not None:
        return kind, item_id
    key = wanted.casefold()
    everything = _cards(content)
    hits = [(k, i) for k, i, item in everything if item.title.strip().casefold() == key]
    if not hits:
        slug = workshop.slugify(wanted)
        hits = [(k, i) for k, i, _item in everything if i.rsplit("/", 1)[-1] == slug]
        for written, shipped in content.aliases.items():
            kind = content.kind_of(shipped)
            if written.rsplit("/", 1)[-1] == slug and kind and (kind, shipped) not in hits:
                hits.append((kind, shipped))
    if len(hits) == 1:
        return hits[0]
    if hits:
        count = _COUNT.get(len(hits), str(len(hits)))
        listed = ", ".join(f"{i} ({singular(k)})" for k, i in hits)
        raise EditError(f"'{wanted}' names {count} cards: {listed}; give the id")
    names: dict[str, str] = {}
    for _k, i, item in everything:
        names.setdefault(item.title.casefold(), item.title)
        names.setdefault(i.rsplit("/", 1)[-1], i.rsplit("/", 1)[-1])
    close = difflib.get_close_matches(key, list(names), n=3, cutoff=0.6)
    shown = list(dict.fromkeys(names[c] for c in close))
    hint = f" (did you mean {' or '.join(shown)}?)" if shown else ""
    raise EditError(f"there is no {game_title} card called '{wanted}'{hint}")


def find_kind(game: Game, text: str) -> str:
    """The kind key `text` names: the key (`minions`), one card of it (`minion`), the
    editor's label (`Ai card`) or the middle of its ids (`karn_card`)."""
    key = re.sub(r"[\s-]+", "_", text.strip().casefold())
    for kind, schema in game.content_kinds.items():
        said = {
            kind,
            singular(kind).replace(" ", "_"),
            re.sub(r"\s+", "_", forms.form_for(schema).label.casefold()),
            workshop.id_part(game.id, kind).replace("-", "_"),
        }
        if key in said:
            return str(kind)
    kinds = ", ".join(singular(k) for k in game.content_kinds)
    raise EditError(f"{game.title} has no kind of card called '{text}' (its kinds: {kinds})")


# -- the group's pack ----------------------------------------------------------------------


def choose_pack(
    game_title: str,
    mine: Sequence[str],
    wanted: str | None,
    holder: str | None = None,
    name: str = "",
) -> str | None:
    """The group's pack to write into (None: the group has none yet, make one): `wanted`
    (--pack), else the pack already holding the card, else the group's only pack."""
    if wanted is not None:
        slug = wanted if wanted in mine else workshop.slugify(wanted)
        if slug not in mine:
            yours = f"yours: {', '.join(mine)}" if mine else "you have none yet"
            raise EditError(f"you have no {game_title} pack called '{wanted}' ({yours})")
        if holder is not None and holder != slug:
            raise EditError(
                f"{name} is already in your pack '{holder}': set it there (--pack {holder})"
            )
        return slug
    if holder is not None:
        return holder
    if len(mine) > 1:
        listed = ", ".join(f"'{m}'" for m in mine[:-1]) + f" and '{mine[-1]}'"
        raise EditError(f"you have {len(mine)} {game_title} packs, {listed}: say which with --pack")
    return mine[0] if mine else None


def _problem_words(form: FormField, name: str, problem: workshop.FieldProblem) -> str:
    """The problem as one line: a field of the card by the editor's label ("Inkling:
    Attack must be a whole number"), a field inside it by its path ("Inkling:
    hit_effects.0.kind: 'x' is not one of the choices (poison, ...)")."""
    path = problem.path
    if not path:
        return f"{name}: {problem.message}"
    try:
        target: FormField | None = field_at(form, path, name)
    except EditError:
        target = None
    said = problem.message
    if target is not None and target.kind == CHOICE and target.choices:
        said += f" ({', '.join(str(c) for c in target.choices)})"
    if len(path) == 1 and target is not None:
        return f"{name}: {target.label} {said}"
    return f"{name}: {dotted(path)}: {said}"


def check_card(
    game_id: str, kind: str, card: Mapping[str, object], context: Content, replaces: str | None
) -> None:
    """Refuse in words what `content check` would say of this card among the cards in
    play: the schema's complaint about a field, then the game's own cross-checks."""
    game = get_game(game_id)
    form = forms.form_for(game.content_kinds[kind])
    name = str(card.get("name") or card.get("id") or singular(kind))
    problems = workshop.card_problems(game_id, kind, card)
    if problems:
        raise EditError(_problem_words(form, name, problems[0]))
    said = workshop.pack_checks(context, kind, card, replaces)
    if said:
        raise EditError(f"{name}: {said[0]}")


def file_id(content: Content, item_id: str) -> str:
    """The id a group's card is written with (a card named like a shipped one keeps its
    own id in the file and answers to the shipped one in play)."""
    return next((a for a, shipped in content.aliases.items() if shipped == item_id), item_id)


def _snapshot(folder: Path) -> dict[Path, bytes]:
    return {p: p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def _restore(folder: Path, before: dict[Path, bytes]) -> None:
    for p in [p for p in folder.rglob("*") if p.is_file() and p not in before]:
        p.unlink()
    for p, data in before.items():
        p.write_bytes(data)


def _write(
    game_id: str,
    kind: str,
    card: dict[str, object],
    slug: str | None,
    replaces: str | None,
) -> tuple[str, bool, list[str]]:
    """Write the card into pack `slug` (made as "Our copy" when None): the pack's slug,
    whether it was made, and the problems it has (ones it had before, left as they were).
    A problem the card brings is refused and everything put back as it was."""
    made = slug is None
    if slug is None:
        try:
            slug = workshop.new_pack(game_id, OUR_COPY).slug
        except workshop.WorkshopError as exc:
            raise EditError(str(exc)) from None
    folder = user_content_dir() / game_id / slug
    marker = folder / DRAFT_MARKER  # a draft's problems, as `workshop.refresh` wrote them
    before = marker.read_text(encoding="utf-8").splitlines() if marker.exists() else []
    saved = _snapshot(folder)
    try:
        after = [str(p) for p in workshop.save_card(game_id, slug, kind, card, replaces)]
    except workshop.WorkshopError as exc:
        after = [str(exc)]
    new = [p for p in after if p not in before]
    if new:
        if made:
            shutil.rmtree(folder, ignore_errors=True)
        else:
            _restore(folder, saved)
        raise EditError(new[0])
    return slug, made, after


def _title(content: Content, slug: str, made: bool) -> str:
    return OUR_COPY if made else content.titles.get(slug) or slug


def _tidy(form: FormField, card: dict[str, object]) -> dict[str, object]:
    """The card as a pack file holds it: fields at their defaults left out."""
    out = forms.without_defaults(form, card)
    out.pop("demo", None)
    return dict(out)


def _shown(form: FormField, path: FieldPath, value: object) -> object:
    """A list or entry as a pack file writes it: fields at their defaults left out."""
    if not isinstance(value, dict | list):
        return value
    try:
        return forms.without_defaults(field_at(form, path, ""), value)
    except EditError:
        return value


def set_card(
    game_id: str,
    text: str,
    assignments: Sequence[Assignment],
    pack: str | None = None,
    matches: bool = False,
) -> Edit:
    """Write the card `text` names into the group's pack as the group's copy holds it:
    the card as now in play, no longer demo, with `assignments` made."""
    game = get_game(game_id)
    if matches and assignments:
        raise EditError("--matches keeps the numbers as they are: leave out FIELD=VALUE")
    if not matches and not assignments:
        raise EditError("say what to change (FIELD=VALUE), or --matches if the card matches")
    content = in_play(game_id)
    kind, item_id = find_card(content, game.title, text)
    item = content.by_id(item_id)
    assert item is not None  # find_card answers only with a card in play
    name = str(item.title)
    form = forms.form_for(game.content_kinds[kind])
    holder = content.pack_of.get(item_id)
    if matches and content.checked(item_id):
        where = str(holder or "")
        own = where in content.own_packs
        title = content.pack_title(where)
        return Edit(game_id, kind, item_id, name, where, title, unchanged=True, own=own)
    mine = own_packs(game_id)
    slug = choose_pack(
        game.title, mine, pack, holder if holder in content.own_packs else None, name
    )
    current: dict[str, object] = msgspec.to_builtins(item)
    card = apply(current, form, assignments, f"{name} ({singular(kind)})")
    card.pop("demo", None)
    written_as = file_id(content, item_id) if holder in content.own_packs else item_id
    card["id"] = item_id
    check_card(game_id, kind, card, content, item_id)
    card["id"] = written_as
    written, made, problems = _write(game_id, kind, _tidy(form, card), slug, written_as)
    title = _title(content, written, made)
    full = msgspec.to_builtins(msgspec.convert(card, game.content_kinds[kind], strict=True))
    done = [
        (path, _shown(form, path, old), _shown(form, path, new))
        for path, old, new in changes(current, full)
        if path[0] not in ("id", "demo")
    ]
    return Edit(game_id, kind, item_id, name, written, title, made, done, problems)


def add_card(
    game_id: str, kind_text: str, assignments: Sequence[Assignment], pack: str | None = None
) -> Edit:
    """A new card of the group's from its kind's template, with `assignments` made; its id
    is made from its name (never one the pack already holds)."""
    game = get_game(game_id)
    kind = find_kind(game, kind_text)
    schema = game.content_kinds[kind]
    form = forms.form_for(schema)
    template_for = getattr(forms, "template_for", None)
    template = template_for(game, kind) if template_for is not None else None
    card = forms.new_card(schema, template)
    card = apply(card, form, assignments, f"a {game.title} {singular(kind)}")
    card.pop("demo", None)
    slug = choose_pack(game.title, own_packs(game_id), pack)
    folder = user_content_dir() / game_id / slug if slug else None
    if not card.get("id"):
        wanted = workshop.new_card_id(game_id, kind, str(card.get("name", "")))
        card["id"] = workshop.unused_id(folder, kind, wanted) if folder else wanted
    content = in_play(game_id)
    check_card(game_id, kind, card, content, None)
    written, made, problems = _write(game_id, kind, _tidy(form, card), slug, None)
    title = _title(content, written, made)
    name = str(card.get("name") or card["id"])
    return Edit(game_id, kind, str(card["id"]), name, written, title, made, [], problems)
