"""The group's own packs: list, make, edit card by card, share and label them.

Why a module of its own: the tablet's pack editor and `companion content` do the same
things to the same folders, so both call these functions and neither writes YAML itself.
Every card is checked by the very loader and schemas a game starts with (`load_content`),
so the editor can never accept a card the game would refuse.  A pack that still has
problems is kept as a *draft* (a marker file beside its YAML): the players lose nothing
they typed, and no game can start with it until it is clean (`pack.DRAFT_MARKER`).
"""

from __future__ import annotations

import json
import re
import shutil
import tempfile
import zipfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

import msgspec
import yaml

from companion.content.pack import (
    DRAFT_MARKER,
    MAX_PACK_BYTES,
    Content,
    ContentError,
    Problem,
    _named_field,
    _split_msgspec_path,
    add_items,
    load_content,
    pack_dirs,
    yaml_files,
)
from companion.content.schema import ID_PATTERN, Item
from companion.content.yamlines import YamlSyntaxError, load_file, path_text
from companion.core.registry import get_game
from companion.paths import content_roots, data_home, user_content_dir

MANIFEST = "pack.yaml"  # inside a pack folder: its game and the name players gave it
EXPORT_FORMAT = "table-companion-pack"
EXPORT_VERSION = 1
EXPORT_SUFFIX = ".pack.zip"
_HEADER_KEYS = ("game", "pack", "description")
_MAX_FILES = 64


class WorkshopError(Exception):
    """A refusal in a player's words (nothing was changed)."""


class PackExists(WorkshopError):
    """An import would replace a pack of the same name (`replaceable`: one of the user's)."""

    def __init__(self, message: str, replaceable: bool) -> None:
        super().__init__(message)
        self.replaceable = replaceable


@dataclass(frozen=True)
class PackInfo:
    """What the pack list shows: enough to choose, without loading a single card."""

    game: str
    slug: str
    title: str
    path: Path
    shipped: bool
    counts: dict[str, int] = field(default_factory=dict)
    draft: bool = False

    @property
    def cards(self) -> int:
        return sum(self.counts.values())


@dataclass(frozen=True)
class FieldProblem:
    """A problem with one card, at the path of the field the form highlights."""

    path: tuple[str | int, ...]
    message: str

    def __str__(self) -> str:
        return f"{path_text(self.path)}: {self.message}" if self.path else self.message


def slugify(name: str) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
    return slug[:40].strip("-")


def _is_draft(path: Path) -> bool:
    return (path / DRAFT_MARKER).exists()


def _read(path: Path) -> dict[str, Any]:
    try:
        data = load_file(str(path)).data
    except YamlSyntaxError:
        return {}
    return data if isinstance(data, dict) else {}


def _title(folder: Path, slug: str) -> str:
    manifest = folder / MANIFEST
    if manifest.exists():
        name = _read(manifest).get("pack")
        if isinstance(name, str) and name.strip():
            return name.strip()
    return slug  # a pack written by hand is known by its folder's name


def _counts(folder: Path, kinds: Mapping[str, type]) -> dict[str, int]:
    counts = dict.fromkeys(kinds, 0)
    for path in yaml_files(folder):
        for kind, items in _read(path).items():
            if kind in counts and isinstance(items, list):
                counts[kind] += len(items)
    return counts


def list_packs(game_id: str) -> list[PackInfo]:
    """Every installed pack of a game, shipped first, each with its cards counted."""
    game = get_game(game_id)
    out: list[PackInfo] = []
    mine = user_content_dir()
    roots = [(root, root != mine) for root in content_roots()]
    for root, shipped in roots:
        base = root / game_id
        if not base.is_dir():
            continue
        for folder in sorted(p for p in base.iterdir() if p.is_dir()):
            out.append(
                PackInfo(
                    game_id,
                    folder.name,
                    _title(folder, folder.name),
                    folder,
                    shipped,
                    _counts(folder, game.content_kinds),
                    _is_draft(folder),
                )
            )
    return out


