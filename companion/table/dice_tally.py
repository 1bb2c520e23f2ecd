"""What the camera's reads have been worth on this table's own dice (issue 28), and the
care that follows from it.

The reader's unsure rule was calibrated on photos of other people's dice, light and
cameras, and a table's own can fool it more often than 1 in 100: a die read wrong with
confidence is the one mistake the table may not catch.  Each roll the table takes with
"Use these dice", having looked at the preview and tapped any die read wrong, is a sample
of its own dice with their true faces: per die, how sure the reader was, whether it
answered by itself, its best face, and the face taken.  `careful_bar` is the least
confidence at which, on those dice, at most 1 in 100 of the dice the reader answered by
itself were wrong: one for each face the reader reads, as a die's misreads are one face
taken for another.  The reader's own rule still holds beneath it, so the table's record
only ever asks it about more dice, never fewer: a die it had to correct raises the bar
over that die's confidence, and dice it then taps and finds as read bring the bar back
down.  Rolls taken by themselves (dice held still, a phone's photo answered at once) were
not looked at and teach nothing.

Numbers only, no photos: `<data home>/camera-dice.json`, the latest `KEEP` dice, for the
model that read them (another model's confidences say nothing of this one's).  Not part of
any session's save: it belongs to this tablet, its camera and the dice on its table.
"""

from __future__ import annotations

import json
import logging
import math
import os
from dataclasses import dataclass, field
from pathlib import Path

log = logging.getLogger(__name__)

VERSION = 1
KEEP = 2000  # dice remembered: months of play, a few tens of kilobytes
MOST_WRONG = 0.01  # the "at most 1% wrong among the dice it answers by itself"


@dataclass(frozen=True)
class DieTaken:
    """One die of a roll the table looked at and took."""

    confidence: float  # the reader's confidence in its best face
    sure: bool  # the reader answered it by itself (its own rule, before the table's)
    guess: int  # the reader's best face, 1 to 6
    face: int  # the face the table took, 1 to 6

    @property
    def wrong(self) -> bool:
        return self.sure and self.guess != self.face


def careful_bar(dice: list[DieTaken], most_wrong: float = MOST_WRONG) -> float:
    """The least confidence at which at most `most_wrong` of the dice the reader answered
    by itself, among those at least that sure, were wrong (0: its own rule is careful
    enough here).  Raised past the least sure wrong answer until that holds."""
    answered = [(d.confidence, d.wrong) for d in dice if d.sure]
    bar = 0.0
    while True:
        above = [wrong for c, wrong in answered if c >= bar]
        if sum(above) <= most_wrong * len(above):
            return bar
        bar = math.nextafter(min(c for c, wrong in answered if wrong and c >= bar), math.inf)


@dataclass
class CameraTally:
    """The table's record of camera dice it looked at, for one model, and its bar."""

    path: Path | None = None
    model: str = ""
    dice: list[DieTaken] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._work_out()

    def _work_out(self) -> None:
        """The bars and counts, asked at every frame: worked out when the dice change.  A
        bar for each face the reader answers: a die's misreads are a face taken for another
        (a turned six read as a five, on one set of dice and not on another), so a misread
        five makes the reader careful with the dice it reads as five, not all."""
        bars = {f: careful_bar([d for d in self.dice if d.guess == f]) for f in range(1, 7)}
        self._bars = {f: bar for f, bar in bars.items() if bar > 0.0}
        self.read = sum(d.sure for d in self.dice)  # answered by the reader itself
        self.wrong = sum(d.wrong for d in self.dice)  # of those, corrected by the table

    def bar(self, model: str | None, face: int) -> float:
        """The table's least confidence for a die the reader reads as `face` and answers,
        for `model` (the reader's signature; None before it loads: nothing known yet)."""
        return self._bars.get(face, 0.0) if model and model == self.model else 0.0

    def careful_with(self, model: str | None) -> list[int]:
        """The faces the table's dice have made the reader careful with, for `model`."""
        return sorted(self._bars) if model and model == self.model else []

    def note(self, model: str, dice: list[DieTaken]) -> bool:
        """Remember a roll the table looked at and took; True when a bar rose (the reader
        answered a die wrong that it would have answered again)."""
        before = self._bars if model == self.model else {}
        kept = self.dice if model == self.model else []
        self.model, self.dice = model, [*kept, *dice][-KEEP:]
        self._work_out()
        self.save()
        return any(bar > before.get(f, 0.0) for f, bar in self._bars.items())

    def forget(self) -> None:
        """Forget every die (new dice on the table, or another camera): the model's own
        rule again, until the table's rolls teach it otherwise."""
        self.dice = []
        self._work_out()
        self.save()

    def save(self) -> None:
        if self.path is None:
            return
        # full precision: a bar just over a misread die must hold after a restart as before
        rows = [[d.confidence, int(d.sure), d.guess, d.face] for d in self.dice]
        tmp = self.path.with_suffix(".json.tmp")
        try:
            tmp.write_text(
                json.dumps({"version": VERSION, "model": self.model, "dice": rows}),
                encoding="utf-8",
            )
            os.replace(tmp, self.path)
        except OSError as exc:  # a full disk costs the record, never the roll
            log.warning("the camera dice record %s could not be written (%s)", self.path, exc)

    @classmethod
    def load(cls, path: Path) -> CameraTally:
        """The record at `path`; an empty one (with a log line) if it is missing or cannot
        be read: it only ever makes the camera more careful, and starts again by itself."""
        if not path.exists():
            return cls(path)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            if data.get("version") != VERSION:
                raise ValueError(f"version {data.get('version')!r}, not {VERSION}")
            dice = [_die(row) for row in data["dice"]]
            model = data["model"]
            if not isinstance(model, str):
                raise TypeError("the model is not named")
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
            log.warning(
                "the camera dice record %s could not be read (%s); starting afresh", path, exc
            )
            return cls(path)
        return cls(path, model, dice[-KEEP:])


def _die(row: object) -> DieTaken:
    if not isinstance(row, list) or len(row) != 4:
        raise ValueError(f"a die's row is {row!r}")
    confidence, sure, guess, face = row
    if not isinstance(confidence, int | float) or not 0.0 <= confidence <= 1.0:
        raise ValueError(f"a die's confidence is {confidence!r}")
    if sure not in (0, 1) or guess not in range(1, 7) or face not in range(1, 7):
        raise ValueError(f"a die's row is {row!r}")
    return DieTaken(float(confidence), bool(sure), int(guess), int(face))
