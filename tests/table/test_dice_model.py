"""Which model reads the camera's dice (companion/table/dice_model.py): the table's own,
trained on its photos, where its files are in the data home and load; else the one shipped
with the app, with the reason in words.  The readers are the real ones, on a real frame."""

from __future__ import annotations

from companion.table.dice_model import OWN, ModelChoice
from tests.ui.dice_frames import sure_frame
from tests.vision.dice_models import copy_models, edit_record
from vision.dice.camera import ReaderLock
from vision.dice.reader import DiceReader


def own_model(home, face_threshold: float):
    """The shipped model's files under another rule: a model of the table's own."""
    folder = copy_models(home / OWN)
    edit_record(folder, face_threshold=face_threshold)
    return folder


def test_without_a_model_of_its_own_the_shipped_one_reads(tmp_path) -> None:
    choice = ModelChoice(lambda: tmp_path)
    reader = ReaderLock(choice.reader)
    reader.read(sure_frame().image)
    assert reader.signature == DiceReader().signature
    assert choice.words() == (
        "The camera reads with the model that came with the app. A model trained on your own "
        f"photos reads instead, from the app's next start, once its files are in "
        f"{tmp_path / OWN} (sent from a computer through Share the photos, or copied there)."
    )
    # its files put in place while the app runs: the loaded model reads until a restart
    own_model(tmp_path, face_threshold=0.0)
    assert reader.signature == DiceReader().signature
    assert choice.words() == (
        f"Your own model, in {tmp_path / OWN}, reads the camera's dice from the app's next start."
    )


def test_the_tables_own_model_reads_once_its_files_are_in_place(tmp_path) -> None:
    folder = own_model(tmp_path, face_threshold=0.0)  # this one answers every die it finds
    choice = ModelChoice(lambda: tmp_path)
    reader = ReaderLock(choice.reader)
    assert choice.words() == (
        f"Your own model, in {folder}, reads the camera's dice from the camera's first read."
    )
    frame = sure_frame().image
    dice = reader.read(frame)
    assert reader.signature == DiceReader(folder).signature != DiceReader().signature
    assert all(d.face is not None for d in dice)
    assert choice.words() == f"The camera reads with your own model, from {folder}."


def test_an_own_model_that_cannot_load_leaves_the_shipped_one_reading(tmp_path) -> None:
    folder = tmp_path / OWN
    folder.mkdir()
    (folder / "dice_faces.onnx").write_bytes(b"half a copy")  # the rest never copied
    choice = ModelChoice(lambda: tmp_path)
    reader = ReaderLock(choice.reader)
    assert len(reader.read(sure_frame().image)) == len(sure_frame().faces)  # dice still read
    assert reader.signature == DiceReader().signature
    words = choice.words()
    assert words.startswith(f"Your own model in {folder} could not be loaded: ")
    assert "dice_detector.json is missing" in words
    assert words.endswith(". The camera reads with the model that came with the app.")