def pack_info(game_id: str, slug: str) -> PackInfo:
    for info in list_packs(game_id):
        if info.slug == slug:
            return info
    raise WorkshopError(f"there is no {get_game(game_id).title} pack called '{slug}'")


def _own(game_id: str, slug: str) -> PackInfo:
    """A pack the players may change: one in the user data folder."""
    info = pack_info(game_id, slug)
    if info.shipped:
        raise WorkshopError(
            f"'{info.title}' came with the app and cannot be changed: make a copy of it first"
        )
    return info


def new_pack(game_id: str, name: str, from_pack: str | None = None) -> PackInfo:
    """A new pack in the user data folder: empty, or a copy of an installed pack."""
    game = get_game(game_id)
    slug = slugify(name)
    if not slug:
        raise WorkshopError("give the pack a name with at least one letter or digit")
    if pack_dirs(game_id, slug) or any(i.slug == slug for i in list_packs(game_id)):
        raise WorkshopError(f"there is already a {game.title} pack called '{slug}'")
    sources: list[Path] = []
    if from_pack:
        sources = [pack_info(game_id, from_pack).path]
    dest = user_content_dir() / game_id / slug
    dest.mkdir(parents=True)
    for src in sources:
        for path in yaml_files(src):
            if path.name == MANIFEST:
                continue
            target = dest / path.relative_to(src)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, target)
    _write_yaml(dest / MANIFEST, {"game": game_id, "pack": name.strip()})
    refresh(game_id, slug)
    return pack_info(game_id, slug)


def delete_pack(game_id: str, slug: str) -> None:
    shutil.rmtree(_own(game_id, slug).path)


def under(game_id: str, slug: str) -> list[str]:
    """The packs a game loads to play `slug`: a pack of the group's is a layer over the
    shipped demo, so it need hold only the cards it changes."""
    info = pack_info(game_id, slug)
    if info.shipped or slug == "demo" or not pack_dirs(game_id, "demo"):
        return [slug]
    return ["demo", slug]


def pack_problems(game_id: str, slug: str) -> list[Problem]:
    """Every problem the game would find starting with this pack (over the demo)."""
    game = get_game(game_id)
    try:
        load_content(
            game_id,
            game.content_kinds,
            under(game_id, slug),
            validate=game.validate_content,
            drafts=True,
        )
    except ContentError as exc:
        return exc.problems
    return []


def refresh(game_id: str, slug: str) -> list[Problem]:
    """Check the pack and mark it a draft exactly while it has problems."""
    info = _own(game_id, slug)
    problems = pack_problems(game_id, slug)
    marker = info.path / DRAFT_MARKER
    if problems:
        marker.write_text("\n".join(str(p) for p in problems) + "\n", encoding="utf-8")
    else:
        marker.unlink(missing_ok=True)
    return problems


def cards(game_id: str, slug: str, kind: str) -> list[dict[str, Any]]:
    """The cards of one kind as written (a draft's unfinished cards included)."""
    out: list[dict[str, Any]] = []
    for path in yaml_files(pack_info(game_id, slug).path):
        items = _read(path).get(kind)
        if isinstance(items, list):
            out.extend(i for i in items if isinstance(i, dict))
    return out


def id_part(game_id: str, kind: str) -> str:
    """The middle of a new card's id (`<game>/<part>/<name>`): what the installed cards
    of that kind use, so labels and scans stay alike, else the kind's own name."""
    for info in list_packs(game_id):
        for card in cards(game_id, info.slug, kind):
            parts = str(card.get("id", "")).split("/")
            if len(parts) == 3 and parts[0] == game_id:
                return parts[1]
    return kind.removesuffix("s").replace("_", "-")


def new_card_id(game_id: str, kind: str, name: str) -> str:
    return f"{game_id}/{id_part(game_id, kind)}/{slugify(name) or 'card'}"


