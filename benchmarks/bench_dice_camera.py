"""Plain dice read by the camera (issue 28): the learned reader beside the classical pip
counter, on the same photos in one run.

(a) Synthetic photos held out from training: `training/dice/synth.py` with seed 2 (the
models are trained on seed 1), 1280x720, 1 to 25 dice each.  (b) Real photographs of
`tests/fixtures/dice-real/` (MIT licences, see its SOURCES.md; never trained or tuned on):
each source's part (tomitomi3, chase, ckleiber, spicydicey) and all together; close-ups
laid on a plain table (`training/dice/realset.py` says why), and the face classifier alone
on their labelled boxes.

"learned, unsure <F|<D" answers a die when the face classifier's confidence is at least F
and the detector's score at least D (the model's calibrated rule, vision/dice/reader.py).
Figures, as the issue states its targets: dice read right (of all dice in the photos),
photos fully right, the share of its own answers (dice given a face, not "unsure") that are
wrong, the share answered, and milliseconds per 1280x720 frame (the reading thread's CPU
time, OpenCV on one thread, median and p90: this 2-core machine is shared, and CPU time says
more about the reader than wall time does).  Targets on real photos: >= 95% dice right, <= 1%
wrong among answered, >= 80% photos right, <= 150 ms a frame.

    .venv/bin/python -m benchmarks bench_dice_camera    # BENCH_DICE_PHOTOS=60

`BENCH_DICE_MODELS=DIR` measures the models in DIR instead of the shipped ones, and
`BENCH_DICE_MODELS=OLD:NEW` (folders joined by the path separator) measures each, numbered
[0], [1], ..., on the same photos in one run (a new training run beside the old, before it
replaces them).
"""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import cv2
import numpy as np

from training.dice import baseline, realset
from training.dice.evaluate import Score
from training.dice.synth import Config, render
from vision.dice.reader import MODELS, DiceReader

SEED = 2  # never a training seed (training uses 1, its validation the same seed's 10th images)
Reads = list[tuple[Sequence[float], int | None]]


def _photos(count: int) -> list[tuple[np.ndarray, list[tuple[Sequence[float], int]]]]:
    cfg = Config(sizes=((1280, 720),))
    out = []
    for i in range(count):
        scene = render(np.random.default_rng([SEED, i]), cfg)
        ok, buf = cv2.imencode(".jpg", scene.image, [cv2.IMWRITE_JPEG_QUALITY, scene.quality])
        assert ok
        image = cv2.imdecode(buf, cv2.IMREAD_COLOR)
        out.append((image, [(d.box, d.face) for d in scene.dice]))
    return out


def _run(name: str, read: Callable[[np.ndarray], Reads], photos: list) -> None:
    score = Score()
    ms = []
    for image, truth in photos:
        t0 = time.thread_time()
        reads = read(image)
        ms.append((time.thread_time() - t0) * 1000)
        score.add(reads, truth)
    f = score.figures()
    ms.sort()
    print(
        f"  {name:34} dice right {f['dice_right']:6.1%}  photos right {f['photos_right']:6.1%}  "
        f"wrong among answered {f['wrong_among_answered']:6.1%}  answered {f['answered']:6.1%}  "
        f"missed {f['missed']:6.1%}  ms/frame median {statistics.median(ms):6.1f} "
        f"p90 {ms[int(0.9 * (len(ms) - 1))]:6.1f}",
        flush=True,
    )


def _readers(models: Path) -> tuple[str, Callable[[np.ndarray], Reads], DiceReader]:
    """The model's calibrated rule, its name, and the same model answering every die."""
    reader = DiceReader(models)
    eager = DiceReader(models, face_threshold=0.0)

    def learned(image: np.ndarray) -> Reads:
        return [(d.box, d.face) for d in reader.read(image)]

    return f"unsure <{reader.face_threshold:.4g}|<{reader.found_threshold:.2g}", learned, eager


def main() -> None:
    cv2.setNumThreads(1)
    count = int(os.environ.get("BENCH_DICE_PHOTOS", "60"))
    photos = _photos(count)
    dice = sum(len(t) for _, t in photos)
    chosen = os.environ.get("BENCH_DICE_MODELS")
    folders = [Path(p) for p in chosen.split(os.pathsep)] if chosen else [MODELS]
    models = [(folder, *_readers(folder)) for folder in folders]
    for i, (folder, rule, _, _) in enumerate(models):
        print(f"models [{i}]: {folder} (its rule: {rule})")

    def eager_read(eager: DiceReader) -> Callable[[np.ndarray], Reads]:
        return lambda image: [(d.box, d.face) for d in eager.read(image)]

    print(f"(a) synthetic, held out (seed {SEED}): {count} photos 1280x720, {dice} dice")
    for i, (_, rule, learned, eager) in enumerate(models):
        _run(f"[{i}] learned, {rule}", learned, photos)
        _run(f"[{i}] learned, never unsure", eager_read(eager), photos)
    _run("classical pip counter", baseline.read, photos)
    real = realset.photos()
    parts = [(f"from {name}", [r for r in real if realset.source(r[0]) == name])
             for name in dict.fromkeys(realset.source(r[0]) for r in real)]  # fmt: skip
    for label, part in [*parts, ("all", real)]:
        print(
            f"(b) real photographs (tests/fixtures/dice-real), {label}: {len(part)} photos, "
            f"{sum(len(t) for _, _, t in part)} dice"
        )
        pairs = [(image, truth) for _, image, truth in part]
        for i, (_, rule, learned, eager) in enumerate(models):
            _run(f"[{i}] learned, {rule}", learned, pairs)
            _run(f"[{i}] learned, never unsure", eager_read(eager), pairs)
        _run("classical pip counter", baseline.read, pairs)
        for i, (_, _, _, eager) in enumerate(models):
            right = sum(
                int(p.argmax()) + 1 == face
                for _, image, truth in part
                for p, (_, face) in zip(
                    eager.classify(image, [tuple(map(float, b)) for b, _ in truth]),
                    truth,
                    strict=True,
                )
            )
            dice = sum(len(t) for _, t in pairs)
            print(
                f"  [{i}] face classifier alone, on the labelled boxes: {right}/{dice} dice right"
            )
