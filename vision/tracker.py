"""Temporal voting: when a code read frame by frame becomes "a card was shown".

One frame is not enough (a reflection can flash a code for a frame; a decoder can miss a
frame of a card that is there), and a card held up for three seconds is one card, not
ninety.  A code counts as seen once it is read in `confirm` of the last `window` frames;
it stays seen, without repeating, while it keeps turning up; it counts as gone after
`forget` frames in a row without it, and then showing it again is a new sighting (the same
AI card can be drawn again after a reshuffle).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field

from vision.payload import Reading, classify

SEEN = "seen"
GONE = "gone"


@dataclass(frozen=True)
class Sighting:
    """A code that appeared (`SEEN`) or left the view (`GONE`) at frame `frame`."""

    change: str
    reading: Reading
    frame: int


@dataclass
class _Track:
    hits: deque[bool]
    present: bool = False
    misses: int = 0


@dataclass
class Tracker:
    confirm: int = 2
    window: int = 3
    forget: int = 8
    frame: int = 0
    _tracks: dict[str, _Track] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not 1 <= self.confirm <= self.window:
            raise ValueError("confirm must be between 1 and window")
        if self.forget < 1:
            raise ValueError("forget must be at least 1 frame")

    @property
    def in_view(self) -> list[str]:
        """The texts of the codes currently counted as in view."""
        return [t for t, tr in self._tracks.items() if tr.present]

    def update(self, texts: Iterable[str]) -> list[Sighting]:
        """Feed one frame's decoded texts; returns what appeared and what left."""
        self.frame += 1
        now = list(dict.fromkeys(texts))  # in the order read, so reports are repeatable
        out: list[Sighting] = []
        for text in now:
            if text not in self._tracks:
                self._tracks[text] = _Track(deque(maxlen=self.window))
        for text, track in list(self._tracks.items()):
            here = text in now
            track.hits.append(here)
            if here:
                track.misses = 0
                if not track.present and sum(track.hits) >= self.confirm:
                    track.present = True
                    out.append(Sighting(SEEN, classify(text), self.frame))
                continue
            track.misses += 1
            if track.present and track.misses >= self.forget:
                out.append(Sighting(GONE, classify(text), self.frame))
                del self._tracks[text]
            elif not track.present and not any(track.hits):
                del self._tracks[text]
        return out