def card_problems(game_id: str, kind: str, card: Mapping[str, object]) -> list[FieldProblem]:
    """What is wrong with one card on its own, by field (msgspec names the first)."""
    game = get_game(game_id)
    schema = game.content_kinds.get(kind)
    if schema is None:
        return [FieldProblem((), f"{game.title} has no kind of card called '{kind}'")]
    try:
        item: Item = msgspec.convert(dict(card), schema, strict=True)
    except msgspec.ValidationError as exc:
        sub, message = _split_msgspec_path(str(exc))
        named, _present = _named_field(message)
        return [FieldProblem(tuple(sub) + ((named,) if named else ()), in_words(message))]
    if not ID_PATTERN.match(item.id) or not item.id.startswith(game_id + "/"):
        return [FieldProblem(("id",), f"must look like {game_id}/<kind>/<name> in lower case")]
    return []


_KIND_WORDS = {
    "int": "a whole number",
    "float": "a number",
    "str": "some text",
    "bool": "yes or no",
    "array": "a list",
    "object": "a set of fields",
    "null": "empty",
}


def in_words(message: str) -> str:
    """A schema's complaint as the editor says it beside the field."""
    if re.match(r"Object missing required field", message):
        return "needs to be filled in"
    m = re.match(r"Expected `(\w+)`(?: (>=|<=) (-?\d+))?, got `(\w+)`", message)
    if m:
        want, bound, limit, got = m.groups()
        if bound:
            return f"must be {'at least' if bound == '>=' else 'at most'} {limit}"
        if got == "null":
            return "needs to be filled in"
        return f"must be {_KIND_WORDS.get(want, want)}"
    m = re.match(r"Expected `(\w+)` (>=|<=) (-?\d+)", message)
    if m:
        return f"must be {'at least' if m.group(2) == '>=' else 'at most'} {m.group(3)}"
    m = re.match(r"Invalid enum value (.+)", message)
    if m:
        return f"{m.group(1)} is not one of the choices"
    m = re.match(r"Object contains unknown field", message)
    return "is not a field of this card" if m else message


def pack_context(game_id: str, slug: str) -> Content:
    """The pack's cards that load, read once for the live checks of a card being edited
    (a draft's broken cards are left out, as the loader leaves them)."""
    game = get_game(game_id)
    packs = under(game_id, slug)
    content = Content(game=game_id, packs=packs)
    ignored: list[Problem] = []
    for pack in packs:
        folders = pack_dirs(game_id, pack)
        if pack == slug and not pack_info(game_id, slug).shipped:
            content.own_packs.add(pack)
        for path in (p for folder in folders for p in yaml_files(folder)):
            try:
                add_items(content, load_file(str(path)), game.content_kinds, ignored, pack=pack)
            except YamlSyntaxError:
                continue
    return content


def pack_checks(
    context: Content, kind: str, card: Mapping[str, object], replaces: str | None = None
) -> list[str]:
    """What the game's own cross-checks say about this card among the pack's other cards
    (`pack_context`): a boss's dice for every HP space, a story with four bosses."""
    game = get_game(context.game)
    schema = game.content_kinds.get(kind)
    if schema is None or card_problems(context.game, kind, card):
        return []
    item: Item = msgspec.convert(dict(card), schema, strict=True)
    content = Content(
        game=context.game,
        items={k: dict(v) for k, v in context.items.items()},
        sources=dict(context.sources),
        packs=list(context.packs),
    )
    bucket = content.items.setdefault(kind, {})
    bucket.pop(replaces or item.id, None)
    bucket[item.id] = item
    content.sources[item.id] = f"{kind}.yaml:1"
    return [message for item_id, message in game.validate_content(content) if item_id == item.id]


def _write_yaml(path: Path, data: Mapping[str, object]) -> None:
    text = yaml.safe_dump(dict(data), sort_keys=False, allow_unicode=True, width=100)
    path.write_text(text, encoding="utf-8")


