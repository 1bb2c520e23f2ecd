"""`make bench`'s table-care benchmark (benchmarks/bench_dice_care.py): a table's rolls
played in turn, each correction teaching the next roll, and the benchmark run to its end."""

from __future__ import annotations

from benchmarks import bench_dice_care
from vision.dice.reader import DieRead

BOX = (10, 10, 50, 50)


def roll(face: int | None, best: int, confidence: float, truth: int) -> tuple:
    return [DieRead(BOX, face, confidence, best=best)], [(BOX, truth)]


def test_a_misread_the_table_corrected_is_asked_about_the_next_time() -> None:
    rolls = [
        roll(5, 5, 0.999, 6),  # a six read as a five: the table corrects it
        roll(5, 5, 0.998, 6),  # the same again, less sure
        roll(3, 3, 0.999, 3),  # a three: never in doubt
        roll(5, 5, 0.9995, 5),  # a five surer than the misread: still answered
    ]
    alone = bench_dice_care.play(rolls, careful=False, model="m")
    care = bench_dice_care.play(rolls, careful=True, model="m")
    assert (alone.right, alone.wrong, alone.unsure) == (2, 2, 0)
    assert (care.right, care.wrong, care.unsure) == (2, 1, 1)


def test_a_loose_box_on_the_right_face_teaches_nothing() -> None:
    """The table sees the face right and corrects nothing, though the benchmark's scoring
    (IoU under 0.5) counts the answer wrong."""
    loose = ([DieRead((10, 10, 30, 30), 4, 0.999, best=4)], [(BOX, 4)])
    care = bench_dice_care.play([loose, loose], careful=True, model="m")
    assert (care.right, care.wrong, care.unsure) == (0, 2, 0)


def test_the_benchmark_plays_every_real_source(monkeypatch, capsys) -> None:
    monkeypatch.delenv("BENCH_DICE_MODELS", raising=False)
    bench_dice_care.main()
    out = capsys.readouterr().out
    for part in ("(a) real calibration dice", "(b) the evaluation set", "tomitomi3     48 dice",
                 "chase         86 dice", "all          156 dice"):  # fmt: skip
        assert part in out, out
