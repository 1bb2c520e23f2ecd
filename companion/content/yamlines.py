"""YAML loading that remembers the line of every value.

Why: a player who mistypes a minion's attack must be told the file and line, not a
schema path.  PyYAML's composed nodes carry marks; we keep them in a path -> line map.

Packs, set-ups, scenarios and imported saves come from anyone, so every document is
bounded before it is built: its size, its depth, how many values it holds once aliases
are expanded (an "alias bomb" is a few lines that expand to billions), aliases that refer
to themselves, and integers too long to read.  Each limit is far above any real file
and is refused with the line where it is crossed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import yaml

Path = tuple[str | int, ...]


class YamlSyntaxError(ValueError):
    def __init__(self, filename: str, line: int, message: str) -> None:
        super().__init__(f"{filename}:{line}: {message}")
        self.filename = filename
        self.line = line


@dataclass
class LinedDoc:
    """A parsed YAML document and the 1-based line of each path inside it."""

    filename: str
    data: Any
    lines: dict[Path, int] = field(default_factory=dict)

    def line_of(self, path: Path) -> int:
        """The line of `path`, or of its nearest ancestor that has one."""
        path = tuple(path)
        while path:
            if path in self.lines:
                return self.lines[path]
            path = path[:-1]
        return self.lines.get((), 1)

    def sub(self, path: Path) -> LinedDoc:
        """The part of the document under `path`, keeping its lines."""
        node = self.data
        for part in path:
            node = node[part]
        n = len(path)
        lines = {p[n:]: ln for p, ln in self.lines.items() if p[:n] == tuple(path)}
        return LinedDoc(self.filename, node, lines)


def _walk(node: yaml.Node, path: Path, lines: dict[Path, int]) -> None:
    lines[path] = node.start_mark.line + 1
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            k = key.value if isinstance(key, yaml.ScalarNode) else str(key)
            lines[path + (k,)] = key.start_mark.line + 1
            _walk(value, path + (k,), lines)
            lines[path + (k,)] = key.start_mark.line + 1
    elif isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            _walk(item, path + (i,), lines)


# One file: the largest shipped pack file is 8 KB; PyYAML reads ~100 KB a second here,
# so this also bounds the time a file can take.
MAX_BYTES = 512 * 1024
MAX_VALUES = 200_000  # values in a document with every alias expanded
MAX_DEPTH = 64
MAX_DIGITS = 1_000  # Python itself refuses integers over 4,300 digits, with a traceback
_INT = "tag:yaml.org,2002:int"


def _bounded(root: yaml.Node, filename: str) -> None:
    """Refuse a document too big, too deep or self-referring, before building it."""
    count = 0
    on_path: set[int] = set()
    stack: list[tuple[yaml.Node, int, bool]] = [(root, 1, False)]
    while stack:
        node, depth, leaving = stack.pop()
        if leaving:
            on_path.discard(id(node))
            continue
        line = node.start_mark.line + 1
        count += 1
        if count > MAX_VALUES:
            raise YamlSyntaxError(
                filename, line, f"holds more than {MAX_VALUES:,} values (are aliases repeated?)"
            )
        if depth > MAX_DEPTH:
            raise YamlSyntaxError(filename, line, f"is nested more than {MAX_DEPTH} levels deep")
        if isinstance(node, yaml.ScalarNode):
            if node.tag == _INT and len(node.value) > MAX_DIGITS:
                raise YamlSyntaxError(filename, line, f"a number is over {MAX_DIGITS} digits long")
            continue
        if id(node) in on_path:
            raise YamlSyntaxError(filename, line, "an alias refers to the value that holds it")
        on_path.add(id(node))
        stack.append((node, depth, True))
        if isinstance(node, yaml.MappingNode):
            children = [part for pair in node.value for part in pair]
        else:
            children = list(node.value)
        stack.extend((child, depth + 1, False) for child in children)


class _Loader(yaml.SafeLoader):
    """PyYAML's safe loader, stopping at MAX_DEPTH while composing (it recurses per level)."""

    depth = 0
    filename = ""

    def compose_node(self, parent: yaml.Node | None, index: Any) -> yaml.Node | None:
        self.depth += 1
        try:
            if self.depth > MAX_DEPTH:
                line = self.peek_event().start_mark.line + 1  # type: ignore[no-untyped-call]
                raise YamlSyntaxError(
                    self.filename, line, f"is nested more than {MAX_DEPTH} levels deep"
                )
            return super().compose_node(parent, index)
        finally:
            self.depth -= 1


def load_text(text: str, filename: str) -> LinedDoc:
    if len(text) > MAX_BYTES:
        raise YamlSyntaxError(
            filename, 1, f"is too large ({len(text) // 1024:,} KB; at most {MAX_BYTES // 1024} KB)"
        )
    loader = _Loader(text)
    loader.filename = filename
    try:
        node = loader.get_single_node()
        if node is not None:
            _bounded(node, filename)
        data = loader.construct_document(node) if node is not None else None
    except RecursionError:
        raise YamlSyntaxError(filename, 1, f"is nested more than {MAX_DEPTH} levels deep") from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else 1
        raise YamlSyntaxError(filename, line, f"not valid YAML: {exc.problem}") from None
    except yaml.YAMLError as exc:
        raise YamlSyntaxError(filename, 1, f"not valid YAML: {exc}") from None
    finally:
        loader.dispose()
    lines: dict[Path, int] = {}
    if node is not None:
        _walk(node, (), lines)
    return LinedDoc(filename, data, lines)


def load_file(path: str) -> LinedDoc:
    """A YAML file, or YamlSyntaxError in words (missing, a folder, unreadable, too big)."""
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read(MAX_BYTES + 1)
    except UnicodeDecodeError:
        raise YamlSyntaxError(str(path), 1, "not a text file (it is not UTF-8)") from None
    except FileNotFoundError:
        raise YamlSyntaxError(str(path), 1, "no such file") from None
    except IsADirectoryError:
        raise YamlSyntaxError(str(path), 1, "is a folder, not a YAML file") from None
    except OSError as exc:
        raise YamlSyntaxError(str(path), 1, f"cannot be read ({exc.strerror})") from None
    return load_text(text, str(path))


def path_text(path: Path) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out
