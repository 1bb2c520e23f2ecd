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

    python -m training.dice.calibrate --data data/dice-synth --limit 1031
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from pathlib import Path

import cv2

from training.dice.evaluate import THRESHOLDS, Score
from vision.dice.reader import MODELS, DiceReader

FOUND_BARS = (0.0, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8)  # the detector's least scores tried


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m training.dice.calibrate", description=__doc__)
    ap.add_argument("--data", type=Path, required=True)
    ap.add_argument("--models", type=Path, default=MODELS)
    ap.add_argument("--limit", type=int)
    ap.add_argument("--target-wrong", type=float, default=0.01)
    a = ap.parse_args(argv)
    cv2.setNumThreads(1)
    reader = DiceReader(a.models, face_threshold=0.0)
    rows = []
    with open(a.data / "labels.jsonl", encoding="utf-8") as f:
        for i, line in enumerate(f):
            if a.limit and i >= a.limit:
                break
            row = json.loads(line)
            if int(Path(row["image"]).stem) % 10 == 9:
                rows.append(row)
    reads = []
    for row in rows:
        image = cv2.imread(str(a.data / row["image"]))
        truth = [(d["box"], d["face"]) for d in row["dice"]]
        reads.append(([(d.box, d.face, d.confidence, d.found) for d in reader.read(image)], truth))
    chosen, bar, figures = 1.0, 0.0, {"dice_right": -1.0}
    for s in FOUND_BARS:
        for t in THRESHOLDS:
            score = Score()
            for found, truth in reads:
                score.add(
                    [(box, face if c >= t and fs >= s else None) for box, face, c, fs in found],
                    truth,
                )
            f = score.figures()
            if f["wrong_among_answered"] <= a.target_wrong:
                if f["dice_right"] > figures["dice_right"]:
                    chosen, bar, figures = round(float(t), 6), s, f
                break
    path = a.models / "dice_faces.json"
    record = json.loads(path.read_text(encoding="utf-8"))
    record["face_threshold_crops"] = record.get("face_threshold_crops", record["face_threshold"])
    record["face_threshold"] = chosen
    record["found_threshold"] = bar
    record["calibration"] = {
        "photos": len(rows),
        "dice": sum(len(t) for _, t in reads),
        "target_wrong": a.target_wrong,
        **{k: round(v, 4) for k, v in figures.items()},
    }
    path.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(record["calibration"]), "face threshold", chosen, "found threshold", bar)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
