"""Untrusted packs, set-ups, scenarios and saves are bounded (issue 17, finding 6).

Every hostile document is refused with a clear error in a bounded time and memory: an
alias bomb, a self-referring alias, nesting too deep, an integer too long to read, a file
or a pack too large.  An imported save names only installed packs, and no export writes
over a file without --force, nor ever over a session.
"""

from __future__ import annotations

import json
import time

import pytest

from companion.content.yamlines import YamlSyntaxError, load_text
from companion.core.library import Library
from companion.core.store import SessionFileError
from companion.core.transfer import _digest, export_session, import_session
from companion.scenario.file import ScenarioInvalid, load_setup_file, parse
from tests.core.helpers import tiny_session
from tests.core.test_scenario_runner import companion

BOMB = 'a: &a ["x","x","x","x","x","x","x","x","x"]\n' + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [" + ",".join([f"*{chr(97 + i)}"] * 9) + "]\n" for i in range(9)
)
HOSTILE = {
    "alias bomb": (BOMB, "more than 200,000 values"),
    "self-referring list": ("a: &a [1, *a]\n", "refers to the value that holds it"),
    "self-referring map": ("a: &a {b: *a}\n", "refers to the value that holds it"),
    "deep flow": ("[" * 20000 + "]" * 20000, "nested more than 64 levels"),
    "deep block": ("".join(" " * i + "a:\n" for i in range(100)) + " " * 100 + "1\n", "nested"),
    "long integer": ("n: " + "9" * 5000 + "\n", "over 1000 digits"),
    "too large": ("a: " + "x" * (600 * 1024) + "\n", "too large"),
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_yaml_is_refused_quickly_in_words(name):
    text, words = HOSTILE[name]
    started = time.monotonic()
    with pytest.raises(YamlSyntaxError, match=words):
        load_text(text, "hostile.yaml")
    assert time.monotonic() - started < 10


@pytest.mark.parametrize("name", ["alias bomb", "self-referring list", "long integer"])
def test_hostile_scenario_and_setup_files_are_refused(tmp_path, name):
    text, words = HOSTILE[name]
    f = tmp_path / "s.yaml"
    f.write_text(
        "game: tiny\nsetup: {}\nsteps:\n  - do: add\ndefine:\n  " + text.replace("\n", "\n  ")
    )
    with pytest.raises(ScenarioInvalid, match=words):
        parse(f)
    with pytest.raises(ScenarioInvalid, match=words):
        load_setup_file(f)


def test_a_pack_too_large_is_refused(tmp_path, monkeypatch):
    pack = tmp_path / "tiny" / "huge"
    pack.mkdir(parents=True)
    for i in range(5):
        items = "".join(f"  - id: tiny/tokens/t{i}-{n}\n    value: {n}\n" for n in range(9000))
        (pack / f"p{i}.yaml").write_text("tokens:\n" + items)
    monkeypatch.setenv("COMPANION_CONTENT_PATH", str(tmp_path))
    run = companion("new", "tiny", "--content", "huge")
    assert run.returncode == 2 and "Traceback" not in run.stderr
    assert "pack 'huge' is too large" in run.stderr


def _export(tmp_path):
    s = tiny_session(tmp_path)
    s.do("add", {"n": 2})
    s.close()
    return export_session(s.path, tmp_path / "save.tcsave")


def _rewrite(path, change) -> None:
    doc = json.loads(path.read_text())
    change(doc)
    doc["sha256"] = _digest(doc["meta"], doc["events"])  # anyone can: it is not a signature
    path.write_text(json.dumps(doc))


def test_an_imported_save_may_name_only_installed_packs(tmp_path):
    out = _export(tmp_path)
    lib = Library(tmp_path / "lib")
    for packs in (["/usr"], ["../../etc"], ["nowhere"], "demo", [3]):
        _rewrite(out, lambda d, p=packs: d["meta"].__setitem__("packs", p))
        with pytest.raises(SessionFileError) as err:
            import_session(out, lib)
        assert "save.tcsave" in str(err.value)
        assert lib.list() == []


def test_an_alias_bomb_in_an_imported_save_is_refused(tmp_path):
    out = _export(tmp_path)
    _rewrite(out, lambda d: d["meta"].__setitem__("define", BOMB))
    lib = Library(tmp_path / "lib")
    started = time.monotonic()
    with pytest.raises(YamlSyntaxError, match="more than 200,000 values"):
        import_session(out, lib)
    assert time.monotonic() - started < 10
    assert lib.list() == []


def test_import_errors_name_the_file_chosen_not_a_scratch_file(tmp_path):
    out = _export(tmp_path)
    _rewrite(out, lambda d: d["events"][1].__setitem__(2, "NoSuchEvent"))
    with pytest.raises(SessionFileError) as err:
        import_session(out, Library(tmp_path / "lib"))
    assert str(err.value).startswith("save.tcsave:")
    assert "importing" not in str(err.value) and "tmp" not in str(err.value)


def test_exports_never_overwrite_without_force_and_never_a_session(tmp_path):
    sid = companion("new", "tiny", "--name", "keep").stdout.strip()
    assert companion("do", sid, "add", "--with", '{"n": 4}').returncode == 0
    target = tmp_path / "out.tcsave"
    target.write_text("precious")
    for args in (["export", sid, "-o", str(target)], ["export-scenario", sid, "-o", str(target)]):
        run = companion("session", *args)
        assert run.returncode == 2 and "already exists; add --force" in run.stderr
        assert target.read_text() == "precious"
        assert companion("session", *args, "--force").returncode == 0
        target.write_text("precious")
    live = Library().path_for(sid)
    for args in (["export", sid, "-o", str(live)], ["export-scenario", sid, "-o", str(live)]):
        run = companion("session", *args, "--force")
        assert run.returncode == 2 and "is a session file; it is never written over" in run.stderr
    assert json.loads(companion("state", "--json", sid).stdout)["score"] == 4
