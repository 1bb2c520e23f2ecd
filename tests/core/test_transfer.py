"""Export, import and export-scenario."""

from __future__ import annotations

import json

import pytest

from companion.core.library import Library
from companion.core.store import SessionDamaged, SessionTooNew
from companion.core.transfer import export_scenario, export_session, import_session
from companion.games import get_game
from companion.scenario.runner import run_file


def _session(lib):
    s = lib.new(get_game("tiny"))
    s.do("add", {"n": 2})
    s.do("roll", {"count": 1})
    s.answer([6])
    s.answer([3])
    s.do("draw")
    s.answer("tiny/token/copper")
    s.correct("names.b", 4)
    s.do("add", {"n": 9})
    s.undo()
    return s


def test_export_then_import_gives_the_same_game(tmp_path):
    lib = Library(tmp_path / "a")
    s = _session(lib)
    out = export_session(s.path, tmp_path / "save.tcsave")
    other = Library(tmp_path / "b")
    new_id = import_session(out, other)
    imported = other.open(new_id)
    assert imported.to_json() == s.to_json()
    imported.redo()  # the undone command travelled too
    assert imported.to_json()["score"] == s.to_json()["score"] + 9


def test_tampered_export_is_refused_and_nothing_is_written(tmp_path):
    lib = Library(tmp_path / "a")
    out = export_session(_session(lib).path, tmp_path / "save.tcsave")
    doc = json.loads(out.read_text())
    doc["events"][1][3]["n"] = 200
    out.write_text(json.dumps(doc))
    other = Library(tmp_path / "b")
    with pytest.raises(SessionDamaged, match="do not match its checksum"):
        import_session(out, other)
    assert list((tmp_path / "b").iterdir()) == []


def test_cut_short_and_newer_exports_are_refused(tmp_path):
    lib = Library(tmp_path / "a")
    out = export_session(_session(lib).path, tmp_path / "save.tcsave")
    text = out.read_text()
    out.write_text(text[: len(text) // 2])
    with pytest.raises(SessionDamaged, match="cut short"):
        import_session(out, Library(tmp_path / "b"))
    doc = json.loads(text)
    doc["version"] = 99
    out.write_text(json.dumps(doc))
    with pytest.raises(SessionTooNew, match="newer Table Companion"):
        import_session(out, Library(tmp_path / "b"))


def test_export_scenario_replays_to_the_same_state(tmp_path):
    lib = Library(tmp_path / "a")
    s = _session(lib)
    scenario = tmp_path / "played.yaml"
    scenario.write_text(export_scenario(s))
    outcome = run_file(scenario)
    assert outcome.passed, outcome.failures or outcome.invalid
    text = scenario.read_text()
    assert "dice: [6, 3]" in text and "tiny/token/copper" in text
    assert "n: 9" not in text  # the undone command is not part of the game


def test_export_scenario_leaves_out_a_command_still_waiting(tmp_path):
    lib = Library(tmp_path / "a")
    s = lib.new(get_game("tiny"))
    s.do("add", {"n": 1})
    s.do("roll", {"count": 2})
    text = export_scenario(s)
    assert "left out: 'roll' was still waiting" in text
    scenario = tmp_path / "x.yaml"
    scenario.write_text(text)
    assert run_file(scenario).passed
