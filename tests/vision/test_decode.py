"""The decode cascade on synthetic photos: reads what is there, never names a wrong card."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.decode import Cascade, Found, Stage, busiest_regions, gray, opencv, pyzbar, zxing
from vision.payload import CARD, LIVING_CARD, UNKNOWN
from vision.synthetic import CATEGORIES, code_photo, make_frame, table_image


def cards_read(found: list[Found]) -> set[str]:
    return {f.reading.card_id for f in found if f.reading.kind == CARD}


@pytest.mark.parametrize("category", ["close", "nominal", "small", "rotation", "dark_noisy"])
def test_cascade_reads_the_card_in_plain_conditions(category):
    for seed in range(3):
        frame = make_frame(category, seed)
        assert cards_read(Cascade()(frame.image)) == set(frame.cards), (category, seed)


def test_several_cards_in_one_frame_are_all_read():
    for seed in range(3):
        frame = make_frame("several", seed)
        assert len(frame.cards) >= 3
        assert cards_read(Cascade()(frame.image)) == set(frame.cards)


def test_corners_are_where_the_code_is():
    frame = make_frame("nominal", 4)
    (found,) = Cascade()(frame.image)
    assert np.abs(np.mean(found.corners, 0) - frame.code_corners[0].mean(0)).max() < 6


def test_fallbacks_read_hard_frames_zxing_alone_misses_and_never_a_wrong_card():
    rescued = 0
    cascade = Cascade()
    for category in ("glare", "blur", "shadow", "combined"):
        for seed in range(8):
            frame = make_frame(category, seed)
            alone = cards_read(zxing(gray(frame.image)))
            read = cards_read(cascade(frame.image))
            assert read <= set(frame.cards)
            assert alone <= read
            rescued += len(read - alone)
    assert rescued >= 5
    assert set(cascade.stats) - {"zxing", "none"}, cascade.stats


def recording(calls, name, result, raises=None):
    def run(g):
        calls.append(name)
        if raises is not None:
            raise raises
        return result

    return Stage(name, run)


def test_a_lone_card_stops_the_cascade_after_the_stage_that_read_it():
    frame = make_frame("nominal", 4)
    calls = []
    cascade = Cascade([Stage("zxing", zxing), recording(calls, "second", [])])
    assert cards_read(cascade(frame.image)) == set(frame.cards)
    assert calls == []
    assert cascade.stats == {"zxing": 1}


def test_stages_go_on_after_a_read_while_the_frame_may_hold_more_codes():
    """Two cards, one in deep shadow: the first stage reads the clear one, and the rest
    of the cascade still looks at the other part of the frame."""
    frame = make_frame("several", 2)
    g = gray(frame.image)
    x0, y0 = np.round(frame.code_corners[0].min(0)).astype(int) - 12
    x1, y1 = np.round(frame.code_corners[0].max(0)).astype(int) + 12
    g[y0:y1, x0:x1] = g[y0:y1, x0:x1] // 6 + 3  # the first code: dark, and flat
    alone = cards_read(zxing(g))
    assert frame.cards[0] not in alone and alone
    read = cards_read(Cascade()(g))
    assert read == set(frame.cards)


def test_one_stage_raising_does_not_stop_the_others():
    calls = []
    cascade = Cascade(
        [
            recording(calls, "first", [], raises=UnicodeDecodeError("utf-8", b"\x82", 0, 1, "bad")),
            recording(calls, "second", [], raises=MemoryError()),
            recording(calls, "third", [Found("y"), Found("y")]),
        ]
    )
    assert [f.text for f in cascade(np.zeros((32, 32), np.uint8))] == ["y"]
    assert calls == ["first", "second", "third"]
    assert cascade.errors == 2 and "MemoryError" in cascade.last_error
    assert cascade.stats == {"third": 1}


class Clock:
    """The time a stage takes, as the outside world: each stage says what it cost."""

    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


def test_a_budget_spreads_the_dear_stages_over_frames_and_keeps_a_reading_stage_hot():
    calls, found, clock = [], [], Clock()
    cost = {"first": 1, "a": 4, "b": 8, "c": 20}  # ms

    def stage(name):
        def run(g):
            calls.append(name)
            clock.now += cost[name] / 1000
            return found if name == "c" else []

        return Stage(name, run)

    cascade = Cascade([stage(n) for n in cost], budget_ms=5.0, clock=clock)
    blank = np.zeros((32, 32), np.uint8)
    spent = []
    for _ in range(40):
        before = clock.now
        assert cascade(blank) == []
        spent.append((clock.now - before) * 1000)
    assert calls.count("first") == 40
    assert sum(spent) / len(spent) <= 5.5  # the budget, on average
    assert sorted(spent)[len(spent) // 2] <= 5  # most frames run the first stage only
    turns = [calls.count(n) for n in "abc"]
    assert min(turns) >= 3 and max(turns) - min(turns) <= 1  # each in its turn
    found.append(Found("card"))
    calls.clear()
    results = [[f.text for f in cascade(blank)] for _ in range(12)]
    first = results.index(["card"])
    assert first <= 8  # c's turn comes round
    assert all(r == ["card"] for r in results[first:])  # and c runs on every frame after
    assert cascade.stats["c"] == 12 - first


def test_an_empty_table_reads_nothing():
    image = table_image(np.random.default_rng(3))
    assert Cascade()(image) == []


def test_other_products_codes_come_back_unknown_and_living_cards_named():
    found = Cascade()(code_photo("https://example.com/buy-now"))
    assert [f.reading.kind for f in found] == [UNKNOWN]
    found = Cascade()(code_photo("https://www.hexploreit.com/vol2/living"))
    assert [f.reading.kind for f in found] == [LIVING_CARD]


def test_each_decoder_alone_reads_a_clear_code():
    image = gray(code_photo("TC1/TINY/TOKEN/COPPER/70CA", 220))
    for decoder in (zxing, opencv, pyzbar):
        assert [f.text for f in decoder(image)] == ["TC1/TINY/TOKEN/COPPER/70CA"], decoder


def test_busiest_region_finds_a_small_code():
    for seed in range(5):
        frame = make_frame("small", seed)
        centre = frame.code_corners[0].mean(0)
        spots = busiest_regions(gray(frame.image))
        assert min(np.hypot(x - centre[0], y - centre[1]) for x, y in spots) < 60


def test_synthetic_frames_are_repeatable_and_sized_like_a_720p_camera():
    for category in CATEGORIES:
        a, b = make_frame(category, 7), make_frame(category, 7)
        assert a.image.shape == (720, 1280, 3)
        assert np.array_equal(a.image, b.image) and a.cards == b.cards
    with pytest.raises(ValueError, match="unknown category"):
        make_frame("foggy", 1)


def smeared_label(length: float, angle: float) -> np.ndarray:
    """A label 100 px wide on a table, smeared as a card moving during the exposure."""
    from vision.decode import motion_kernel
    from vision.labels import modules

    image = table_image(np.random.default_rng(2))
    code = cv2.resize(
        np.where(modules("tiny/token/silver"), 0, 255).astype(np.uint8),
        (100, 100),
        interpolation=cv2.INTER_NEAREST,
    )
    image[300:400, 600:700] = code[:, :, None]
    return cv2.filter2D(image, -1, motion_kernel(length, angle))


@pytest.mark.parametrize("angle", [0, 35, 90, 140])
def test_the_smear_direction_is_read_from_the_image(angle):
    from vision.decode import smear_direction

    image = gray(smeared_label(7, angle))[290:410, 590:710]
    estimate, coherence = smear_direction(image)
    off = abs((estimate - angle + 90) % 180 - 90)
    assert off < 15, (angle, estimate)
    assert coherence > 0.2


def test_a_smeared_code_zxing_misses_is_read_by_deblurring():
    from vision.decode import _deblurred

    image = gray(smeared_label(7, 35))
    assert zxing(image) == []
    assert [f.reading.card_id for f in _deblurred(image)] == ["tiny/token/silver"]
    assert [f.reading.card_id for f in Cascade()(image)] == ["tiny/token/silver"]


def test_on_real_photographs_the_cascade_reads_all_zxing_reads_and_more():
    """zxing's own blackbox photographs (tests/vision/photos/NOTICE): the first pass is
    zxing-cpp with its cheap options on, so the cascade never reads less than zxing-cpp
    alone; the fallbacks read some it does not; no other text is made up."""
    from benchmarks.bench_scan import photo_folders

    alone_total = cascade_total = 0
    cascade = Cascade()
    for photos in photo_folders().values():
        for photo in photos:
            alone = {f.text for f in zxing(gray(photo.image))}
            read = {f.text for f in cascade(photo.image)}
            assert alone <= read, photo.name
            assert len(read - set(photo.texts)) <= len(alone - set(photo.texts)), photo.name
            alone_total += len(alone & set(photo.texts))
            cascade_total += len(read & set(photo.texts))
    assert cascade_total > alone_total
    assert cascade.errors == 0, cascade.last_error


def test_light_on_dark_codes_are_read_by_the_first_pass():
    image = 255 - gray(code_photo("TC1/TINY/TOKEN/COPPER/70CA", 200))
    assert [f.text for f in zxing(image)] == ["TC1/TINY/TOKEN/COPPER/70CA"]


def test_a_code_printed_on_cloth_is_read_by_the_curved_stage_only_where_zxing_saw_one():
    """zxing's photograph `qrcode-4/08`: a code printed on a cloth patch, bent, which
    zxing-cpp locates but cannot decode (its flat grid misses the bent modules); OpenCV's
    curved decoder on the crop round it reads it.  On a table with no code the stage does
    not run its decoder at all (nothing located), so it costs an empty frame nothing."""
    from benchmarks.bench_scan import PHOTOS
    from vision.decode import curved, unread_symbols

    folder = PHOTOS / "zxing" / "qrcode-4"
    image = gray(cv2.imread(str(folder / "08.webp")))
    expected = (folder / "08.txt").read_text(encoding="utf-8")
    assert zxing(image) == [] and len(unread_symbols(image)) >= 1
    (found,) = curved(image)
    assert found.text == expected and found.stage == "curved"
    xs = [x for x, _ in found.corners]
    assert 0 <= min(xs) < max(xs) <= image.shape[1]
    assert [f.text for f in Cascade()(image)] == [expected]

    empty = gray(table_image(np.random.default_rng(7)))
    assert unread_symbols(empty) == [] and curved(empty) == []
