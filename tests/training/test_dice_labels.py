"""Reading the labelled synthetic photos of one folder or a mix of several
(training/dice/labels.py): each folder keeps its own limit and its own validation tenth, so
a mixed set validates on each look's photos in the same share."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from training.dice.labels import is_val, load_labels


def _folder(root: Path, name: str, count: int, on_disk: int | None = None) -> Path:
    """A synth-like folder of `count` labelled images, the first `on_disk` of them written."""
    folder = root / name
    (folder / "images").mkdir(parents=True)
    with open(folder / "labels.jsonl", "w", encoding="utf-8") as f:
        for i in range(count):
            image = f"images/{i:06d}.jpg"
            f.write(json.dumps({"image": image, "width": 8, "height": 8, "dice": []}) + "\n")
            if on_disk is None or i < on_disk:
                (folder / image).write_bytes(b"")
    return folder


def test_each_folder_keeps_its_limit_and_its_tenth(tmp_path: Path) -> None:
    old, new = _folder(tmp_path, "old", 30), _folder(tmp_path, "new", 25)
    rows = load_labels([old, new], 20)
    assert [Path(r["path"]).parent.parent.name for r in rows] == ["old"] * 20 + ["new"] * 20
    assert [Path(r["path"]).name for r in rows if is_val(r)] == ["000009.jpg", "000019.jpg"] * 2
    assert all(Path(r["path"]) == Path(r["path"]).parent.parent / r["image"] for r in rows)
    assert len(load_labels([old, new], None)) == 55
    assert load_labels(old, None) == load_labels([old], None)


def test_a_folder_still_being_written_is_read_so_far(tmp_path: Path) -> None:
    part = _folder(tmp_path, "part", 12, on_disk=7)
    with open(part / "labels.jsonl", "a", encoding="utf-8") as f:
        f.write('{"image": "images/000012.jpg"')  # a line cut short by the writer
    assert [r["image"] for r in load_labels(part, None)] == [
        f"images/{i:06d}.jpg" for i in range(7)
    ]


def test_calibrate_on_a_mix_reports_each_look_at_the_chosen_rule(tmp_path: Path) -> None:
    """The mixed calibration's record: the rule chosen on both looks, then each look at it,
    the looks' photos and dice adding up to the mix's, over the detector bars asked for."""
    from training.dice import calibrate, synth
    from vision.dice.reader import MODELS

    folders = [tmp_path / "old", tmp_path / "new"]
    for folder, look in zip(folders, ([], ["--real-look"]), strict=True):
        synth.main(["--out", str(folder), "--count", "20", "--seed", "1", "--max-dice", "4",
                    "--size", "320x240", "--quiet", *look])  # fmt: skip
    models = tmp_path / "models"
    shutil.copytree(MODELS, models)
    bars = ["0.5", "0.55"]
    calibrate.main(["--data", *map(str, folders), "--models", str(models), "--found-bars", *bars])
    record = json.loads((models / "dice_faces.json").read_text(encoding="utf-8"))
    cal = record["calibration"]
    looks = [cal[str(f)] for f in folders]
    assert cal["found_bars"] == [0.5, 0.55] and record["found_threshold"] in (0.0, 0.5, 0.55)
    assert [look["photos"] for look in looks] == [2, 2] and cal["photos"] == 4
    dice = sum(len(r["dice"]) for r in load_labels(folders, None) if is_val(r))
    assert cal["dice"] == dice
    right = sum(look["dice_right"] * len(r["dice"]) for f, look in zip(folders, looks, strict=True)
                for r in load_labels(f, None) if is_val(r))  # fmt: skip
    assert abs(right - cal["dice_right"] * dice) < 0.01 * dice


def test_real_calibration_photos_of_whole_tables_are_read_as_they_are(
    tmp_path: Path, capsys
) -> None:
    """A real calibration photo marked `"table": 1` (a whole table's photo) is read as it
    is, its boxes where they are; the figures at a rule given (`--at`) count each real
    source apart, and nothing is written."""
    import cv2
    import numpy as np

    from training.dice import calibrate, synth
    from training.dice.evaluate import Score
    from training.dice.synth import Config, render
    from vision.dice.reader import MODELS, DiceReader

    rendered = tmp_path / "rendered"
    synth.main(["--out", str(rendered), "--count", "10", "--seed", "1", "--max-dice", "3",
                "--size", "320x240", "--quiet"])  # fmt: skip
    real = tmp_path / "real"
    real.mkdir()
    scene = render(
        np.random.default_rng([77, 0]), Config(min_dice=3, max_dice=5, sizes=((960, 720),))
    )
    cv2.imwrite(str(real / "table.png"), scene.image)
    dice = [{"box": [int(v) for v in d.box], "face": d.face} for d in scene.dice]
    rows = [
        {"image": "table.png", "dice": dice, "table": 1, "source": "A", "split": "calibration"},
        {"image": "table.png", "dice": dice, "source": "B", "split": "train"},
    ]
    (real / "labels.json").write_text(json.dumps({"photos": rows}), encoding="utf-8")
    models = tmp_path / "models"
    shutil.copytree(MODELS, models)
    before = (models / "dice_faces.json").read_bytes()
    calibrate.main(["--data", str(rendered), "--models", str(models), "--real", str(real),
                    "--at", "0", "0"])  # fmt: skip
    figures = json.loads(capsys.readouterr().out)
    score = Score()
    reads = DiceReader(models, face_threshold=0.0).read(scene.image)
    score.add([(d.box, d.face) for d in reads], [(d.box, d.face) for d in scene.dice])
    assert figures["real"]["photos"] == 1 and set(figures["real"]) >= {"A"}
    assert "B" not in figures["real"]  # the training split is not calibration
    assert figures["real"]["A"] == {
        "dice": len(dice),
        "right": score.right,
        "answered": score.answered,
        "wrong": score.wrong,
    }
    assert score.right >= 2  # the photo's dice are read where their boxes say
    assert (models / "dice_faces.json").read_bytes() == before
