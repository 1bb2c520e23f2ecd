"""Every command block in the README and docs/ runs, so an example that stops working fails.

The convention (docs/design.md, "Writing the docs"): a fenced block with no language, or
`sh`, `shell`, `bash` or `console`, is a series of commands a reader can paste, and this
test runs every line of it, in order, in a scratch folder that holds the repository's
files (so `tests/scenarios/direwild` and `.venv/bin/companion` mean what they mean in a
clone) and a fresh COMPANION_HOME.  `companion` is the venv's own.  A block that cannot
run here (a synopsis with [optional] parts, `make run`, building an APK, flashing a
board) is fenced as `text`, which shows it and runs nothing.  `python` blocks must
compile and `yaml` blocks must parse.

Placeholders: GAME is each shipped game in turn; SESSION is a session of that game which
the test starts first with `companion new GAME` (the game's default set-up).  A line must
exit 0.
"""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
RUN_FENCES = {"", "sh", "shell", "bash", "console"}
SHOWN_ONLY = "text"
GAMES = ("direwild", "kradia", "hexplore")
FENCE = re.compile(r"^(\s*)(```+)\s*([\w+-]*)")
GAME_WORD = re.compile(r"\bGAME\b")
SESSION_WORD = re.compile(r"\bSESSION\b")
LINE_TIMEOUT = 180

# Docs whose examples other engineers are mending on their branches: their failing blocks
# are expected to fail until the lead merges the fix, then the entry goes (a block here
# that passes shows as XPASS in the summary).
BEING_FIXED: dict[str, str] = {}


@dataclass(frozen=True)
class Block:
    doc: Path
    line: int  # of the opening fence, 1-based
    fence: str
    text: str

    @property
    def where(self) -> str:
        return f"{self.doc.relative_to(ROOT)}:{self.line}"

    def commands(self) -> list[str]:
        """One entry per command: continuation lines joined, blank and comment lines dropped."""
        out: list[str] = []
        pending = ""
        for raw in self.text.splitlines():
            line = pending + raw
            if line.rstrip().endswith("\\"):
                pending = line.rstrip()[:-1] + " "
                continue
            pending = ""
            if line.strip() and not line.lstrip().startswith("#"):
                out.append(line.strip())
        return out

    def needs_game(self) -> bool:
        return bool(GAME_WORD.search(self.text) or SESSION_WORD.search(self.text))


def blocks_in(doc: Path) -> list[Block]:
    found: list[Block] = []
    lines = doc.read_text(encoding="utf-8").splitlines()
    i = 0
    while i < len(lines):
        opening = FENCE.match(lines[i])
        if not opening:
            i += 1
            continue
        indent, ticks, fence = opening.groups()
        body: list[str] = []
        j = i + 1
        while j < len(lines) and not lines[j].strip().startswith(ticks):
            body.append(lines[j][len(indent) :] if lines[j].startswith(indent) else lines[j])
            j += 1
        found.append(Block(doc, i + 1, fence.lower(), "\n".join(body)))
        i = j + 1
    return found


ALL_BLOCKS = [block for doc in DOCS for block in blocks_in(doc)]


def run_params():
    for block in ALL_BLOCKS:
        if block.fence not in RUN_FENCES:
            continue
        marks = []
        reason = BEING_FIXED.get(str(block.doc.relative_to(ROOT)))
        if reason:
            marks.append(pytest.mark.xfail(strict=False, reason=reason))
        games = GAMES if block.needs_game() else (None,)
        for game in games:
            name = f"{block.where}" + (f"[{game}]" if game else "")
            yield pytest.param(block, game, id=name, marks=marks)


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    """A folder that looks like a clone (the repository's files, linked) plus the venv."""
    here = tmp_path / "clone"
    here.mkdir()
    for entry in ROOT.iterdir():
        if entry.name not in {".git", ".venv", "artifacts"} and not entry.name.endswith("egg-info"):
            (here / entry.name).symlink_to(entry)
    (here / ".venv").symlink_to(Path(sys.prefix))
    return here


def user_env(home: Path) -> dict[str, str]:
    """What a reader's shell has: the venv's commands first, their own data folder, and
    none of the test suite's extras (the tiny test game, the fixtures' content)."""
    env = dict(os.environ)
    for extra in ("COMPANION_EXTRA_GAMES", "COMPANION_CONTENT_PATH"):
        env.pop(extra, None)
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    env["COMPANION_HOME"] = str(home)
    env["PYTHONPATH"] = str(ROOT)
    return env


def sh(command: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", "-o", "pipefail", "-c", command],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=LINE_TIMEOUT,
    )


def start_session(game: str, cwd: Path, env: dict[str, str]) -> str:
    """A session of `game` from its default set-up, as `companion new GAME` starts it."""
    done = sh(f"companion new {game}", cwd, env)
    assert done.returncode == 0, f"could not start a {game} session: {done.stderr}"
    return done.stdout.strip().splitlines()[-1]


@pytest.mark.parametrize(("block", "game"), list(run_params()))
def test_command_block_runs(block: Block, game: str | None, workspace: Path, tmp_path: Path):
    env = user_env(tmp_path / "home")
    commands = block.commands()
    assert commands, f"{block.where}: an empty command block (fence it as `text`?)"
    if game:
        session = start_session(game, workspace, env)
        commands = [SESSION_WORD.sub(session, GAME_WORD.sub(game, c)) for c in commands]
    for command in commands:
        done = sh(command, workspace, env)
        assert done.returncode == 0, (
            f"{block.where}: `{command}` exited {done.returncode}\n"
            f"--- stdout\n{done.stdout[-3000:]}\n--- stderr\n{done.stderr[-3000:]}"
        )


@pytest.mark.parametrize(
    "block", [b for b in ALL_BLOCKS if b.fence == "python"], ids=lambda b: b.where
)
def test_python_block_compiles(block: Block):
    compile(block.text, block.where, "exec", flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)


@pytest.mark.parametrize(
    "block", [b for b in ALL_BLOCKS if b.fence in {"yaml", "yml"}], ids=lambda b: b.where
)
def test_yaml_block_parses(block: Block):
    yaml.safe_load(block.text)


def test_every_block_is_run_shown_or_checked():
    """A new fence language must be placed on purpose: run, shown only, or checked."""
    placed = RUN_FENCES | {SHOWN_ONLY, "python", "yaml", "yml", "json", "kv", "mermaid"}
    strays = [f"{b.where} ```{b.fence}" for b in ALL_BLOCKS if b.fence not in placed]
    assert not strays, "\n".join(strays)


def test_being_fixed_names_real_docs():
    assert all((ROOT / doc).is_file() for doc in BEING_FIXED), BEING_FIXED


def test_the_docs_say_how_a_block_is_kept_from_running():
    design = (ROOT / "docs" / "design.md").read_text(encoding="utf-8")
    assert "```text" in design and "tests/test_docs.py" in design


def test_make_run_without_a_display_prints_commands_that_run(workspace: Path, tmp_path: Path):
    """`make run` with no display prints this script's advice; every command in it runs."""
    env = user_env(tmp_path / "home")
    advice = sh("bash scripts/no-display.sh .venv", workspace, env)
    assert advice.returncode == 0, advice.stderr
    commands = [
        line.split("   ")[0].strip()
        for line in advice.stdout.splitlines()
        if line.strip().startswith(".venv/bin/companion ")
    ]
    assert len(commands) >= 2, advice.stdout
    assert "xvfb-run" not in advice.stdout  # the set-up does not install it
    for command in commands:
        done = sh(command, workspace, env)
        assert done.returncode == 0, f"`{command}` exited {done.returncode}: {done.stderr}"
