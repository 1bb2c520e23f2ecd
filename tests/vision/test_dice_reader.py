"""The camera dice reader (vision/dice) with the shipped models, on rendered photos whose
faces are known (training/dice/synth.py, seed 77: never a training or benchmark seed)."""

from __future__ import annotations

import shutil

import cv2
import numpy as np
import pytest

from tests.vision.dice_models import copy_models, edit_record
from training.dice.evaluate import Score
from training.dice.synth import Config, render
from vision.dice.reader import MODELS, DiceModelError, DiceReader, UnreadableImage, load_image

SEED = 77
# What the shipped model truly reads on these 8 photos (35 dice), answering every die: 30
# right (86%), 33 found (94%); at its own unsure rule 20 answered, none wrong.  The floors
# catch a broken export, crop or decoding, not a small drift; figures on more photos:
# benchmarks/bench_dice_camera.py.
FLOOR_DICE_RIGHT = 0.75
FLOOR_FOUND = 0.88
FLOOR_ANSWERED = 15  # dice its rule answers on these photos
MOST_WRONG = 1  # answered and wrong on these photos (1% of 20 answers rounds to none or one)
CFG = Config(min_dice=2, max_dice=8, sizes=((960, 720),))


@pytest.fixture(scope="module")
def reader() -> DiceReader:
    return DiceReader()


@pytest.fixture(scope="module")
def photos() -> list:
    return [render(np.random.default_rng([SEED, i]), CFG) for i in range(8)]


def test_reads_rendered_dice_above_the_floor(photos) -> None:
    eager = DiceReader(face_threshold=0.0)
    score = Score()
    for scene in photos:
        reads = eager.read(scene.image)
        score.add([(d.box, d.face) for d in reads], [(d.box, d.face) for d in scene.dice])
        h, w = scene.image.shape[:2]
        for d in reads:
            x0, y0, x1, y1 = d.box
            assert 0 <= x0 < x1 <= w and 0 <= y0 < y1 <= h
            assert d.die == "d6" and 0.0 <= d.confidence <= 1.0
            assert d.face is None or 1 <= d.face <= 6
    assert score.dice >= 30
    assert score.figures()["dice_right"] >= FLOOR_DICE_RIGHT, score
    assert 1 - score.figures()["missed"] >= FLOOR_FOUND, score


def test_the_shipped_threshold_answers_few_wrong(reader, photos) -> None:
    """The model's own rule (training/dice/calibrate.py: at most 1% wrong among the dice
    answered on the validation photos) answers most dice and leaves doubtful ones to the
    table."""
    assert 0.0 < reader.face_threshold < 1.0
    score = Score()
    for scene in photos:
        reads = reader.read(scene.image)
        score.add([(d.box, d.face) for d in reads], [(d.box, d.face) for d in scene.dice])
        for d in reads:
            sure = d.confidence >= reader.face_threshold and d.found >= reader.found_threshold
            assert (d.face is not None) == sure
    assert score.answered >= FLOOR_ANSWERED and score.wrong <= MOST_WRONG, score


def test_a_find_the_detector_doubts_is_unsure(photos) -> None:
    """The detector's bar alone makes a die unsure: its box stays, its face goes."""
    scene = photos[0]
    eager = DiceReader(face_threshold=0.0).read(scene.image)
    doubted = DiceReader(face_threshold=0.0, found_threshold=1.01).read(scene.image)
    assert eager and [d.box for d in doubted] == [d.box for d in eager]
    assert all(d.face is None for d in doubted) and all(d.face is not None for d in eager)


def test_a_record_without_the_detectors_bar_still_loads(tmp_path) -> None:
    """Models calibrated before the detector's bar existed answer on confidence alone."""
    models = copy_models(tmp_path)
    record = edit_record(models, found_threshold=None)
    reader = DiceReader(models)
    assert reader.found_threshold == 0.0 and reader.face_threshold == record["face_threshold"]


def test_read_eight_ways_a_die_gets_the_same_answer_however_the_camera_turns(photos) -> None:
    """Eight views are every turn and mirror of the crop, so turning or mirroring the photo
    changes nothing; one view may change."""
    scene = photos[0]
    x0, y0, x1, y1 = scene.dice[0].box
    side = max(x1 - x0, y1 - y0)
    # The die alone, grown so its crop is the 48-pixel square itself: no resampling.
    cut = scene.image[y0 : y0 + side, x0 : x0 + side]
    image = np.ascontiguousarray(cv2.resize(cut, (40, 40), interpolation=cv2.INTER_AREA))
    image = cv2.copyMakeBorder(image, 4, 4, 4, 4, cv2.BORDER_REPLICATE)
    box = [(4.0, 4.0, 44.0, 44.0)]
    eight = DiceReader(views=8)
    first = eight.classify(image, box)
    for turned in (image[:, ::-1], image[::-1], image.transpose(1, 0, 2), image[::-1, ::-1]):
        again = eight.classify(np.ascontiguousarray(turned), box)
        np.testing.assert_allclose(again, first, atol=1e-5)
    assert first.shape == (1, 7) and abs(float(first.sum()) - 1.0) < 1e-4


