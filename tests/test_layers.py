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
# without files, clock, chance, threads or processes, and msgspec for their structs.
IMPURE_STDLIB = {
    "asyncio", "datetime", "glob", "io", "os", "pathlib", "random", "secrets", "shutil",
    "socket", "sqlite3", "subprocess", "sys", "tempfile", "threading", "time", "uuid",
}  # fmt: skip
RULES_MAY_IMPORT = (set(sys.stdlib_module_names) - IMPURE_STDLIB) | {"__future__", "msgspec"}
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
