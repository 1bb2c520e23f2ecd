"""Content packs: YAML files checked against each game's schemas, with file:line errors.

Packs live in `content/<game>/<pack>/` (shipped) or in the user data folder's
`content/<game>/<pack>/` (the players' own).  A scenario's `define:` block goes through
the same loader, so every kind has exactly one schema and one set of error messages.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import msgspec

from companion.content.schema import ID_PATTERN, Item
from companion.content.yamlines import LinedDoc, YamlSyntaxError, load_file, path_text
from companion.paths import content_roots, user_content_dir

MAX_PACK_BYTES = 1024 * 1024  # a pack's YAML in all; shipped packs hold under 40 KB
DRAFT_MARKER = "DRAFT"  # beside a pack's YAML while it has problems (see workshop.py)
T = TypeVar("T")
_MSGSPEC_PATH = re.compile(r" - at `\$([^`]*)`$")
_PATH_PART = re.compile(r"\.([^.\[\]]+)|\[(\d+)\]|\[\"?([^\]\"]+)\"?\]")


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a content file, located for the person who has to fix it."""

    file: str
    line: int
    field: str
    message: str

    def __str__(self) -> str:
        where = f" {self.field}:" if self.field else ""
        return f"{self.file}:{self.line}:{where} {self.message}"


class ContentError(Exception):
    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))


@dataclass
class Content:
    """All content loaded for one game: items by kind and id, with where each came from.

    The group's own packs are a layer over the shipped ones (DESIGN 11): a card of the
    group's with the id, or the kind and name, of a shipped card replaces it, keeping the
    shipped id so boards, decks and printed labels that name it still find it.
    """

    game: str
    items: dict[str, dict[str, Item]] = field(default_factory=dict)
    sources: dict[str, str] = field(default_factory=dict)
    packs: list[str] = field(default_factory=list)
    # the pack each card comes from after overriding, and the packs that are the group's
    pack_of: dict[str, str] = field(default_factory=dict)
    own_packs: set[str] = field(default_factory=set)
    # a shipped card the group's copy replaced: its id -> the shipped pack it came from
    replaced: dict[str, str] = field(default_factory=dict)
    # the id a group's card was written with -> the shipped id it took over (by name)
    aliases: dict[str, str] = field(default_factory=dict)
    titles: dict[str, str] = field(default_factory=dict)  # pack -> what players call it

    def canonical(self, item_id: str) -> str:
        """The id the rules know a card by (a group's card named like a shipped one
        answers to the shipped id)."""
        return self.aliases.get(item_id, item_id)

    def get(self, kind: str, item_id: str) -> Any:
        try:
            return self.items[kind][self.canonical(item_id)]
        except KeyError:
            raise KeyError(f"no {kind} '{item_id}' in the loaded content") from None

    def kind_of(self, item_id: str) -> str | None:
        item_id = self.canonical(item_id)
        for kind, items in self.items.items():
            if item_id in items:
                return kind
        return None

    def checked(self, item_id: str) -> bool:
        """Whether a card's numbers are real: printed in the rulebook, or held by the
        group's copy (checked against the printed card); false while they are the demo's."""
        item = self.by_id(item_id)
        return item is not None and not getattr(item, "demo", False)

    def pack_title(self, pack: str) -> str:
        return self.titles.get(pack, pack)

    def get_as(self, kind: str, item_id: str, cls: type[T]) -> T:
        """`get`, checked to be of the schema type the rules expect (typed rules read this)."""
        return _checked(self.get(kind, item_id), cls)

    def all_as(self, kind: str, cls: type[T]) -> list[T]:
        """`all`, each checked to be of the schema type the rules expect."""
        return [_checked(item, cls) for item in self.all(kind)]

    def find(self, kind: str, item_id: str) -> Any | None:
        return self.items.get(kind, {}).get(self.canonical(item_id))

    def all(self, kind: str) -> list[Any]:
        return list(self.items.get(kind, {}).values())

    def ids(self, kind: str) -> list[str]:
        return list(self.items.get(kind, {}))

    def by_id(self, item_id: str) -> Item | None:
        item_id = self.canonical(item_id)
        for items in self.items.values():
            if item_id in items:
                return items[item_id]
        return None


def _checked(item: object, cls: type[T]) -> T:
    if not isinstance(item, cls):
        raise TypeError(f"{item!r} is a {type(item).__name__}, not a {cls.__name__}")
    return item


def _split_msgspec_path(text: str) -> tuple[tuple[str | int, ...], str]:
    match = _MSGSPEC_PATH.search(text)
    if not match:
        return (), text
    parts: list[str | int] = []
    for name, index, key in _PATH_PART.findall(match.group(1)):
        parts.append(name or (int(index) if index else key))
    return tuple(parts), text[: match.start()]


