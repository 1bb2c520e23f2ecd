"""The snapshot's fingerprint covers every file the fold runs, named by its path in the app
(issue 27: it hashed bare file names, and left out the content code the fold reads cards
through, so a change there kept trusting snapshots folded by the old code)."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.core import fingerprint
from companion.games import get_game


@pytest.mark.parametrize("game_id", ["direwild", "kradia", "hexplore"])
def test_the_fold_files_are_the_rules_the_core_and_what_they_import(game_id):
    files = {
        p.relative_to(fingerprint.ROOT).as_posix()
        for p in fingerprint.code_files(get_game(game_id))
    }
    assert f"companion/games/{game_id}/game.py" in files
    assert "companion/core/session.py" in files
    assert "companion/content/pack.py" in files  # the cards the rules read
    assert not [
        f for f in files if f.startswith(("companion/ui/", "companion/host/", "companion/cli/"))
    ]
    other_games = [f for f in files if f.startswith("companion/games/") and f"/{game_id}/" not in f]
    assert other_games == ["companion/games/__init__.py"]  # the package's, which runs first


def app(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


TREE = {
    "companion/__init__.py": "",
    "companion/core/__init__.py": "",
    "companion/core/fold.py": (
        "from companion.content.pack import Content\n"
        "from . import steps\n"
        "def later():\n    from companion.content import pack as p, words\n"
    ),
    "companion/core/steps.py": "import companion.paths as where\n",
    "companion/content/__init__.py": "",
    "companion/content/pack.py": "Content = dict\n",
    "companion/content/words.py": "",
    "companion/paths.py": "",
    "companion/ui/screen.py": "from companion.core import fold\n",
}


def fold_hash(root: Path, monkeypatch) -> tuple[set[str], str]:
    monkeypatch.setattr(fingerprint, "ROOT", root)
    files = fingerprint._fold_files((root / "companion/core/fold.py",))
    names = {p.relative_to(root).as_posix() for p in files}
    return names, fingerprint._hash_files(files)


def test_imports_are_followed_at_the_top_inside_functions_and_relative(tmp_path, monkeypatch):
    names, _ = fold_hash(app(tmp_path, TREE), monkeypatch)
    assert names == set(TREE) - {"companion/ui/screen.py"}


def test_the_same_code_anywhere_has_one_fingerprint_and_a_moved_file_another(tmp_path, monkeypatch):
    _, here = fold_hash(app(tmp_path / "a", TREE), monkeypatch)
    _, there = fold_hash(app(tmp_path / "b", TREE), monkeypatch)
    assert here == there
    moved = {
        **TREE,
        "companion/core/fold.py": TREE["companion/core/fold.py"].replace(
            "from . import steps", "from companion.content import steps"
        ),
    }
    moved["companion/content/steps.py"] = moved.pop("companion/core/steps.py")
    _, elsewhere = fold_hash(app(tmp_path / "c", moved), monkeypatch)
    assert elsewhere != here


def test_a_change_to_content_code_the_fold_imports_changes_it(tmp_path, monkeypatch):
    _, before = fold_hash(app(tmp_path / "a", TREE), monkeypatch)
    changed = {**TREE, "companion/content/pack.py": "Content = list\n"}
    _, after = fold_hash(app(tmp_path / "b", changed), monkeypatch)
    assert before != after
