"""Issue 26's fallbacks and checks: a misread text is never a read, specks and a defocus
are undone, and a lone card in a shadow stops the cascade after the stage that read it."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import decode
from vision.decode import Cascade, Found, Stage, gray, payload_text, pyzbar, zxing
from vision.synthetic import code_photo, make_frame

PHOTOS = Path(__file__).parent / "photos" / "zxing"


def _expected(folder: str, name: str) -> str:
    return (PHOTOS / folder / f"{name}.txt").read_bytes().decode("utf-8")


@pytest.mark.parametrize("name", ["10", "17", "30", "31"])
def test_pyzbar_reads_utf8_and_shift_jis_codes_as_they_are_written(name):
    """ZBar left to itself read qrcode-2/30's UTF-8 as Shift JIS ('皜祈岫' for '測試')
    and qrcode-2/17's Shift JIS half-width katakana as other kanji."""
    photo = gray(cv2.imread(str(PHOTOS / "qrcode-2" / f"{name}.webp")))
    assert [f.text for f in pyzbar(photo)] == [_expected("qrcode-2", name)]


def test_bytes_that_are_no_text_in_either_encoding_are_not_a_read():
    assert payload_text("測試".encode()) == "測試"
    assert payload_text("ﾃﾞｻﾞｲﾝ".encode("shift_jis")) == "ﾃﾞｻﾞｲﾝ"
    assert payload_text(b"\xff\xfe\x80\x81") is None


def test_a_decoder_text_with_a_replacement_character_is_no_read(monkeypatch):
    class Fake:
        valid = True
        text = "direwild/ai/\ufffd"

        class position:  # noqa: N801 (zxing-cpp's shape)
            top_left = top_right = bottom_right = bottom_left = type("P", (), {"x": 1, "y": 2})

    monkeypatch.setattr(decode.zxingcpp, "read_barcodes", lambda *a, **k: [Fake()])
    assert zxing(np.zeros((40, 40), np.uint8)) == []


def _specked(rate: float, seed: int) -> np.ndarray:
    g = gray(code_photo("TC1/TINY/TOKEN/COPPER/70CA", 160, seed))
    spots = np.random.default_rng(seed).random(g.shape)
    g[spots < rate] = 0
    g[spots > 1 - rate] = 255
    return g


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_specked_code_zxing_misses_is_read_through_a_median_filter(seed):
    image = _specked(0.2, seed)
    assert zxing(image) == []
    (found,) = Cascade()(image)
    assert (found.text, found.stage) == ("TC1/TINY/TOKEN/COPPER/70CA", "zxing+median")


@pytest.mark.parametrize("seed", [0])
def test_a_defocused_card_every_earlier_stage_misses_is_read_by_deconvolution(seed):
    frame = make_frame("nominal", seed)
    blurred = cv2.GaussianBlur(gray(frame.image), (0, 0), 2.0)
    stages = decode.DEFAULT_STAGES
    earlier = stages[: [s.name for s in stages].index("zxing+defocus")]
    assert Cascade(earlier)(blurred) == []
    found = Cascade()(blurred)
    assert [(f.reading.card_id, f.stage) for f in found] == [(frame.cards[0], "zxing+defocus")]


@pytest.mark.parametrize("seed", range(1000, 1006))
def test_a_lone_card_in_a_shadow_stops_after_the_stage_that_read_it(seed):
    """Every shadowed frame used to run every stage: the shadow's edge outscored the
    half-shadowed code's texture, so the frame 'might hold more codes'."""
    frame = make_frame("shadow", seed)
    ran: list[str] = []

    def spy(stage: Stage) -> Stage:
        def run(g: np.ndarray) -> list[Found]:
            ran.append(stage.name)
            return stage.run(g)

        return Stage(stage.name, run)

    found = Cascade([spy(s) for s in decode.DEFAULT_STAGES])(frame.image)
    assert [f.reading.card_id for f in found] == frame.cards
    assert ran[-1] == found[0].stage  # nothing ran after the read
