"""The layers the design draws, enforced on every `make test`.

The contracts live in pyproject.toml ([tool.importlinter]) so `make lint` and this test
read the same ones; each runs through the real `lint-imports`.  A contract broken today is
marked xfail(strict=True) with what breaks it: the day it holds, the mark fails the suite
and is removed, so a layer once mended cannot quietly break again.
"""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parent.parent
CONFIG = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
LINT_IMPORTS = Path(sys.executable).parent / "lint-imports"

BROKEN_TODAY: dict[str, str] = {}

# What the rules may import besides the core, content and themselves: the standard library
# without files, clock, chance, threads or processes, msgspec for their structs, and the
# names of JSON's shapes (companion/jsontypes.py: type aliases, nothing that runs).
IMPURE_STDLIB = {
    "asyncio", "datetime", "glob", "io", "os", "pathlib", "random", "secrets", "shutil",
    "socket", "sqlite3", "subprocess", "sys", "tempfile", "threading", "time", "uuid",
}  # fmt: skip
RULES_MAY_IMPORT = (set(sys.stdlib_module_names) - IMPURE_STDLIB) | {
    "__future__", "msgspec", "companion.jsontypes",
}  # fmt: skip
RULES_PACKAGES = ("companion.core", "companion.content", "companion.games")

pytestmark = pytest.mark.lint


def contract_params():
    for contract in CONFIG["contracts"]:
        marks = []
        if contract["id"] in BROKEN_TODAY:
            marks.append(pytest.mark.xfail(strict=True, reason=BROKEN_TODAY[contract["id"]]))
        yield pytest.param(contract["id"], id=contract["id"], marks=marks)


@pytest.mark.parametrize("contract", list(contract_params()))
def test_layer_contract_holds(contract):
    done = subprocess.run(
        [str(LINT_IMPORTS), "--contract", contract, "--no-cache"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert "Contracts: 1 kept, 0 broken." in done.stdout, done.stdout + done.stderr
    assert done.returncode == 0, done.stdout + done.stderr


def test_every_broken_contract_named_here_exists():
    ids = {contract["id"] for contract in CONFIG["contracts"]}
    assert set(BROKEN_TODAY) <= ids


def test_the_rules_import_only_core_content_the_pure_stdlib_and_msgspec():
    graph = grimp.build_graph(*CONFIG["root_packages"], include_external_packages=True)
    strays = []
    for module in sorted(graph.find_descendants("companion.games") | {"companion.games"}):
        for imported in sorted(graph.find_modules_directly_imported_by(module)):
            inside = imported.startswith(tuple(f"{p}." for p in RULES_PACKAGES))
            if not (inside or imported in RULES_PACKAGES or imported in RULES_MAY_IMPORT):
                strays.append(f"{module} imports {imported}")
    assert not strays, "\n".join(strays)


# The modules of a game the screens and the host may import: its GAME and its view module.
SCREEN_DOORS = {"game", "view"}


def test_the_screens_contract_closes_every_other_module_of_every_game():
    """`screens-reach-games` lists the forbidden modules by name (import-linter has no
    "all but"): a module added to a game and missing from the list would be open to the
    screens, so the list is checked against the games as they are."""
    contract = next(c for c in CONFIG["contracts"] if c["id"] == "screens-reach-games")
    listed = {m.rsplit(".", 1)[1] for m in contract["forbidden_modules"]}
    graph = grimp.build_graph("companion")
    games = {m for m in graph.find_children("companion.games") if graph.find_children(m)}
    modules = {m.rsplit(".", 1)[1] for game in games for m in graph.find_children(game)}
    assert games and modules - SCREEN_DOORS - listed == set()
    assert listed - modules == set()  # a module gone from every game goes from the list too
    assert all(m.startswith("companion.games.*.") for m in contract["forbidden_modules"])


def test_screens_and_host_import_a_game_only_through_its_doors():
    """The same rule read straight off the import graph, whatever the list says."""
    graph = grimp.build_graph("companion")
    screens = set()
    for package in ("companion.ui", "companion.host"):
        screens |= graph.find_descendants(package) | {package}
    strays = []
    for module in sorted(screens):
        for imported in sorted(graph.find_modules_directly_imported_by(module)):
            parts = imported.split(".")
            inside = parts[:2] == ["companion", "games"] and len(parts) > 3
            if inside and parts[3] not in SCREEN_DOORS:
                strays.append(f"{module} imports {imported}")
    assert not strays, "\n".join(strays)
