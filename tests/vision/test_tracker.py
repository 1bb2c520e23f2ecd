"""Temporal voting: a card counts once per showing, flashes and missed frames do not count."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from vision.payload import encode
from vision.tracker import GONE, SEEN, Tracker

A, B = encode("tiny/token/copper"), encode("tiny/token/silver")


def run(tracker, frames):
    out = []
    for texts in frames:
        out += [(s.change, s.reading.card_id, s.frame) for s in tracker.update(texts)]
    return out


def test_held_in_view_counts_once():
    assert run(Tracker(), [[A]] * 90) == [(SEEN, "tiny/token/copper", 2)]


def test_a_one_frame_flash_is_not_a_card():
    assert run(Tracker(), [[A], [], [], [], [A], [], []]) == []


def test_a_missed_frame_does_not_make_it_leave():
    frames = [[A]] * 5 + [[]] * 3 + [[A]] * 5
    assert run(Tracker(forget=4), frames) == [(SEEN, "tiny/token/copper", 2)]


def test_it_can_be_seen_again_after_leaving_the_view():
    frames = [[A]] * 5 + [[]] * 8 + [[A]] * 3
    assert run(Tracker(forget=8), frames) == [
        (SEEN, "tiny/token/copper", 2),
        (GONE, "tiny/token/copper", 13),
        (SEEN, "tiny/token/copper", 15),
    ]


def test_several_cards_are_tracked_apart():
    frames = [[A, B], [A, B], [A], [A], [A, B]] + [[A]] * 10
    changes = run(Tracker(forget=3), frames)
    assert changes == [
        (SEEN, "tiny/token/copper", 2),
        (SEEN, "tiny/token/silver", 2),
        (GONE, "tiny/token/silver", 8),
    ]


def test_unknown_codes_are_tracked_too_but_name_no_card():
    (sighting,) = Tracker(confirm=1, window=1).update(["https://example.com"])
    assert sighting.reading.kind == "unknown" and sighting.reading.card_id is None


def test_settings_are_checked():
    with pytest.raises(ValueError):
        Tracker(confirm=4, window=3)
    with pytest.raises(ValueError):
        Tracker(forget=0)


@given(st.lists(st.booleans(), max_size=120), st.integers(1, 3), st.integers(1, 10))
def test_seen_and_gone_alternate_and_need_consecutive_evidence(presence, confirm, forget):
    tracker = Tracker(confirm=confirm, window=3, forget=forget)
    changes = [c for c, _, _ in run(tracker, [[A] if p else [] for p in presence])]
    assert changes == [SEEN, GONE] * (len(changes) // 2) + [SEEN] * (len(changes) % 2)
    assert changes.count(SEEN) <= sum(presence) // confirm
    assert (A in tracker.in_view) == (len(changes) % 2 == 1)
