"""The table's record of its own camera dice (companion/table/dice_tally.py): the bar its
dice set, kept on disk, and never trusted past what it can tell."""

from __future__ import annotations

import json
import math

from companion.table.dice_tally import KEEP, CameraTally, DieTaken, careful_bar


def right(confidence: float, n: int = 1) -> list[DieTaken]:
    return [DieTaken(confidence, True, 3, 3)] * n


def wrong(confidence: float) -> DieTaken:
    return DieTaken(confidence, True, 5, 6)  # read a five, the table took a six


def test_no_misread_keeps_the_models_own_rule() -> None:
    assert careful_bar([]) == 0.0
    assert careful_bar(right(0.97, 30)) == 0.0
    # an unsure die the reader leaned wrong on was never answered: it costs nothing
    assert careful_bar([*right(0.97, 5), DieTaken(0.999, False, 5, 6)]) == 0.0


def test_a_misread_raises_the_bar_past_its_confidence() -> None:
    dice = [*right(0.97, 5), *right(0.9995, 5), wrong(0.998)]
    bar = careful_bar(dice)
    assert 0.998 < bar <= 0.9995 and bar == math.nextafter(0.998, 1.0)
    # two misreads: past both, the least sure first
    assert careful_bar([*dice, wrong(0.9992)]) == math.nextafter(0.9992, 1.0)


def test_one_misread_in_more_than_a_hundred_answers_is_within_the_rule() -> None:
    assert careful_bar([*right(0.99, 99), wrong(0.995)]) == 0.0  # 1 of 100: 1%
    assert careful_bar([*right(0.99, 98), wrong(0.995)]) > 0.995  # 1 of 99: over 1%


def test_dice_tapped_and_found_as_read_bring_the_bar_back_down() -> None:
    dice = [*right(0.99, 20), wrong(0.995)]
    assert careful_bar(dice) > 0.995
    # the dice it now asks about, tapped by the table and found as the reader leaned
    assert careful_bar([*dice, *right(0.992, 80)]) == 0.0


def test_the_record_is_kept_for_its_model_and_survives_a_restart(tmp_path) -> None:
    path = tmp_path / "camera-dice.json"
    tally = CameraTally.load(path)
    assert tally.bar("m1", 5) == 0.0 and not path.exists()
    assert tally.note("m1", right(0.99, 3)) is False
    assert tally.note("m1", [wrong(0.996)]) is True  # the bar rose
    again = CameraTally.load(path)
    assert again.dice == tally.dice and again.bar("m1", 5) == math.nextafter(0.996, 1.0)
    assert again.careful_with("m1") == [5]
    assert again.bar("m2", 5) == 0.0 and again.bar(None, 5) == 0.0  # another model, or none
    assert again.careful_with("m2") == [] and again.careful_with(None) == []
    again.note("m2", right(0.9, 1))  # another model's confidences start a new record
    assert CameraTally.load(path).dice == right(0.9, 1)


def test_a_misread_face_makes_the_reader_careful_with_that_face_alone(tmp_path) -> None:
    """A five that was a six: the dice it reads as five are asked about, its threes (read
    right as often as ever) are not."""
    tally = CameraTally.load(tmp_path / "camera-dice.json")
    tally.note("m1", [*right(0.99, 20), DieTaken(0.99, True, 5, 5), wrong(0.998)])
    assert tally.careful_with("m1") == [5]
    assert tally.bar("m1", 5) > 0.998 and tally.bar("m1", 3) == 0.0


def test_only_the_latest_dice_are_kept(tmp_path) -> None:
    tally = CameraTally.load(tmp_path / "camera-dice.json")
    tally.note("m1", [wrong(0.999)])
    tally.note("m1", right(0.99, KEEP))
    assert len(CameraTally.load(tmp_path / "camera-dice.json").dice) == KEEP
    assert tally.bar("m1", 5) == 0.0  # the old misread is forgotten with its age


def test_a_damaged_record_starts_afresh_and_loses_no_roll(tmp_path, caplog) -> None:
    path = tmp_path / "camera-dice.json"
    good = {"version": 1, "model": "m1", "dice": [[0.99, 1, 3, 3]]}
    for bad in (
        "{ not json",
        json.dumps({**good, "version": 9}),
        json.dumps({**good, "dice": [[2.0, 1, 3, 3]]}),
        json.dumps({**good, "dice": [[0.9, 1, 7, 3]]}),
        json.dumps({**good, "dice": [[0.9, 1, 3]]}),
        json.dumps({**good, "model": 4}),
        json.dumps([1, 2]),
    ):
        path.write_text(bad, encoding="utf-8")
        tally = CameraTally.load(path)
        assert tally.dice == [] and tally.careful_with("m1") == [], bad
    assert "could not be read" in caplog.text
    path.write_text(json.dumps(good), encoding="utf-8")
    assert CameraTally.load(path).dice == right(0.99)


def test_forgetting_leaves_the_models_own_rule(tmp_path) -> None:
    path = tmp_path / "camera-dice.json"
    tally = CameraTally.load(path)
    tally.note("m1", [*right(0.99, 3), wrong(0.999)])
    assert tally.careful_with("m1") == [5]
    tally.forget()
    assert tally.careful_with("m1") == [] and CameraTally.load(path).dice == []


def test_a_bar_holds_to_the_last_digit_after_a_restart(tmp_path) -> None:
    """A five read at 0.99912345678 and corrected: after the app starts again, a five read
    at 0.9991234567 (kept as 0.999123 it would pass) is still asked about."""
    path = tmp_path / "camera-dice.json"
    CameraTally.load(path).note("m1", [wrong(0.99912345678)])
    again = CameraTally.load(path)
    assert again.bar("m1", 5) == math.nextafter(0.99912345678, 1.0)
    assert again.bar("m1", 5) > 0.9991234567
