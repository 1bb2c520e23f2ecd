"""The label format: round trips, compactness, and that no misread names another card."""

from __future__ import annotations

import segno
from hypothesis import assume, given
from hypothesis import strategies as st

from vision.payload import (
    CARD,
    LIVING_CARD,
    QR_ALPHANUMERIC,
    UNKNOWN,
    PayloadError,
    classify,
    encode,
)

NAME = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789_-", min_size=1, max_size=24)
GAME = st.one_of(
    st.sampled_from(["direwild", "kradia", "hexplore", "tiny"]),
    st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789", min_size=3, max_size=10),
)
CARD_IDS = st.builds(lambda g, k, s: f"{g}/{k}/{s}", GAME, NAME, NAME)


@given(CARD_IDS)
def test_every_card_id_round_trips(card_id):
    reading = classify(encode(card_id))
    assert reading.kind == CARD
    assert reading.card_id == card_id


@given(CARD_IDS)
def test_payload_uses_only_qr_alphanumeric_characters(card_id):
    assert set(encode(card_id)) <= QR_ALPHANUMERIC


def test_shipped_games_are_shortened_and_the_format_is_versioned():
    text = encode("direwild/minion/inkling")
    assert text.startswith("TC1/DW/MINION/INKLING/")
    assert encode("kradia/battlefield/sea_of_flames").startswith(
        "TC1/KR/BATTLEFIELD/SEA.OF.FLAMES/"
    )
    assert encode("tiny/token/copper").startswith("TC1/TINY/TOKEN/COPPER/")


def test_typical_labels_fit_a_low_qr_version_at_glare_proof_error_correction():
    for card_id in (
        "direwild/minion/inkling",
        "hexplore/circumstance/what-was-that",
        "kradia/battlefield/crimson-moon-rising",
    ):
        qr = segno.make(encode(card_id), error="q", boost_error=True, micro=False)
        assert qr.mode == "alphanumeric"
        assert qr.version <= 3, (card_id, qr.version)
        assert qr.error in ("Q", "H")


@given(st.text(max_size=60))
def test_only_the_exact_canonical_text_names_a_card(text):
    reading = classify(text)
    if reading.kind == CARD:
        assert encode(reading.card_id) == text


@given(CARD_IDS, st.data())
def test_one_wrong_character_never_names_a_card(card_id, data):
    text = encode(card_id)
    i = data.draw(st.integers(0, len(text) - 1))
    c = data.draw(st.sampled_from(sorted(QR_ALPHANUMERIC)))
    assume(c != text[i])
    misread = text[:i] + c + text[i + 1 :]
    assert classify(misread).kind == UNKNOWN


@given(CARD_IDS, st.data())
def test_two_neighbours_swapped_never_name_a_card(card_id, data):
    text = encode(card_id)
    i = data.draw(st.integers(0, len(text) - 2))
    assume(text[i] != text[i + 1])
    misread = text[:i] + text[i + 1] + text[i] + text[i + 2 :]
    assert classify(misread).kind == UNKNOWN


@given(CARD_IDS, st.data())
def test_a_cut_short_label_is_not_a_card(card_id, data):
    text = encode(card_id)
    n = data.draw(st.integers(0, len(text) - 1))
    assert classify(text[:n]).kind == UNKNOWN


def test_bad_ids_are_refused_in_words():
    for bad in ("Direwild/minion/inkling", "direwild/inkling", "direwild/minion/ink ling", ""):
        try:
            encode(bad)
        except PayloadError as exc:
            assert "card id" in str(exc)
        else:
            raise AssertionError(f"{bad!r} was accepted")


def test_a_game_id_that_reads_like_a_shipped_code_is_refused():
    try:
        encode("dw/minion/inkling")
    except PayloadError as exc:
        assert "direwild" in str(exc)
    else:
        raise AssertionError("dw was accepted")


def test_hexplore_living_card_codes_are_named():
    for text in (
        "https://www.hexploreit.com/vol2/living",
        "www.hexploreit.com/vol2/living",
        "HTTP://HEXPLOREIT.COM/vol2/living/elowens-errand",
    ):
        reading = classify(text)
        assert reading.kind == LIVING_CARD, text
        assert "Living Card" in reading.note
        assert reading.card_id is None


def test_other_products_codes_are_unknown_and_not_cards():
    for text in (
        "https://www.hexploreit.com/shop",
        "https://example.com/tc1",
        "WIFI:S:home;T:WPA;P:secret;;",
        "hexploreit.com.evil.example/living",
        "TC2/DW/MINION/INKLING/0000",
        "TC1/DW/MINION/INKLING/0000",
        "4006381333931",
    ):
        reading = classify(text)
        assert reading.kind == UNKNOWN, text
        assert reading.card_id is None
        assert reading.note
    assert "update the app" in classify("TC2/DW/MINION/INKLING/0000").note
    assert "check" in classify("TC1/DW/MINION/INKLING/0000").note
