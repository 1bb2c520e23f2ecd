"""Photos of the table's own rolls kept to train on (companion/table/dice_photos.py): kept
in the training set's own layout, which the training code reads as it reads its real
photos; capped, deleted at one tap, and never at the cost of a roll or of a file outside
their folder."""

from __future__ import annotations

import json
import zipfile

import cv2
import numpy as np
import pytest

from companion.table import dice_photos
from companion.table.dice_photos import LABELS, DicePhotos
from training.dice.import_table import bring, main, split_of
from training.dice.realset import is_table, photos


def frame(shade: int = 90) -> np.ndarray:
    image = np.full((72, 128, 3), shade, np.uint8)
    cv2.rectangle(image, (10, 10), (30, 30), (250, 250, 250), -1)  # a die's place
    return image


def test_a_kept_photo_is_a_training_photo_with_the_faces_the_table_took(tmp_path) -> None:
    kept = DicePhotos(tmp_path / "dice-photos")
    assert kept.rows() == [] and kept.size() == 0  # nothing yet, no folder made
    name = kept.keep(frame(), [((10, 10, 30, 30), 6), ((40, 12, 60, 32), 2)], "model-a")
    assert name == "table_00001.jpg"
    # the training set's own reader reads it: a whole table, the dice where they were
    [(image_name, image, truth)] = photos(folder=kept.folder)
    assert image_name == name and image.shape == (72, 128, 3)
    assert truth == [((10, 10, 30, 30), 6), ((40, 12, 60, 32), 2)]
    [row] = kept.rows()
    assert (
        is_table(row) and row["model"] == "model-a" and (row["width"], row["height"]) == (128, 72)
    )
    assert kept.size() == sum(p.stat().st_size for p in kept.folder.iterdir())


def test_the_latest_photos_are_kept_and_the_oldest_deleted(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(dice_photos, "KEEP", 3)
    kept = DicePhotos(tmp_path)
    for shade in range(5):
        kept.keep(frame(shade * 10), [((1, 1, 9, 9), 1 + shade)], "m")
    assert [r["image"] for r in kept.rows()] == [f"table_0000{n}.jpg" for n in (3, 4, 5)]
    assert sorted(p.name for p in tmp_path.glob("*.jpg")) == [r["image"] for r in kept.rows()]
    assert [r["dice"][0]["face"] for r in kept.rows()] == [3, 4, 5]


def test_deleting_them_leaves_nothing_of_theirs(tmp_path) -> None:
    kept = DicePhotos(tmp_path)
    kept.keep(frame(), [((1, 1, 9, 9), 4)], "m")
    (tmp_path / "notes.txt").write_text("the group's own file")  # not the app's to delete
    (tmp_path / "labels.json.tmp").write_text("{")  # a write cut off by a crash
    kept.forget()
    assert kept.rows() == [] and sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]


def test_damaged_labels_lose_no_photo_and_delete_nothing_outside(tmp_path, monkeypatch) -> None:
    kept = DicePhotos(tmp_path / "dice-photos")
    kept.keep(frame(), [((1, 1, 9, 9), 4)], "m")
    (kept.folder / LABELS).write_text("{not json")
    assert kept.rows() == []
    # the next photo is written beside the one whose labels were lost, not over it
    assert kept.keep(frame(), [((1, 1, 9, 9), 5)], "m") == "table_00002.jpg"
    assert (kept.folder / "table_00001.jpg").is_file()
    # a row naming a file outside the folder is no photo of ours, even as the oldest
    outside = tmp_path / "precious.jpg"
    outside.write_bytes(b"not ours")
    record = json.loads((kept.folder / LABELS).read_text())
    record["photos"].insert(0, {"image": "../precious.jpg", "dice": [], "table": 1})
    (kept.folder / LABELS).write_text(json.dumps(record))
    monkeypatch.setattr(dice_photos, "KEEP", 1)
    kept.keep(frame(), [((1, 1, 9, 9), 6)], "m")
    assert outside.read_bytes() == b"not ours"
    assert [r["image"] for r in kept.rows()] == ["table_00003.jpg"]


def test_a_photo_that_cannot_be_written_costs_only_the_photo(tmp_path) -> None:
    blocked = tmp_path / "a-file"
    blocked.write_text("")  # where the folder should be
    assert DicePhotos(blocked).keep(frame(), [((1, 1, 9, 9), 4)], "m") is None


