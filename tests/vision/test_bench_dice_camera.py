"""`make bench`'s camera dice benchmark still runs to its end (it broke once, silently, when
a real source that only trains, DamianTab, had no photos in the evaluation set: nothing ran
it but `make bench`)."""

from __future__ import annotations

from benchmarks import bench_dice_camera


def test_the_camera_dice_benchmark_reads_every_part_of_the_real_set(monkeypatch, capsys) -> None:
    monkeypatch.setenv("BENCH_DICE_PHOTOS", "2")
    monkeypatch.delenv("BENCH_DICE_MODELS", raising=False)
    assert not bench_dice_camera.main()
    out = capsys.readouterr().out
    for part in ("from tomitomi3: 48 photos", "from chase: 86 photos", "from ckleiber: 2 photos",
                 "from spicydicey: 8 photos", "all: 144 photos, 156 dice"):  # fmt: skip
        assert part in out, out
    assert "damiantab" not in out
    assert out.count("classical pip counter") == 6  # the rendered part and five real ones
