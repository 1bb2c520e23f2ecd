"""Which rules wrote a snapshot: a fingerprint of the code the fold runs and the content.

Why: a snapshot is only a cache of the fold.  Trusting one because a hand-bumped version
string matches lets a changed handler give one state from the snapshot and another from
the log, so one save file would have two answers.  The fingerprint changes whenever any
source file the fold runs through changes (the game's package, the session core and every
module of the app they import, such as the content's reading of cards) or the loaded content
does, so a snapshot is used only by the rules that wrote it.  Files are named by their path
from the folder holding the app (two modules of one name in two packages are two files, and
the same code checked out anywhere gives the same fingerprint).
"""

from __future__ import annotations

import hashlib
import re
import sys
from functools import lru_cache
from pathlib import Path

import msgspec

from companion.content.pack import Content
from companion.core.game import Game

CORE_DIR = Path(__file__).resolve().parent
ROOT = CORE_DIR.parent.parent  # the folder holding the `companion` package
APP = "companion"

# import statements, read as text (about ten times faster than parsing each file, and a
# name matched inside a docstring only adds a file, never leaves one out)
FROM_IMPORT = re.compile(r"^[ \t]*from[ \t]+(\.*[\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^\n]*)", re.M)
PLAIN_IMPORT = re.compile(r"^[ \t]*import[ \t]+([\w.][\w., \t]*)", re.M)


def _game_files(game: Game) -> list[Path]:
    """The source files of the game's rules: its package, or its one module."""
    module = sys.modules[type(game).__module__]
    source = Path(module.__file__ or "").resolve()
    if source.parent.name == game.id:
        return sorted(source.parent.rglob("*.py"))
    return [source]


@lru_cache(maxsize=4)
def _app_modules(root: Path) -> dict[str, Path]:
    """Every module of the app by its dotted name (a package by its `__init__`), read from
    the folders once: a lookup per imported name, not a file system call."""
    modules: dict[str, Path] = {}
    for path in (root / APP).rglob("*.py"):
        parts = path.relative_to(root).with_suffix("").parts
        modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return modules


def _module_file(name: str) -> Path | None:
    """The app's source file for a dotted module name; None for a name outside the app or
    one that names no module (a class or function imported from one)."""
    return _app_modules(ROOT).get(name)


def _named(path: Path) -> Path:
    """The file's path from the folder holding its top package: the app's from `ROOT`, a
    game kept outside the app (a plug-in) from the folder holding its own package."""
    if path.is_relative_to(ROOT):
        return path.relative_to(ROOT)
    top = path.parent
    while (top / "__init__.py").is_file():
        top = top.parent
    return path.relative_to(top)


def _package_of(path: Path) -> list[str]:
    return list(_named(path).parts[:-1])


def _imported(path: Path) -> set[Path]:
    """The app's modules `path` imports (at the top or inside a function), with the
    packages they are in (whose `__init__` runs first)."""
    text = path.read_text(encoding="utf-8")
    names: list[str] = []
    for module, what in FROM_IMPORT.findall(text):
        dots = len(module) - len(module.lstrip("."))
        if dots:
            package = _package_of(path)
            package = package[: len(package) - (dots - 1)]
            module = ".".join([*package, module.lstrip(".")]).rstrip(".")
        names.append(module)
        # `from package import module`: every word is tried (an alias or a class names no
        # module, so it adds nothing)
        names += [f"{module}.{word}" for word in re.findall(r"\w+", what)]
    for listed in PLAIN_IMPORT.findall(text):
        names += [part.split(" as ")[0].strip() for part in listed.split(",")]
    found: set[Path] = set()
    for name in set(names):
        parts = name.split(".")
        for i in range(1, len(parts) + 1):
            module_file = _module_file(".".join(parts[:i]))
            if module_file is not None:
                found.add(module_file)
    return found


@lru_cache(maxsize=16)
def _fold_files(start: tuple[Path, ...]) -> tuple[Path, ...]:
    """`start` and every module of the app it imports, and they import, and so on."""
    seen: set[Path] = set()
    todo = list(start)
    while todo:
        path = todo.pop()
        if path not in seen:
            seen.add(path)
            todo += _imported(path) - seen
    return tuple(sorted(seen))


@lru_cache(maxsize=64)
def _hash_files(paths: tuple[Path, ...]) -> str:
    digest = hashlib.sha256()
    for path in paths:
        digest.update(_named(path).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def code_files(game: Game) -> tuple[Path, ...]:
    """Every source file the fold of `game` can run: its rules, the core, what they import."""
    return _fold_files(tuple(_game_files(game)) + tuple(sorted(CORE_DIR.glob("*.py"))))


def code_fingerprint(game: Game) -> str:
    return _hash_files(code_files(game))


def content_fingerprint(content: Content) -> str:
    return hashlib.sha256(msgspec.json.encode(content.items)).hexdigest()


def rules_fingerprint(game: Game, content: Content) -> str:
    """`<game>:<hash>`, stored beside each snapshot and compared on every open."""
    digest = hashlib.sha256(
        f"{type(game).__qualname__}|{code_fingerprint(game)}|{content_fingerprint(content)}".encode()
    )
    return f"{game.id}:{digest.hexdigest()[:32]}"