def _named_field(message: str) -> tuple[str | None, bool]:
    """The field a msgspec message names, and whether it is present in the file."""
    m = re.search(r"missing required field `([^`]+)`", message)
    if m:
        return m.group(1), False
    m = re.search(r"unknown field `([^`]+)`", message)
    return (m.group(1), True) if m else (None, False)


def add_items(
    content: Content,
    doc: LinedDoc,
    kinds: Mapping[str, type],
    problems: list[Problem],
    *,
    override: bool = False,
    pack: str = "",
) -> None:
    """Validate `doc` (a mapping of kind -> list of items) and add its items to `content`
    as pack `pack`'s (`content.own_packs` says which packs are the group's, the layer over
    the shipped ones); `override` (a scenario's `define:`) replaces whatever it names."""
    data = doc.data
    if data is None:
        return
    if not isinstance(data, dict):
        problems.append(
            Problem(doc.filename, doc.line_of(()), "", "expected a mapping of kinds to lists")
        )
        return
    for kind, items in data.items():
        if kind in ("game", "pack", "description"):
            continue
        if kind not in kinds:
            known = ", ".join(sorted(kinds)) or "none"
            problems.append(
                Problem(
                    doc.filename,
                    doc.line_of((kind,)),
                    str(kind),
                    f"unknown kind for {content.game} (known kinds: {known})",
                )
            )
            continue
        if not isinstance(items, list):
            problems.append(
                Problem(doc.filename, doc.line_of((kind,)), kind, "expected a list of items")
            )
            continue
        schema = kinds[kind]
        for i, raw in enumerate(items):
            where = (kind, i)
            try:
                item: Item = msgspec.convert(raw, schema, strict=True)
            except msgspec.ValidationError as exc:
                sub, message = _split_msgspec_path(str(exc))
                named, present = _named_field(message)
                full = where + sub + ((named,) if named else ())
                label = path_text(full)
                ident = raw.get("id") if isinstance(raw, dict) else None
                if ident:
                    label += f" ({ident})"
                line = doc.line_of(full if present else where + sub)
                problems.append(Problem(doc.filename, line, label, message))
                continue
            if not ID_PATTERN.match(item.id) or not item.id.startswith(content.game + "/"):
                problems.append(
                    Problem(
                        doc.filename,
                        doc.line_of(where + ("id",)),
                        path_text(where + ("id",)),
                        f"id '{item.id}' must look like {content.game}/<kind>/<name> in lower case",
                    )
                )
                continue
            bucket = content.items.setdefault(kind, {})
            here = f"{doc.filename}:{doc.line_of(where)}"
            if override:
                bucket[item.id] = item
                content.sources[item.id] = here
                continue
            clash = _layered(content, kind, item, pack, here)
            if clash is not None:
                problems.append(Problem(doc.filename, doc.line_of(where), path_text(where), clash))


def _named_like(content: Content, kind: str, item: Item, own: bool) -> str | None:
    """The id of a card of `kind` loaded under the same name from the other layer (a
    shipped card, for a card of the group's; the group's card, for a shipped one)."""
    name = getattr(item, "name", "").strip().casefold()
    if not name:
        return None
    for other_id, other in content.items.get(kind, {}).items():
        other_own = content.pack_of.get(other_id, "") in content.own_packs
        if other_own != own and getattr(other, "name", "").strip().casefold() == name:
            return str(other_id)
    return None


def _layered(content: Content, kind: str, item: Item, pack: str, here: str) -> str | None:
    """Add `item` of `pack` to `content`: the group's card wins over a shipped card of
    the same id or name.  Returns the refusal in words when both cannot stand."""
    bucket = content.items[kind]
    own = pack in content.own_packs
    same = item.id if item.id in bucket else _named_like(content, kind, item, own)
    if same is None:
        bucket[item.id] = item
        content.pack_of[item.id] = pack
        content.sources[item.id] = here
        return None
    first = content.pack_of.get(same, "")
    if (first in content.own_packs) == own:
        if own and first != pack:
            return (
                f"{item.title} is in two of your packs, '{content.pack_title(first)}' and "
                f"'{content.pack_title(pack)}': keep it in one of them"
            )
        return f"{item.id} is defined twice (first at {content.sources[same]})"
    if item.id != same:
        content.aliases[item.id] = same
    if own:
        bucket[same] = msgspec.structs.replace(item, id=same) if item.id != same else item
        content.pack_of[same] = pack
        content.sources[same] = here
        content.replaced[same] = first
    else:
        content.replaced[same] = pack
    return None


