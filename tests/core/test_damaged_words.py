"""Every refusal of a damaged file in a player's words (issue 26, part 4).

Files are damaged in every way a tablet meets them: cut short, a page zeroed, bytes
flipped, the header overwritten, the wrong magic, a text file, another program's
database, a folder, an empty file, a stray journal beside it, and a file the player may
not read.  Opening each (in the library, in the sessions list, and from the CLI) either
gives back the game exactly as saved or refuses with the file's name and a sentence a
player understands: never SQLite's own text, never a traceback.
"""

from __future__ import annotations

import os
import random
import shutil
import sqlite3
import stat
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest

from companion.core.library import Library
from companion.core.session import Session
from companion.core.store import SessionFileError
from tests.core.helpers import log_rows, tiny_session
from tests.core.test_scenario_runner import companion

# SQLite's own words, which no player should have to read
RAW = (
    "file is not a database",
    "malformed",
    "disk image",
    "sqlite",
    "unable to open",
    "no such table",
    "no such column",
    "*** in database",
    "btree",
    "rowid",
    "disk i/o error",
    "readonly database",
    "database is locked",
    "not an error",
    "out of memory",
    "tree page",
    "never used",
    "freelist",
    "2nd reference",
    "traceback",
    "errno",
)

Damage = Callable[[Path, bytes], object]


def _write(data: bytes) -> Damage:
    return lambda path, _orig: path.write_bytes(data)


def _cut(at: int) -> Damage:
    return lambda path, orig: path.write_bytes(orig[:at])


def _zero_page(n: int) -> Damage:
    def damage(path: Path, orig: bytes) -> None:
        data = bytearray(orig)
        data[n * 1024 : (n + 1) * 1024] = bytes(1024)
        path.write_bytes(bytes(data))

    return damage


def _flip(seed: int) -> Damage:
    def damage(path: Path, orig: bytes) -> None:
        rng = random.Random(seed)
        data = bytearray(orig)
        for _ in range(rng.randint(1, 40)):
            data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
        path.write_bytes(bytes(data))

    return damage


def _header(seed: int) -> Damage:
    def damage(path: Path, orig: bytes) -> None:
        rng = random.Random(seed)
        data = bytearray(orig)
        start = rng.randrange(16, 100)
        for i in range(start, min(100, start + rng.randint(1, 12))):
            data[i] = rng.randrange(256)
        path.write_bytes(bytes(data))

    return damage


def _folder(path: Path, _orig: bytes) -> None:
    path.mkdir()


def _foreign(path: Path, _orig: bytes) -> None:
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE songs (title TEXT)")
    db.commit()
    db.close()


def _foreign_log(path: Path, _orig: bytes) -> None:
    """Another program's database with a table called `log` of another shape."""
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE log (line TEXT)")
    db.execute("CREATE TABLE meta (k TEXT)")
    db.execute("PRAGMA application_id = 1413696848")  # ours, by chance or on purpose
    db.commit()
    db.close()


def _stray_journal(path: Path, orig: bytes) -> None:
    path.write_bytes(orig)
    Path(f"{path}-journal").write_bytes(os.urandom(3000))


def _stray_wal(path: Path, orig: bytes) -> None:
    path.write_bytes(orig)
    Path(f"{path}-wal").write_bytes(b"\x37\x7f\x06\x82" + os.urandom(5000))


