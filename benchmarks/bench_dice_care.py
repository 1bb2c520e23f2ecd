"""The table's own care (companion/table/dice_tally.py) on real dice (issue 28): what the
camera answers wrong at a table over many rolls, with its model's rule alone and with the
care a table's corrections teach it.

Each real source is one table: its photos are rolls in turn, each taken with a look (the
table corrects every die the camera read wrong, as a group at the table would, and taps
every unsure one), so each die read becomes a `DieTaken` in that table's record, and the
next roll is read with the bar the record sets.  A die the camera answers is right, wrong
(the table had to catch it) or unsure; a read that is no labelled die is left out of the
record (the table would move the die or shoot again) and counted with the wrong ones, as
is a right face on a loose box (IoU under 0.5, as `bench_dice_camera` scores), though the
table, seeing its face right, corrects nothing.
Photos in file order (chase's in time order) and in 20 seeded shuffles (the mean); nothing
is chosen on these figures: the bar's rule is the issue's 1%.

(a) the real calibration split of `training/dice/real`; (b) the evaluation set,
`tests/fixtures/dice-real` (measuring only; nothing is tuned on either here).

    .venv/bin/python -m benchmarks bench_dice_care      # BENCH_DICE_MODELS=DIR as for bench_dice_camera
"""

from __future__ import annotations

import json
import os
import random
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from companion.table.dice_tally import CameraTally, DieTaken
from training.dice import realset
from training.dice.evaluate import matches
from vision.dice.reader import MODELS, DiceReader, DieRead

SHUFFLES = 20
LOOSE = 0.1  # a read on a die, however loose its box, for what the table corrects
REAL_TRAINING = Path(__file__).resolve().parent.parent / "training" / "dice" / "real"
Truth = Sequence[tuple[Sequence[float], int]]


@dataclass
class Tally:
    right: int = 0
    wrong: int = 0
    unsure: int = 0

    @property
    def answered(self) -> int:
        return self.right + self.wrong


def play(rolls: list[tuple[list[DieRead], Truth]], careful: bool, model: str) -> Tally:
    """One table's rolls in turn: what the camera answered, with or without its care."""
    record = CameraTally()
    out = Tally()
    for reads, truth in rolls:
        boxes, labelled = [d.box for d in reads], [box for box, _ in truth]
        which = matches(boxes, labelled)  # as bench_dice_camera scores: IoU >= 0.5
        # the die the table sees a read on, loose box and all (a box on no die at all is
        # moved off or shot again, and never taken)
        seen = matches(boxes, labelled, least=LOOSE)
        taken = []
        for i, d in enumerate(reads):
            bar = record.bar(model, d.face) if careful and d.face is not None else 0.0
            face = d.face if d.face is not None and d.confidence >= bar else None
            if face is None:
                out.unsure += 1
            elif i in which and face == truth[which[i]][1]:
                out.right += 1
            else:
                out.wrong += 1
            if i in seen:
                taken.append(DieTaken(d.confidence, d.face is not None, d.best, truth[seen[i]][1]))
        record.note(model, taken)
    return out


def _tables(named: list[tuple[str, np.ndarray, Truth]], reader: DiceReader) -> dict:
    tables: dict[str, list] = {}
    for name, image, truth in named:
        tables.setdefault(realset.source(name), []).append((reader.read(image), truth))
    return tables


def _calibration(reader: DiceReader) -> list[tuple[str, np.ndarray, Truth]]:
    record = json.loads((REAL_TRAINING / "labels.json").read_text(encoding="utf-8"))
    rows = [r for r in record["photos"] if r.get("split") == "calibration"]
    return [(r["image"], *realset.laid(REAL_TRAINING, r, int(r.get("table", 7)))) for r in rows]


def _report(title: str, tables: dict, model: str) -> None:
    """Each table's line, then all tables' together (file order)."""
    print(title, flush=True)
    total = {careful: Tally() for careful in (False, True)}
    for name, rolls in tables.items():
        words = []
        for careful, sum_ in total.items():
            first = play(rolls, careful, model)
            shuffled = [play(random.Random(seed).sample(rolls, len(rolls)), careful, model)
                        for seed in range(SHUFFLES)]  # fmt: skip
            sum_.right, sum_.wrong = sum_.right + first.right, sum_.wrong + first.wrong
            wrong = statistics.mean(t.wrong for t in shuffled)
            right = statistics.mean(t.right for t in shuffled)
            words.append(
                f"{_words(careful, first)} (shuffled: {right:.1f} right, {wrong:.1f} wrong)"
            )
        _line(name, sum(len(t) for _, t in rolls), words)
    dice = sum(len(t) for rolls in tables.values() for _, t in rolls)
    _line("all", dice, [_words(careful, t) for careful, t in total.items()])


def _words(careful: bool, t: Tally) -> str:
    return (
        f"{'with care' if careful else 'model alone'}: {t.right} right, {t.wrong} wrong of "
        f"{t.answered} answered ({t.wrong / max(1, t.answered):.1%})"
    )


def _line(name: str, dice: int, words: list[str]) -> None:
    print(f"  {name:11} {dice:4} dice | " + " | ".join(words), flush=True)


def main() -> None:
    cv2.setNumThreads(1)
    folder = Path(os.environ.get("BENCH_DICE_MODELS", str(MODELS)).split(os.pathsep)[-1])
    reader = DiceReader(folder)
    print(f"models: {folder} (rule {reader.face_threshold:.4g}, {reader.found_threshold:.2g})")
    _report(
        "(a) real calibration dice, each source a table",
        _tables(_calibration(reader), reader),
        reader.signature,
    )
    _report(
        "(b) the evaluation set, each source a table",
        _tables(realset.photos(), reader),
        reader.signature,
    )


if __name__ == "__main__":
    main()
