"""Content packs: every error names the file, the line and the field."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from companion.content.pack import ContentError
from companion.content.yamlines import load_text
from companion.games import get_game, load_game_content

BROKEN = Path(__file__).resolve().parent.parent / "fixtures" / "broken-content"


def problems(pack: str, monkeypatch) -> list[str]:
    monkeypatch.setenv(
        "COMPANION_CONTENT_PATH", f"{os.environ['COMPANION_CONTENT_PATH']}{os.pathsep}{BROKEN}"
    )
    with pytest.raises(ContentError) as err:
        load_game_content(get_game("tiny"), [pack])
    return [str(p) for p in err.value.problems]


def test_demo_pack_loads():
    content = load_game_content(get_game("tiny"))
    assert content.get("tokens", "tiny/token/silver").value == 5
    assert content.sources["tiny/token/silver"].endswith("tokens.yaml:3")


def test_each_problem_has_file_line_and_field(monkeypatch):
    found = problems("broken", monkeypatch)
    assert len(found) == 6
    assert any(
        p.endswith("tokens.yaml:7: tokens[1].value (tiny/token/bad): Expected `int`, got `str`")
        for p in found
    ), found
    assert any(
        "tokens.yaml:10: tokens[2].valeu" in p and "unknown field `valeu`" in p for p in found
    ), found
    assert any("tokens.yaml:11:" in p and "must look like tiny/<kind>/<name>" in p for p in found)
    assert any("tokens.yaml:13:" in p and "defined twice (first at" in p for p in found), found
    assert any(
        "tokens.yaml:15:" in p and "tokens[5].value" in p and "missing required field" in p
        for p in found
    ), found
    assert any(
        "tokens.yaml:17: monsters: unknown kind for tiny (known kinds: tokens)" in p for p in found
    ), found


def test_unknown_pack_lists_the_packs_there_are(monkeypatch):
    assert problems("nosuch", monkeypatch) == [
        "content:1: content: no tiny content pack 'nosuch' (broken, demo)"
    ]


def test_yaml_syntax_error_has_the_line(tmp_path):
    bad = tmp_path / "tiny" / "odd"
    bad.mkdir(parents=True)
    (bad / "x.yaml").write_text("tokens:\n  - {id: tiny/token/a, value: 1\n")
    with pytest.raises(ContentError, match=r"x.yaml:\d+: not valid YAML"):
        load_game_content(get_game("tiny"), [str(bad)])


def test_inline_define_overrides_and_reports_its_own_lines():
    doc = load_text("tokens:\n  - {id: tiny/token/silver, value: 7}\n", "scenario.yaml")
    content = load_game_content(get_game("tiny"), ["demo"], doc)
    assert content.get("tokens", "tiny/token/silver").value == 7
    doc = load_text("tokens:\n  - id: tiny/token/x\n    value: nope\n", "scenario.yaml")
    with pytest.raises(ContentError, match="scenario.yaml:3: tokens\\[0\\].value"):
        load_game_content(get_game("tiny"), ["demo"], doc)