def _file_holding(folder: Path, kind: str, card_id: str) -> Path | None:
    for path in yaml_files(folder):
        items = _read(path).get(kind)
        if isinstance(items, list) and any(
            isinstance(i, dict) and i.get("id") == card_id for i in items
        ):
            return path
    return None


def unused_id(folder: Path, kind: str, wanted: str) -> str:
    """`wanted`, or `wanted-2`, `-3`...: a new card never replaces one of the same name."""
    candidate, n = wanted, 1
    while _file_holding(folder, kind, candidate) is not None:
        n += 1
        candidate = f"{wanted}-{n}"
    return candidate


def save_card(
    game_id: str,
    slug: str,
    kind: str,
    card: Mapping[str, Any],
    replaces: str | None = None,
) -> list[Problem]:
    """Write one card into the pack (replacing `replaces`, its id before an edit) and
    return the pack's problems: none, or the draft's list in words."""
    info = _own(game_id, slug)
    game = get_game(game_id)
    if kind not in game.content_kinds:
        raise WorkshopError(f"{game.title} has no kind of card called '{kind}'")
    card = dict(card)
    if not card.get("id"):
        card["id"] = unused_id(
            info.path, kind, new_card_id(game_id, kind, str(card.get("name", "")))
        )
    old = replaces or card["id"]
    path = _file_holding(info.path, kind, old) or info.path / f"{kind}.yaml"
    data: dict[str, Any] = _read(path) if path.exists() else {"game": game_id}
    items = [i for i in data.get(kind) or [] if isinstance(i, dict)]
    ids = [i.get("id") for i in items]
    if card["id"] != old and _file_holding(info.path, kind, card["id"]):
        raise WorkshopError(f"the pack already has a card with the id {card['id']}")
    if old in ids:
        items[ids.index(old)] = card
    else:
        items.append(card)
    data[kind] = items
    _write_yaml(path, data)
    return refresh(game_id, slug)


def delete_card(game_id: str, slug: str, kind: str, card_id: str) -> list[Problem]:
    info = _own(game_id, slug)
    path = _file_holding(info.path, kind, card_id)
    if path is None:
        raise WorkshopError(f"the pack has no card {card_id}")
    data = _read(path)
    data[kind] = [i for i in data[kind] if not (isinstance(i, dict) and i.get("id") == card_id)]
    _write_yaml(path, data)
    return refresh(game_id, slug)


def exports_dir() -> Path:
    path = data_home() / "exports"
    path.mkdir(parents=True, exist_ok=True)
    return path


def inbox_dir() -> Path:
    """Where a shared pack file is dropped to be imported (the tablet lists it)."""
    path = data_home() / "inbox"
    path.mkdir(parents=True, exist_ok=True)
    return path


def export_pack(game_id: str, slug: str, out: Path | None = None) -> Path:
    """The pack as one file: a zip of its YAML and a manifest naming game, pack, version."""
    info = pack_info(game_id, slug)
    if info.draft:
        raise WorkshopError(f"'{info.title}' still has problems: fix them before sharing it")
    out = Path(out) if out else exports_dir() / f"{game_id}-{slug}{EXPORT_SUFFIX}"
    if not out.parent.is_dir():
        raise WorkshopError(f"the folder {out.parent} does not exist")
    files = [p for p in yaml_files(info.path) if p.name != MANIFEST]
    manifest = {
        "format": EXPORT_FORMAT,
        "version": EXPORT_VERSION,
        "game": game_id,
        "pack": slug,
        "name": info.title,
        "files": [p.relative_to(info.path).as_posix() for p in files],
    }
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("manifest.json", json.dumps(manifest, indent=2))
        for path in files:
            zf.write(path, "cards/" + path.relative_to(info.path).as_posix())
    return out


