"""Reading scenario files (see SCENARIOS.md) with the line of every step."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import yaml

from companion.content.yamlines import LinedDoc, YamlSyntaxError, load_file
from companion.jsontypes import JsonObject

TOP_KEYS = {"game", "content", "define", "setup", "steps", "title", "cites", "description"}
STEP_KEYS = {"do", "with", "dice", "cards", "refused", "expect", "note", "cites"}


class ScenarioInvalid(Exception):
    """The file itself is wrong (exit 2): says file:line and why."""

    def __init__(self, file: str, line: int, why: str) -> None:
        super().__init__(f"{file}:{line}: {why}")
        self.file, self.line, self.why = file, line, why


@dataclass
class Step:
    index: int
    line: int
    do: str | None = None
    args: dict[str, object] = field(default_factory=dict)
    dice: list[object] = field(default_factory=list)
    cards: list[object] = field(default_factory=list)
    refused: str | None = None
    expect: dict[str, object] | None = None


@dataclass
class Scenario:
    path: str
    game: str
    content: list[str]
    define: LinedDoc | None
    setup: dict[str, object]
    steps: list[Step]
    doc: LinedDoc
    title: str = ""

    @property
    def define_text(self) -> str | None:
        if self.define is None:
            return None
        return yaml.safe_dump(self.define.data, sort_keys=False)


def parse(path: Path | str) -> Scenario:
    path = str(path)
    try:
        doc = load_file(path)
    except YamlSyntaxError as exc:
        raise ScenarioInvalid(exc.filename, exc.line, str(exc).split(": ", 1)[1]) from None
    except OSError as exc:
        raise ScenarioInvalid(path, 1, f"cannot be read ({exc.strerror})") from None
    data = doc.data
    if not isinstance(data, dict):
        raise ScenarioInvalid(path, 1, "a scenario is a mapping with game, setup and steps")
    for key in data:
        if key not in TOP_KEYS:
            raise ScenarioInvalid(
                path,
                doc.line_of((key,)),
                f"unknown key '{key}' (allowed: {', '.join(sorted(TOP_KEYS))})",
            )
    game = data.get("game")
    if not isinstance(game, str):
        raise ScenarioInvalid(path, doc.line_of(("game",)), "'game' must name the game")
    content = data.get("content", ["demo"])
    if isinstance(content, str):
        content = [content]
    if not isinstance(content, list) or not all(isinstance(c, str) for c in content):
        raise ScenarioInvalid(path, doc.line_of(("content",)), "'content' is a list of pack names")
    setup = data.get("setup") or {}
    if not isinstance(setup, dict):
        raise ScenarioInvalid(path, doc.line_of(("setup",)), "'setup' must be a mapping")
    define = doc.sub(("define",)) if data.get("define") is not None else None
    raw_steps = data.get("steps") or []
    if not isinstance(raw_steps, list):
        raise ScenarioInvalid(path, doc.line_of(("steps",)), "'steps' must be a list")
    steps = [_step(doc, i, raw) for i, raw in enumerate(raw_steps)]
    return Scenario(path, game, content, define, setup, steps, doc, str(data.get("title", "")))


def _step(doc: LinedDoc, i: int, raw: object) -> Step:
    line = doc.line_of(("steps", i))
    if not isinstance(raw, dict):
        raise ScenarioInvalid(doc.filename, line, f"step {i + 1} must be a mapping")
    for key in raw:
        if key not in STEP_KEYS:
            raise ScenarioInvalid(
                doc.filename, doc.line_of(("steps", i, key)), f"step {i + 1}: unknown key '{key}'"
            )
    step = Step(index=i, line=line)
    if "expect" in raw:
        if "do" in raw:
            raise ScenarioInvalid(
                doc.filename, line, f"step {i + 1}: use 'do' and 'expect' in separate steps"
            )
        if not isinstance(raw["expect"], dict):
            raise ScenarioInvalid(
                doc.filename, line, f"step {i + 1}: 'expect' maps paths to values"
            )
        step.expect = raw["expect"]
        return step
    if not isinstance(raw.get("do"), str):
        raise ScenarioInvalid(doc.filename, line, f"step {i + 1} needs 'do: COMMAND' or 'expect'")
    step.do = raw["do"]
    args = raw.get("with") or {}
    if not isinstance(args, dict):
        raise ScenarioInvalid(
            doc.filename,
            doc.line_of(("steps", i, "with")),
            f"step {i + 1}: 'with' must be a mapping of arguments",
        )
    step.args = args
    for key in ("dice", "cards"):
        value = raw.get(key) or []
        if not isinstance(value, list):
            value = [value]
        setattr(step, key, list(value))
    if "refused" in raw:
        step.refused = str(raw["refused"])
    return step


def load_setup_file(path: Path) -> tuple[JsonObject, list[str] | None, str | None]:
    """Set-up options for `companion new --setup`: a scenario file or a bare mapping.

    Every mistake (missing, a folder, not YAML, not a mapping) is a ScenarioInvalid."""
    try:
        doc = load_file(str(path))
    except YamlSyntaxError as exc:
        raise ScenarioInvalid(exc.filename, exc.line, str(exc).split(": ", 1)[1]) from None
    data = doc.data or {}
    if not isinstance(data, dict):
        raise ScenarioInvalid(str(path), 1, "a set-up file is a mapping of options")
    if "setup" not in data and "game" not in data:
        return data, None, None
    setup = data.get("setup") or {}
    if not isinstance(setup, dict):
        raise ScenarioInvalid(str(path), doc.line_of(("setup",)), "'setup' is a mapping of options")
    content = data.get("content")
    if isinstance(content, str):
        content = [content]
    if content is not None and not (
        isinstance(content, list) and all(isinstance(c, str) for c in content)
    ):
        raise ScenarioInvalid(
            str(path), doc.line_of(("content",)), "'content' is a list of pack names"
        )
    define = data.get("define")
    return setup, content, yaml.safe_dump(define, sort_keys=False) if define else None
