"""Any array a caller or a camera hands the scanner is read or refused in words, never
raised on; 16-bit and other non-8-bit frames are read; big photos are scaled down first."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from vision.decode import Cascade
from vision.frames import ImageSource
from vision.pixels import MAX_SIDE, Unreadable, fit, grey_frame
from vision.scanner import Scanner
from vision.synthetic import make_frame
from vision.tracker import Tracker

DTYPES = st.sampled_from(
    [
        np.bool_,
        np.int8,
        np.uint8,
        np.int16,
        np.uint16,
        np.int32,
        np.uint32,
        np.int64,
        np.uint64,
        np.float16,
        np.float32,
        np.float64,
        np.complex64,
    ]
)
SHAPES = hnp.array_shapes(min_dims=0, max_dims=5, min_side=0, max_side=40)


@settings(max_examples=300, deadline=None)
@given(hnp.arrays(DTYPES, SHAPES, elements=None, fill=None))
def test_any_array_is_read_or_refused_in_words_never_raised_on(frame):
    cascade = Cascade()
    found = cascade(frame)  # must not raise
    assert isinstance(found, list)
    assert cascade.errors == 0, cascade.last_error  # no stage met a frame it chokes on
    if cascade.refused:
        assert cascade.refused.startswith("a frame")
    scanner = Scanner(ImageSource([]), decoder=Cascade(), tracker=Tracker(confirm=1, window=1))
    assert scanner.process(frame) == []
    assert scanner.stats.errors == 0


@pytest.mark.parametrize(
    "shape, dtype, words",
    [
        ((12,), np.uint8, "rows and columns"),
        ((2, 3, 40, 40), np.uint8, "one picture at a time"),
        ((40, 40, 5), np.uint8, "5 colour channels"),
        ((40, 40), np.complex64, "complex64"),
    ],
)
def test_arrays_that_hold_no_picture_are_refused_in_words(shape, dtype, words):
    cascade = Cascade()
    assert cascade(np.zeros(shape, dtype)) == []
    assert words in cascade.refused
    assert cascade.stats["refused"] == 1
    with pytest.raises(Unreadable, match=words):
        grey_frame(np.zeros(shape, dtype))


def _card() -> tuple[np.ndarray, str]:
    frame = make_frame("nominal", 3)
    return frame.image, frame.cards[0]


def _as(image: np.ndarray, kind: str) -> np.ndarray:
    grey = image.mean(axis=2)
    return {
        "uint16": (image.astype(np.uint16) * 257),
        "12-bit": (grey * 16).astype(np.uint16),
        "float 0-1": grey.astype(np.float32) / 255.0,
        "float 0-255": grey,
        "int8": (grey - 128).astype(np.int8),
        "int16 signed": (grey.astype(np.int16) - 300),
        "bool": grey > 110,
        "grey+alpha": np.dstack([grey.astype(np.uint8), np.full(grey.shape, 255, np.uint8)]),
        "one channel": grey.astype(np.uint8)[:, :, None],
        "BGRA": np.dstack([image, np.full(grey.shape, 255, np.uint8)]),
        "batch of one": image[None],
        "not contiguous": np.asfortranarray(image),
    }[kind]


@pytest.mark.parametrize(
    "kind",
    [
        "uint16",
        "12-bit",
        "float 0-1",
        "float 0-255",
        "int8",
        "int16 signed",
        "bool",
        "grey+alpha",
        "one channel",
        "BGRA",
        "batch of one",
        "not contiguous",
    ],
)
def test_frames_of_every_type_are_read_by_the_cascade_and_the_live_path(kind):
    image, card = _card()
    frame = _as(image, kind)
    assert card in {f.reading.card_id for f in Cascade()(frame)}
    scanner = Scanner(ImageSource([]), tracker=Tracker(confirm=1, window=1))
    scanner.source.live = True  # the live camera's budgeted path
    (seen,) = scanner.process(frame)
    assert seen.reading.card_id == card


def test_a_huge_photo_is_scaled_down_before_any_stage_and_its_code_placed_in_it():
    """An 8000x6000 photo with no code took 10.5 s: every stage ran on all 48 MP."""
    image, card = _card()
    big = np.kron(image.mean(axis=2).astype(np.uint8), np.ones((5, 5), np.uint8))  # 6400x3600
    small, scale = fit(big)
    assert max(small.shape) == MAX_SIDE and scale == pytest.approx(MAX_SIDE / 6400)
    seen = []

    def recording(g: np.ndarray) -> list:
        seen.append(g.shape)
        return []

    from vision.decode import DEFAULT_STAGES, Stage

    Cascade([Stage("shape", recording)])(big)
    assert seen == [small.shape]  # the first stage already had the small frame
    (found,) = Cascade([DEFAULT_STAGES[0]])(big)
    assert found.reading.card_id == card
    xs = [x for x, _ in found.corners]
    assert 1000 < min(xs) < max(xs) < 5500  # in the big photo's own pixels


def test_a_small_code_in_a_huge_photo_is_never_missed_where_zxing_alone_reads_it():
    """Scaled down to 2048 px the card's code is a few pixels a module: zxing-cpp on the
    whole photo, as alone it would, reads it once nothing else did."""
    frame = make_frame("nominal", 2)
    photo = np.full((6000, 8000, 3), 150, np.uint8)
    photo[1000:1720, 3000:4280] = frame.image
    cascade = Cascade()
    (found,) = cascade(photo)
    assert (found.reading.card_id, found.stage) == (frame.cards[0], "zxing+full")
    x, y = found.corners[0]
    assert 3000 < x < 4280 and 1000 < y < 1720
    assert cascade.stats == {"zxing+full": 1, "none": 0}