def _manifest(zf: zipfile.ZipFile, name: str) -> dict[str, object]:
    try:
        manifest = json.loads(zf.read("manifest.json"))
    except KeyError:
        raise WorkshopError(f"{name} is not a shared pack (it has no manifest)") from None
    except ValueError:
        raise WorkshopError(f"{name}'s manifest cannot be read") from None
    if not isinstance(manifest, dict) or manifest.get("format") != EXPORT_FORMAT:
        raise WorkshopError(f"{name} is not a shared pack of cards")
    if manifest.get("version") != EXPORT_VERSION:
        raise WorkshopError(
            f"{name} was made by a newer version of the app (format {manifest.get('version')})"
        )
    return manifest


def import_pack(file: Path, replace: bool = False, as_name: str | None = None) -> PackInfo:
    """Install a shared pack after checking every card in a scratch folder; nothing is
    installed while it has problems (ContentError lists each) or if a pack of that name
    exists and `replace` is not given."""
    file = Path(file)
    if not file.is_file():
        raise WorkshopError(f"there is no file {file}")
    try:
        zf = zipfile.ZipFile(file)
    except (zipfile.BadZipFile, OSError):
        raise WorkshopError(f"{file.name} is not a shared pack (not a zip file)") from None
    with zf:
        manifest = _manifest(zf, file.name)
        game = get_game(str(manifest.get("game")))
        slug = slugify(as_name or str(manifest.get("pack", "")))
        if not slug:
            raise WorkshopError(f"{file.name} names no pack")
        members = [m for m in zf.infolist() if m.filename.startswith("cards/") and not m.is_dir()]
        if len(members) > _MAX_FILES:
            raise WorkshopError(f"{file.name} holds more than {_MAX_FILES} files")
        if sum(m.file_size for m in members) > MAX_PACK_BYTES:
            raise WorkshopError(f"{file.name} is too large to be a pack of cards")
        scratch = Path(tempfile.mkdtemp(prefix="import-", dir=data_home()))
        try:
            folder = scratch / slug
            folder.mkdir()
            for m in members:
                rel = PurePosixPath(m.filename).relative_to("cards")
                if ".." in rel.parts or rel.suffix not in (".yaml", ".yml"):
                    raise WorkshopError(f"{file.name} holds a file it should not: {m.filename}")
                target = folder.joinpath(*rel.parts)
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(zf.read(m))
            load_content(
                game.id,
                game.content_kinds,
                [str(folder)],
                validate=game.validate_content,
                drafts=True,
            )
            existing = [i for i in list_packs(game.id) if i.slug == slug]
            if existing and (existing[0].shipped or not replace):
                raise PackExists(
                    f"there is already a {game.title} pack called '{slug}': "
                    "import it under another name"
                    + ("" if existing[0].shipped else ", or replace it"),
                    not existing[0].shipped,
                )
            _write_yaml(
                folder / MANIFEST,
                {"game": game.id, "pack": as_name or str(manifest.get("name") or slug)},
            )
            dest = user_content_dir() / game.id / slug
            dest.parent.mkdir(parents=True, exist_ok=True)
            if existing:
                shutil.rmtree(dest)
            shutil.move(str(folder), str(dest))
        finally:
            shutil.rmtree(scratch, ignore_errors=True)
    return pack_info(game.id, slug)


def labels_pdf(game_id: str, slug: str, out: Path | None = None) -> tuple[Path, int]:
    """QR stickers for every card of the pack, as the `companion labels` command prints
    them; returns the PDF's path and how many labels it holds."""
    from vision.labels import labels_for, write_pdf

    game = get_game(game_id)
    info = pack_info(game_id, slug)
    if info.draft:
        raise WorkshopError(f"'{info.title}' still has problems: fix them before printing")
    content = load_content(game_id, game.content_kinds, [slug], validate=game.validate_content)
    labels = labels_for(game, content)
    if not labels:
        raise WorkshopError(f"'{info.title}' has no cards to print yet")
    out = Path(out) if out else exports_dir() / f"{game_id}-{slug}-labels.pdf"
    write_pdf(labels, out)
    return out, len(labels)
