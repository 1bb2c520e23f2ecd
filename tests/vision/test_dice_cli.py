"""`companion dice read IMAGE_OR_DIR... --json`: one JSON list, one entry per photo, with
the issue's exact shape; bad input refused in words with exit code 2 and nothing printed."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from companion.cli import main
from tests.vision.dice_models import copy_models, edit_record
from training.dice.synth import Config, render

CFG = Config(min_dice=2, max_dice=5, sizes=((640, 480),))


@pytest.fixture(scope="module")
def shots(tmp_path_factory):
    folder = tmp_path_factory.mktemp("shots")
    for i in range(2):
        scene = render(np.random.default_rng([78, i]), CFG)
        cv2.imwrite(str(folder / f"roll{i}.png"), scene.image)
    return folder


def test_json_shape_one_entry_per_photo(shots, capsys) -> None:
    lone = shots / "roll1.png"
    assert main(["dice", "read", str(shots), str(lone), "--json", "--threshold", "0"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [e["image"] for e in out] == [str(shots / "roll0.png"), str(lone), str(lone)]
    assert out[1] == out[2]
    h, w = cv2.imread(str(lone)).shape[:2]
    assert any(e["dice"] for e in out)
    assert any(d["face"] is not None for e in out for d in e["dice"])
    for entry in out:
        assert set(entry) == {"image", "dice"}
        for die in entry["dice"]:
            assert set(die) == {"box", "face", "die", "confidence"}
            x0, y0, x1, y1 = die["box"]
            assert all(isinstance(v, int) for v in die["box"])
            assert 0 <= x0 < x1 <= w and 0 <= y0 < y1 <= h
            assert die["face"] is None or die["face"] in range(1, 7)
            assert die["die"] == "d6"
            assert 0.0 <= die["confidence"] <= 1.0


def test_unsure_faces_are_null(shots, capsys) -> None:
    assert main(["dice", "read", str(shots / "roll0.png"), "--json", "--threshold", "1.01"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out[0]["dice"] and all(d["face"] is None for d in out[0]["dice"])


def test_a_file_that_is_not_a_photo_is_refused(shots, tmp_path, capsys) -> None:
    bad = tmp_path / "notes.jpg"
    bad.write_text("tonight: Kradia", encoding="utf-8")
    assert main(["dice", "read", str(shots), str(bad), "--json"]) == 2
    err = capsys.readouterr()
    assert err.out == ""
    assert "notes.jpg is not a photo" in err.err


def test_a_missing_path_or_empty_folder_is_refused(tmp_path, capsys) -> None:
    assert main(["dice", "read", str(tmp_path / "gone.jpg"), "--json"]) == 2
    assert "gone.jpg: no such photo or folder" in capsys.readouterr().err
    assert main(["dice", "read", str(tmp_path), "--json"]) == 2
    assert "holds no photos" in capsys.readouterr().err


def test_a_missing_or_damaged_model_is_refused(shots, tmp_path, capsys) -> None:
    copy_models(tmp_path)
    (tmp_path / "dice_detector.onnx").write_bytes(b"\x08\x07garbage")
    assert main(["dice", "read", str(shots), "--json", "--models", str(tmp_path)]) == 2
    err = capsys.readouterr()
    assert err.out == "" and "dice_detector.onnx is damaged" in err.err
    (tmp_path / "dice_detector.onnx").unlink()
    assert main(["dice", "read", str(shots), "--json", "--models", str(tmp_path)]) == 2
    assert "dice_detector.onnx is missing" in capsys.readouterr().err


def test_the_tables_own_model_reads_where_it_has_one(shots, tmp_path, monkeypatch, capsys) -> None:
    """As the camera does (companion/table/dice_model.py): the table's own model where its
    files are in the data home, the shipped one (said on stderr) where they do not load."""
    monkeypatch.setenv("COMPANION_HOME", str(tmp_path))
    assert main(["dice", "read", str(shots), "--json"]) == 0
    shipped = json.loads(capsys.readouterr().out)
    own = copy_models(tmp_path / "dice-model")
    edit_record(own, face_threshold=0.0)  # this one answers every die it finds
    assert main(["dice", "read", str(shots), "--json"]) == 0
    read = json.loads(capsys.readouterr().out)
    assert all(d["face"] is not None for photo in read for d in photo["dice"])
    assert any(d["face"] is None for photo in shipped for d in photo["dice"])  # it differs
    (own / "dice_detector.onnx").unlink()  # half a copy
    assert main(["dice", "read", str(shots), "--json"]) == 0
    out = capsys.readouterr()
    assert json.loads(out.out) == shipped
    assert out.err.startswith(f"Your own model in {own} could not be loaded: ")
