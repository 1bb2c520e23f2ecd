"""Choose the dice reader's "unsure" threshold end to end, on the validation photos.

The face classifier's own threshold (train.py) is chosen on crops of labelled boxes; the
app reads the detector's boxes, finds that are no die, and dice the detector cut badly.  So
this runs the exported models through `vision.dice.reader.DiceReader` (OpenCV only, no
torch) on the validation photos (every tenth image of the training seed, never trained on,
never the benchmark's seed) and writes into `dice_faces.json` the rule that answers the most
dice with at most `--target-wrong` of them wrong: a least face confidence and a least
detector score (`found_threshold`; a loose box or a find that is no die often gets a sure
face, and a low detector score gives it away).  For each detector bar tried, the least face
confidence that meets the target; then the pair that reads the most dice right.

With `--real DIR` (training/dice/real) the calibration split of the real photographs there
(never trained on; laid on a table as the evaluation set's crops are, see
training/dice/realset.py) is read too, and the rule must meet the target on the rendered
photos and on the real ones, each on its own; the pair chosen reads the most dice right in
both together.

    python -m training.dice.calibrate --data data/dice-synth --limit 1031 --real training/dice/real
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from pathlib import Path

import cv2

from training.dice import realset
from training.dice.evaluate import THRESHOLDS, Score
from training.dice.labels import is_val, load_labels
from vision.dice.reader import MODELS, VIEWS, DiceReader

REAL_TABLE = 7  # the real crops' table factor, as in the evaluation set

FOUND_BARS = (0.0, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8)  # the detector's least scores tried


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m training.dice.calibrate", description=__doc__)
    ap.add_argument(
        "--data", type=Path, nargs="+", required=True,
        help="synth folders; several make one mixed validation set (each folder's tenths)",
    )  # fmt: skip
    ap.add_argument("--models", type=Path, default=MODELS)
    ap.add_argument(
        "--at", type=float, nargs=2, metavar=("FACE", "FOUND"),
        help="print the figures at this rule (face confidence, detector score); write nothing",
    )  # fmt: skip
    ap.add_argument("--limit", type=int, help="the first N images of each folder")
    ap.add_argument("--target-wrong", type=float, default=0.01)
    ap.add_argument(
        "--views", type=int, choices=VIEWS,
        help="read each die this many ways (turns and mirrors); kept in the record (default: the record's, else 1)",
    )  # fmt: skip
    ap.add_argument("--real", type=Path, help="a folder of real photos with a calibration split")
    ap.add_argument(
        "--found-bars", type=float, nargs="+", default=FOUND_BARS,
        help="the detector's least scores tried (a finer grid than the default's 0.1 steps)",
    )  # fmt: skip
    a = ap.parse_args(argv)
    cv2.setNumThreads(1)
    reader = DiceReader(a.models, face_threshold=0.0, views=a.views)
    rows = [row for row in load_labels(a.data, a.limit) if is_val(row)]
    reads = []
    for row in rows:
        image = cv2.imread(row["path"])
        truth = [(d["box"], d["face"]) for d in row["dice"]]
        reads.append(([(d.box, d.face, d.confidence, d.found) for d in reader.read(image)], truth))
    sets = [reads]
    cal: list = []
    if a.real:
        record_real = json.loads((a.real / "labels.json").read_text(encoding="utf-8"))
        cal = [r for r in record_real["photos"] if r.get("split") == "calibration"]
        real_reads = []
        for row in cal:
            # a crop laid on a table as the evaluation set's are; a whole table's photo is 1
            image, truth = realset.laid(a.real, row, int(row.get("table", REAL_TABLE)))
            found = [(d.box, d.face, d.confidence, d.found) for d in reader.read(image)]
            real_reads.append((found, truth))
        sets.append(real_reads)
    if a.at:  # only the figures at a rule given, nothing written
        print(json.dumps(_at_rule(a.data, rows, reads, cal, sets, *a.at)))
        return 0
    chosen, bar, right = 1.0, 0.0, -1.0
    for s in a.found_bars:
        for t in THRESHOLDS:
            scores = [_score(part, t, s) for part in sets]
            if all(sc.figures()["wrong_among_answered"] <= a.target_wrong for sc in scores):
                both = sum(sc.right for sc in scores) / max(1, sum(sc.dice for sc in scores))
                if both > right:
                    chosen, bar, right = round(float(t), 6), s, both
                break
    path = a.models / "dice_faces.json"
    record = json.loads(path.read_text(encoding="utf-8"))
    record["face_threshold_crops"] = record.get("face_threshold_crops", record["face_threshold"])
    record["face_threshold"] = chosen
    record["found_threshold"] = bar
    record["views"] = reader.views
    record["calibration"] = {
        "target_wrong": a.target_wrong,
        "found_bars": list(a.found_bars),
        **_at_rule(a.data, rows, reads, cal, sets, chosen, bar),
        "dice_right": round(right, 4),
    }
    path.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(record["calibration"]), "face threshold", chosen, "found threshold", bar)
    return 0


def _at_rule(
    data: list[Path], rows: list, reads: list, cal: list, sets: list, face: float, found: float
) -> dict:
    """The figures at one rule: the rendered photos', each folder's when they are several,
    the real calibration dice's, and each real source's counts."""
    rendered = _score(reads, face, found)
    out: dict = {
        "photos": len(rows),
        "dice": rendered.dice,
        **_rounded(rendered),
        "rendered": _rounded(rendered),
    }
    if len(data) > 1:  # a mixed set: each look at the rule chosen on them all
        for folder in data:
            part = [r for r, row in zip(reads, rows, strict=True)
                    if Path(row["path"]).is_relative_to(folder)]  # fmt: skip
            out[str(folder)] = {"photos": len(part), **_rounded(_score(part, face, found))}
    if cal:
        out["real"] = {"photos": len(cal), **_rounded(_score(sets[1], face, found))}
        for source in sorted({r.get("source", "") for r in cal}):
            part = [rr for rr, r in zip(sets[1], cal, strict=True) if r.get("source", "") == source]
            sc = _score(part, face, found)
            out["real"][source] = {
                "dice": sc.dice, "right": sc.right, "answered": sc.answered, "wrong": sc.wrong,
            }  # fmt: skip
    return out


def _rounded(score: Score) -> dict[str, float]:
    return {k: round(v, 4) for k, v in score.figures().items()}


def _score(reads: list, face_bar: float, found_bar: float) -> Score:
    """The photos' reads scored at a rule: a die is answered when its face confidence is at
    least `face_bar` and its detector score at least `found_bar`."""
    score = Score()
    for found, truth in reads:
        score.add(
            [(box, face if c >= face_bar and fs >= found_bar else None)
             for box, face, c, fs in found],
            truth,
        )  # fmt: skip
    return score


if __name__ == "__main__":
    raise SystemExit(main())