def test_the_record_says_how_many_ways_a_die_is_read(tmp_path) -> None:
    models = copy_models(tmp_path)
    edit_record(models, views=None)
    assert DiceReader(models).views == 1  # saved before views existed: one way, as then
    edit_record(models, views=4)
    assert DiceReader(models).views == 4 and DiceReader(models, views=2).views == 2
    edit_record(models, views=3)
    with pytest.raises(DiceModelError, match=r"asks for 3 views of each die"):
        DiceReader(models)


def test_several_classifiers_answer_on_their_mean(tmp_path, photos) -> None:
    """A record's members are read beside `dice_faces.onnx` and the die's probabilities are
    their mean, so a face one of them is sure of and the other doubts is less sure."""
    models = copy_models(tmp_path)
    shutil.copy(models / "dice_faces.onnx", models / "dice_faces_2.onnx")
    edit_record(models, members=["dice_faces_2.onnx"])
    both = DiceReader(models, views=2)
    assert len(both.classifiers) == 2 and len(DiceReader(MODELS).classifiers) == 1
    # The second, made another network before it first runs: its last layer leans hard
    # towards a "1".
    other = cv2.dnn.readNetFromONNX(str(models / "dice_faces_2.onnx"))
    last = other.getLayerId("onnx_node!/body/body.9/Conv")
    bias = other.getParam(last, 1).copy()
    bias[0] += 6.0
    other.setParam(last, 1, bias)
    both.classifiers[1] = other
    alone, lent = DiceReader(MODELS, views=2), DiceReader(MODELS, views=2)
    lent.classifiers = [other]
    scene = photos[1]
    boxes = [tuple(map(float, d.box)) for d in scene.dice]
    first, second = alone.classify(scene.image, boxes), lent.classify(scene.image, boxes)
    assert np.abs(first - second).max() > 0.3  # the two truly disagree
    np.testing.assert_allclose(both.classify(scene.image, boxes), (first + second) / 2, atol=1e-5)


def test_a_member_that_is_missing_or_not_a_file_name_is_refused(tmp_path) -> None:
    models = copy_models(tmp_path)
    edit_record(models, members=["dice_faces_2.onnx"])
    with pytest.raises(DiceModelError, match=r"dice_faces_2\.onnx is missing"):
        DiceReader(models)
    for bad in (["../dice_faces.onnx"], "dice_faces.onnx", [3], [""]):
        edit_record(models, members=bad)
        with pytest.raises(DiceModelError, match=r"lists its classifiers as"):
            DiceReader(models)


def test_the_signature_names_the_models_files_rule_and_views(tmp_path) -> None:
    """A table's record of its dice is kept for the model that read them
    (companion/table/dice_tally.py): the same files sign alike, another rule or another
    way of reading does not."""
    models = copy_models(tmp_path)
    shipped = DiceReader(MODELS).signature
    assert DiceReader(models).signature == shipped
    assert DiceReader(models, views=8).signature != shipped
    edit_record(models, face_threshold=0.5)
    assert DiceReader(models).signature != shipped


def test_below_the_threshold_a_die_is_unsure_but_still_found(photos) -> None:
    unsure = DiceReader(face_threshold=1.01)
    scene = photos[0]
    sure, doubtful = DiceReader(face_threshold=0.0).read(scene.image), unsure.read(scene.image)
    assert [d.box for d in sure] == [d.box for d in doubtful]
    assert doubtful and all(d.face is None for d in doubtful)
    assert any(d.face is not None for d in sure)


def test_an_empty_table_has_no_dice(reader) -> None:
    grey = np.full((720, 1280, 3), 128, np.uint8)
    assert reader.read(grey) == []


def test_a_missing_model_is_refused_in_words(tmp_path) -> None:
    models = copy_models(tmp_path)
    (models / "dice_faces.onnx").unlink()
    with pytest.raises(DiceModelError, match=r"dice_faces\.onnx is missing"):
        DiceReader(models)
    with pytest.raises(DiceModelError, match="missing"):
        DiceReader(tmp_path / "nowhere")


def test_a_damaged_model_is_refused_in_words(tmp_path) -> None:
    models = copy_models(tmp_path)
    path = models / "dice_detector.onnx"
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 3])
    with pytest.raises(DiceModelError, match=r"dice_detector\.onnx is damaged"):
        DiceReader(models)
    models = copy_models(tmp_path)
    (models / "dice_faces.json").write_text("{ not json", encoding="utf-8")
    with pytest.raises(DiceModelError, match=r"dice_faces\.json is damaged"):
        DiceReader(models)


def test_a_file_that_is_not_a_photo_is_refused(tmp_path) -> None:
    bad = tmp_path / "roll.jpg"
    bad.write_text("not a photo", encoding="utf-8")
    with pytest.raises(UnreadableImage, match="roll.jpg is not a photo"):
        load_image(bad)
