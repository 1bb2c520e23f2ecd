"""Keeping a photo of a looked-at roll (companion/table/dice_photos.py, issue 28): it runs on
the UI's loop when the table taps Use these dice, so what it costs there, and what the
kept photos cost on the tablet's disk.

Rendered 1280x720 tables with their dice (training/dice/synth.py, a seed no model trains
on), each kept in turn into a fresh folder past its cap (300), so the later keeps also
delete the oldest and rewrite the full labels file; beside the floor of the same run,
encoding the frame as JPEG alone (the most a keep could be made cheaper by writing on
another thread).  Then the full folder packed as the zip Settings' share link downloads
(`DicePhotos.pack`, in a worker thread at the share: the loop is not held), three times,
beside copying the same bytes (its floor).  Medians of wall time on this shared 2-core
machine.

    .venv/bin/python -m benchmarks bench_dice_photos
"""

from __future__ import annotations

import shutil
import statistics
import tempfile
import time
from pathlib import Path

import cv2
import numpy as np

from companion.table import dice_photos
from companion.table.dice_photos import DicePhotos
from training.dice.synth import Config, render

SEED = 3  # never a training seed
FRAMES = 12


def main() -> None:
    cfg = Config(sizes=((1280, 720),))
    scenes = [render(np.random.default_rng([SEED, i]), cfg) for i in range(FRAMES)]
    encode, keep = [], []
    with tempfile.TemporaryDirectory() as tmp:
        kept = DicePhotos(Path(tmp) / "dice-photos")
        for n in range(dice_photos.KEEP + 30):
            scene = scenes[n % FRAMES]
            dice = [(d.box, d.face) for d in scene.dice]
            t0 = time.perf_counter()
            cv2.imencode(".jpg", scene.image, [cv2.IMWRITE_JPEG_QUALITY, dice_photos.QUALITY])
            t1 = time.perf_counter()
            kept.keep(scene.image, dice, "bench")
            t2 = time.perf_counter()
            encode.append((t1 - t0) * 1000)
            keep.append((t2 - t1) * 1000)
        rows = kept.rows()
        size = kept.size()
        pack, copy = [], []
        for _ in range(3):
            with tempfile.TemporaryFile() as out:
                t0 = time.perf_counter()
                kept.pack(out)
                t1 = time.perf_counter()
                zipped = out.tell()
            copied = Path(tmp) / "copied"
            t2 = time.perf_counter()
            shutil.copytree(kept.folder, copied)
            t3 = time.perf_counter()
            shutil.rmtree(copied)
            pack.append((t1 - t0) * 1000)
            copy.append((t3 - t2) * 1000)
    full = keep[dice_photos.KEEP :]
    print(f"{len(keep)} rolls kept, 1280x720, {sum(len(s.dice) for s in scenes) / FRAMES:.1f} "
          f"dice a photo on average; {len(rows)} photos left, {size / 1e6:.1f} MB "
          f"({size / len(rows) / 1e3:.0f} KB a photo with its labels)")  # fmt: skip
    print(f"  keep a photo: median {statistics.median(keep):.1f} ms "
          f"(with the folder full: {statistics.median(full):.1f} ms); "
          f"the JPEG encoding alone: {statistics.median(encode):.1f} ms "
          f"(ratio {statistics.median(keep) / statistics.median(encode):.2f})")  # fmt: skip
    print(f"  pack the {len(rows)} photos as the shared zip: median {statistics.median(pack):.0f} ms "
          f"for {zipped / 1e6:.1f} MB; copying the folder alone: {statistics.median(copy):.0f} ms "
          f"(ratio {statistics.median(pack) / statistics.median(copy):.2f})")  # fmt: skip


if __name__ == "__main__":
    main()
