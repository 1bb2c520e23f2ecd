"""YAML loading that remembers the line of every value.

Why: a player who mistypes a minion's attack must be told the file and line, not a
schema path.  PyYAML's composed nodes carry marks; we keep them in a path -> line map.
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


def load_text(text: str, filename: str) -> LinedDoc:
    loader = yaml.SafeLoader(text)
    try:
        node = loader.get_single_node()
        data = loader.construct_document(node) if node is not None else None
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
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except UnicodeDecodeError:
        raise YamlSyntaxError(str(path), 1, "not a text file (it is not UTF-8)") from None
    return load_text(text, str(path))


def path_text(path: Path) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out