def _damages(size: int) -> dict[str, Damage]:
    out: dict[str, Damage] = {
        "empty": _write(b""),
        "text": _write(b"hello, this is a shopping list\n" * 40),
        "wrong magic": lambda p, o: p.write_bytes(b"SQLite format 2\x00" + o[16:]),
        "magic only": _write(b"SQLite format 3\x00"),
        "zeros": _write(bytes(size)),
        "folder": _folder,
        "foreign": _foreign,
        "foreign log": _foreign_log,
        "stray journal": _stray_journal,
        "stray wal": _stray_wal,
    }
    for at in (50, 100, 512, 1024, 1500, 3000, size // 2, size - 1024, size - 1):
        out[f"cut at {at}"] = _cut(at)
    for n in range(size // 1024):
        out[f"page {n + 1} zeroed"] = _zero_page(n)
    for seed in range(12):
        out[f"flipped {seed}"] = _flip(seed)
        out[f"header {seed}"] = _header(seed)
    return out


@pytest.fixture(scope="module")
def saved(tmp_path_factory) -> tuple[bytes, list, dict]:
    folder = tmp_path_factory.mktemp("saved")
    s = tiny_session(folder)
    for i in range(60):
        if i % 7 == 3:
            s.do("roll")
            s.answer([1 + i % 5])
        else:
            s.do("add", {"n": 1 + i % 3})
    history, state = log_rows(s), s.to_json()
    s.close()
    return (folder / "t.session").read_bytes(), history, state


def _said_for_a_player(text: str, name: str) -> None:
    assert text.startswith(name), text
    lowered = text.lower()
    assert not [raw for raw in RAW if raw in lowered], text


def _check_open(path: Path, history: list, state: dict) -> str:
    try:
        with Session.open(path) as opened:
            assert (log_rows(opened), opened.to_json()) == (history, state)
        return "same"
    except SessionFileError as exc:
        _said_for_a_player(str(exc), path.name)
        return "refused"


def test_every_damaged_file_is_refused_in_words_by_the_library(saved, tmp_path):
    original, history, state = saved
    outcomes: dict[str, str] = {}
    for n, (kind, damage) in enumerate(_damages(len(original)).items()):
        folder = tmp_path / f"d{n}"
        folder.mkdir()
        path = folder / "t.session"
        damage(path, original)
        outcomes[kind] = _check_open(path, history, state)
        for info in Library(folder).list():
            if info.problem:
                _said_for_a_player(f"{info.path.name}: {info.problem}", info.path.name)
    assert outcomes["empty"] == outcomes["folder"] == outcomes["cut at 1500"] == "refused"
    print({k: v for k, v in outcomes.items() if v != "refused"})


@pytest.mark.parametrize(
    "kind",
    ["empty", "text", "folder", "foreign", "cut at 3000", "page 1 zeroed", "page 3 zeroed"]
    + ["header 3", "flipped 5"],
)
def test_the_cli_refuses_a_damaged_file_in_words(kind, saved, tmp_path):
    original, _history, _state = saved
    path = tmp_path / "t.session"
    _damages(len(original))[kind](path, original)
    for args in (("state", str(path)), ("session", "recover", str(path))):
        run = companion(*args)
        assert run.returncode in (0, 2), run.stderr
        if run.returncode == 2:
            _said_for_a_player(run.stderr.strip().removeprefix("companion: "), path.name)
        assert "Traceback" not in run.stderr


@pytest.mark.skipif(not shutil.which("setpriv"), reason="needs setpriv to drop root")
def test_a_file_the_player_may_not_read_is_said_in_words(saved):
    original, _history, _state = saved
    folder = Path(tempfile.mkdtemp(prefix="companion-perm-"))
    try:
        folder.chmod(0o755)
        path = folder / "t.session"
        path.write_bytes(original)
        path.chmod(0)
        script = (
            "import sys\n"
            "from companion.core.session import Session\n"
            "from companion.core.store import SessionFileError\n"
            "try:\n"
            f"    Session.open({str(path)!r})\n"
            "except SessionFileError as exc:\n"
            "    print(exc)\n"
        )
        env = {**os.environ, "HOME": str(folder)}
        cmd = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
        run = subprocess.run(
            [*cmd, sys.executable, "-c", script],
            capture_output=True,
            text=True,
            env=env,
            timeout=120,
            cwd=Path(__file__).resolve().parents[2],
        )
        assert run.returncode == 0, run.stderr
        assert "Traceback" not in run.stderr
        _said_for_a_player(run.stdout.strip(), path.name)
        assert "may not be read" in run.stdout or "permission" in run.stdout.lower()
    finally:
        path.chmod(stat.S_IRUSR | stat.S_IWUSR)
        shutil.rmtree(folder)