def test_a_tables_photos_join_the_training_set_split_in_time(tmp_path) -> None:
    kept = DicePhotos(tmp_path / "dice-photos")
    for face in range(1, 7):
        kept.keep(frame(face * 20), [((10, 10, 30, 30), face)], "m")
    into = tmp_path / "real"
    into.mkdir()
    (into / "labels.json").write_text(json.dumps({"photos": [{"image": "chase_1.jpg"}]}))
    main(["--photos", str(kept.folder), "--name", "ourtable", "--into", str(into)])
    rows = json.loads((into / "labels.json").read_text())["photos"]
    assert rows[0] == {"image": "chase_1.jpg"}  # the set's other photos stay
    ours = rows[1:]
    assert [r["split"] for r in ours] == ["train"] * 4 + ["calibration"] * 2
    assert [r["dice"][0]["face"] for r in ours] == [1, 2, 3, 4, 5, 6]
    assert {r["source"] for r in ours} == {"table ourtable"}  # a rig of its own
    assert all((into / r["image"]).read_bytes() == (kept.folder / r["image"][15:]).read_bytes()
               for r in ours)  # fmt: skip
    # imported again after more rolls: the table's earlier copy is replaced, not doubled
    kept.keep(frame(), [((10, 10, 30, 30), 3)], "m")
    assert len(bring(kept.folder, "ourtable", into)) == 7
    assert len(json.loads((into / "labels.json").read_text())["photos"]) == 8
    assert len(list(into.glob("table_ourtable_*.jpg"))) == 7
    assert [split_of(0, 1), split_of(1, 3), split_of(2, 3)] == ["train", "train", "calibration"]
    with pytest.raises(ValueError, match="small letters"):
        bring(kept.folder, "../x", into)
    with pytest.raises(ValueError, match="no kept photos"):
        bring(tmp_path / "none", "other", into)


def test_the_zip_a_tablet_shares_imports_as_its_folder_does(tmp_path) -> None:
    kept = DicePhotos(tmp_path / "dice-photos")
    for face in (2, 5, 6):
        kept.keep(frame(face * 30), [((10, 10, 30, 30), face)], "m")
    packed = tmp_path / "dice-photos.zip"
    with packed.open("wb") as out:
        assert kept.pack(out) == 3
    with zipfile.ZipFile(packed) as z:
        names = z.namelist()
        assert "dice-photos/README.txt" in names and "import_table" in z.read(names[1]).decode()
        assert json.loads(z.read("dice-photos/labels.json")) == {"photos": kept.rows()}
        for row in kept.rows():  # each photo's very bytes
            assert (
                z.read(f"dice-photos/{row['image']}") == (kept.folder / row["image"]).read_bytes()
            )
    from_folder, from_zip = tmp_path / "a", tmp_path / "b"
    for into in (from_folder, from_zip):
        into.mkdir()
    bring(kept.folder, "ourtable", from_folder)
    bring(packed, "ourtable", from_zip)
    assert (from_zip / "labels.json").read_text() == (from_folder / "labels.json").read_text()
    assert sorted(p.name for p in from_zip.iterdir()) == sorted(
        p.name for p in from_folder.iterdir()
    )


def test_a_zip_chooses_no_place_of_its_own_and_a_wrong_file_is_said(tmp_path) -> None:
    kept = DicePhotos(tmp_path / "dice-photos")
    kept.keep(frame(), [((10, 10, 30, 30), 4)], "m")
    packed = tmp_path / "odd.zip"
    with zipfile.ZipFile(packed, "w") as z:
        z.writestr("dice-photos/labels.json", (kept.folder / LABELS).read_text())
        z.write(kept.folder / "table_00001.jpg", "dice-photos/table_00001.jpg")
        z.writestr("../../table_00003.jpg", b"x")  # names that would leave the folder
        z.writestr("dice-photos/../table_00009.jpg", b"x")
        z.writestr("other/table_00002.jpg", b"x")
    into = tmp_path / "real"
    into.mkdir()
    assert [r["image"] for r in bring(packed, "ourtable", into)] == [
        "table_ourtable_table_00001.jpg"
    ]
    assert not (tmp_path.parent / "table_00003.jpg").exists()
    assert sorted(p.name for p in into.iterdir()) == [
        "labels.json",
        "table_ourtable_table_00001.jpg",
    ]
    not_zip = tmp_path / "photo.jpg"
    not_zip.write_bytes(b"\xff\xd8 not a zip")
    with pytest.raises(ValueError, match="not the tablet's zip of dice photos"):
        bring(not_zip, "ourtable", into)