def pack_dirs(game: str, pack: str) -> list[Path]:
    """Where pack `pack` of `game` may live: a path, the shipped folder, the user folder."""
    direct = Path(pack)
    if direct.is_dir():
        return [direct]
    return [root / game / pack for root in content_roots() if (root / game / pack).is_dir()]


def is_own(dirs: Iterable[Path]) -> bool:
    """Whether a pack is the group's (a layer over the shipped cards): it lives in the
    user data folder, or anywhere but the folders the app's own content ships in."""
    mine = user_content_dir().resolve()
    shipped = [r.resolve() for r in content_roots() if r.resolve() != mine]
    for d in dirs:
        where = d.resolve()
        if where.is_relative_to(mine):
            return True
        if any(where.is_relative_to(root) for root in shipped):
            return False
    return True


def own_packs(game: str) -> list[str]:
    """The group's packs of `game` in the user data folder, drafts included."""
    base = user_content_dir() / game
    return sorted(p.name for p in base.iterdir() if p.is_dir()) if base.is_dir() else []


def default_packs(game: str) -> list[str]:
    """What a new game plays when nobody chose: the shipped demo with every finished pack
    of the group's over it (a draft is left out: it cannot start a game)."""
    mine = [
        p for p in own_packs(game) if not (user_content_dir() / game / p / DRAFT_MARKER).exists()
    ]
    return ["demo", *mine]


def available_packs(game: str) -> list[str]:
    names: set[str] = set()
    for root in content_roots():
        if (root / game).is_dir():
            names.update(p.name for p in (root / game).iterdir() if p.is_dir())
    return sorted(names)


def yaml_files(root: Path) -> list[Path]:
    if root.is_file():
        return [root]
    return sorted(p for p in root.rglob("*") if p.suffix in (".yaml", ".yml") and p.is_file())


def _not_manifest(path: Path) -> bool:
    return path.name != "pack.yaml"


def load_content(
    game: str,
    kinds: Mapping[str, type],
    packs: Iterable[str] = ("demo",),
    define: LinedDoc | None = None,
    validate: Callable[[Content], Iterable[tuple[str, str]]] | None = None,
    drafts: bool = False,
) -> Content:
    """Load the named packs (and an inline `define` block) for `game`, or raise ContentError.

    A pack saved as a draft is refused in words unless `drafts` (the workshop checking it)."""
    content = Content(game=game, packs=list(packs))
    problems: list[Problem] = []
    for pack in content.packs:
        dirs = pack_dirs(game, pack)
        if not dirs:
            where = define.filename if define else "content"
            choices = ", ".join(available_packs(game)) or "none installed"
            problems.append(
                Problem(where, 1, "content", f"no {game} content pack '{pack}' ({choices})")
            )
            continue
        if not drafts and any((d / DRAFT_MARKER).exists() for d in dirs):
            problems.append(
                Problem(
                    str(dirs[0]),
                    1,
                    "content",
                    f"pack '{pack}' is a draft: fix its problems in Your cards "
                    "(or 'companion content check') before playing with it",
                )
            )
        if is_own(dirs):
            content.own_packs.add(pack)
        # the manifest first: a refusal naming this pack names it as the players do
        files = sorted((path for d in dirs for path in yaml_files(d)), key=_not_manifest)
        size = sum(path.stat().st_size for path in files)
        if size > MAX_PACK_BYTES:
            problems.append(
                Problem(
                    str(dirs[0]),
                    1,
                    "content",
                    f"pack '{pack}' is too large ({size // 1024:,} KB of YAML; "
                    f"at most {MAX_PACK_BYTES // 1024:,} KB)",
                )
            )
            continue
        for path in files:
            try:
                doc = load_file(str(path))
            except YamlSyntaxError as exc:
                problems.append(Problem(exc.filename, exc.line, "", str(exc).split(": ", 1)[1]))
                continue
            if path.name == "pack.yaml" and isinstance(doc.data, dict):
                title = doc.data.get("pack")
                if isinstance(title, str) and title.strip():
                    content.titles[pack] = title.strip()
            add_items(content, doc, kinds, problems, pack=pack)
    if define is not None:
        add_items(content, define, kinds, problems, override=True)
    if not problems and validate is not None:
        for item_id, message in validate(content):
            src = content.sources.get(item_id, "content:1")
            file, _, line = src.rpartition(":")
            problems.append(Problem(file, int(line or 1), item_id, message))
    if problems:
        raise ContentError(problems)
    return content
