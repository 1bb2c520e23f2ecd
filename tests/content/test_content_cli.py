"""`companion content new | list | export | import` through the real command line."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest


@pytest.fixture
def cli(home):
    def run(*args: str) -> subprocess.CompletedProcess:
        env = {**os.environ, "COMPANION_HOME": str(home)}
        return subprocess.run(
            [sys.executable, "-m", "companion", *args],
            capture_output=True,
            text=True,
            env=env,
            timeout=120,
        )

    return run


def test_new_list_export_import_and_play(cli, home, tmp_path):
    made = cli("content", "new", "direwild", "Our Direwild", "--copy", "demo")
    assert made.returncode == 0 and "made direwild pack 'our-direwild'" in made.stdout
    listing = cli("content", "list", "direwild").stdout
    assert "our-direwild" in listing and "yours" in listing and "DRAFT" not in listing
    shared = tmp_path / "ours.pack.zip"
    assert cli("content", "export", "direwild", "our-direwild", "-o", str(shared)).returncode == 0
    again = cli("content", "import", str(shared))
    assert again.returncode == 2 and "already a Direwild pack called 'our-direwild'" in again.stderr
    other = cli("content", "import", str(shared), "--as", "Friday Night")
    assert other.returncode == 0 and "'friday-night'" in other.stdout
    assert "Friday Night" in cli("content", "list").stdout
    started = cli("new", "direwild", "--content", "friday-night")
    assert started.returncode == 0, started.stderr


def test_a_draft_is_listed_as_such_and_refused_by_new(cli, home):
    assert cli("content", "new", "direwild", "Ours").returncode == 0
    (home / "content" / "direwild" / "ours" / "minions.yaml").write_text(
        "minions:\n  - {id: direwild/minion/a, level: 1, attack: x, hp: 3}\n"
    )
    (home / "content" / "direwild" / "ours" / "DRAFT").write_text("attack\n")
    assert "DRAFT" in cli("content", "list", "direwild").stdout
    run = cli("new", "direwild", "--content", "ours")
    assert run.returncode == 2 and "pack 'ours' is a draft" in run.stderr
    assert "Traceback" not in run.stderr


def test_refusals_in_words(cli, home, tmp_path):
    run = cli("content", "new", "direwild", "demo")
    assert run.returncode == 2 and "already a Direwild pack called 'demo'" in run.stderr
    run = cli("content", "export", "direwild", "nothing-here")
    assert run.returncode == 2 and "no Direwild pack called 'nothing-here'" in run.stderr
    junk = tmp_path / "junk.zip"
    junk.write_text("not a zip")
    run = cli("content", "import", str(junk))
    assert run.returncode == 2 and "not a shared pack" in run.stderr
