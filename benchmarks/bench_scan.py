"""Card scanning: read rate and milliseconds a frame, on one core, on made and real frames.

Synthetic photos (vision/synthetic.py) of labelled cards on a busy table in eleven
categories, the same frames for every decoder in one run: the project's cascade, and
zxing-cpp, pyzbar and OpenCV's QRCodeDetectorAruco each alone.  The read rate counts
cards (a frame with four cards has four to read); a "wrong" read is a card id that is not
in the frame, and must never happen.  The floor is the BGR-to-grey conversion every
decoder starts with, measured on the same frames.

The seeds (5000 and up) are not the ones the cascade's stages were chosen on (0-19,
checked on 100-119; issue 26's changes on 1000-1009, 3000-3019, 7000-7007 and 8000-8009),
so the figures are not tuned to these frames.

Folder mode (`companion scan DIR`, issue 26): the same frames written to a folder as
JPEG files and read through the command's own `scan_files`, CPU milliseconds a frame
(reading the file included) against zxing-cpp alone on the same files in the same run,
and against the 25 ms a frame the scanner must stay within.

Real photographs (zxing's blackbox folders, photographed by
others, one code each with its text), per folder, and frames of four of them at once, for
the scanner, zxing-cpp alone and pyzbar alone in the same run.  A read counts when the
text is exactly the one the folder expects; "other" counts any other text read (a second
code in the photograph, or a misread); "zx only" counts codes zxing-cpp alone read and the
scanner did not, which must be none.

The live scanner (a camera) decodes under a time budget: the cost of a frame with no code
(a different busy table each frame, and the same table frame after frame), and how long a
card held up to a 30 fps camera takes to be confirmed (the tracker's two reads), both
through the real `Scanner.process`.

Every millisecond here is the decoding thread's CPU time (and the live budget is kept in
it), as on a tablet where the scanner has a core to itself: this machine's 2 cores are
shared by several builds, and wall time there says more about them than about the
scanner.  The decoders are single-threaded (OpenCV is set to one thread).

    .venv/bin/python -m benchmarks scan    # BENCH_SCAN_FRAMES=40, BENCH_SCAN_EC_FRAMES=20
Targets: synthetic at least 97% overall, no wrong card, at most 25 ms a frame on average
(folder mode); photographs: never a code zxing-cpp alone reads missed; empty live frames at
most 10 ms median; a held card read within 1 s.
"""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

SEED = 5000
FOLDER_TARGET_MS = 25.0  # CPU a frame on average, `companion scan DIR` (issue 26)
READ_TARGET = 0.97


# -- real photographs: QR codes photographed by others (zxing's blackbox test folders, see
# tests/vision/photos/NOTICE), each with the text it holds, and frames of four of them side
# by side on a table (several cards at once).  The tests read them too.

PHOTOS = Path(__file__).resolve().parent.parent / "tests" / "vision" / "photos"
SUFFIXES = (".webp", ".png", ".jpg")
MONTAGE = "several (4 photographs a frame)"


@dataclass
class Photo:
    name: str  # folder/file, as the tables list it
    image: np.ndarray  # BGR
    texts: list[str]  # what the codes in it hold


def photo_folders(root: Path = PHOTOS) -> dict[str, list[Photo]]:
    """Each folder of photographs (one code each, its text in <name>.txt) by name."""
    out: dict[str, list[Photo]] = {}
    for expected in sorted(root.glob("*/*/*.txt"), key=lambda p: (p.parent.name, _number(p))):
        image_path = next(
            (expected.with_suffix(s) for s in SUFFIXES if expected.with_suffix(s).is_file()),
            None,
        )
        if image_path is None:
            continue
        image = cv2.imread(str(image_path), cv2.IMREAD_COLOR)
        if image is None:
            raise RuntimeError(f"{image_path} could not be read")
        text = expected.read_bytes().decode("utf-8")
        folder = expected.parent.name
        out.setdefault(folder, []).append(Photo(f"{folder}/{image_path.name}", image, [text]))
    return out


def _number(path: Path) -> tuple[int, str]:
    stem = path.stem
    return (int(stem), stem) if stem.isdigit() else (10**9, stem)


def photo_montages(photos: list[Photo], seed: int = 0) -> list[Photo]:
    """Frames of 1280x720 holding four photographs each (in the order given) on a busy
    table, none enlarged: the multi-card frame, made from real photographs."""
    from vision.synthetic import table_image

    out = []
    for start in range(0, len(photos) - 3, 4):
        group = photos[start : start + 4]
        frame = table_image(np.random.default_rng(seed + start))
        for i, photo in enumerate(group):
            h, w = photo.image.shape[:2]
            scale = min(1.0, 620 / w, 350 / h)
            cell = cv2.resize(photo.image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
            ch, cw = cell.shape[:2]
            x0 = (i % 2) * 640 + (640 - cw) // 2
            y0 = (i // 2) * 360 + (360 - ch) // 2
            frame[y0 : y0 + ch, x0 : x0 + cw] = cell
        names = "+".join(p.name.rsplit("/", 1)[-1] for p in group)
        out.append(Photo(f"{MONTAGE}/{names}", frame, [t for p in group for t in p.texts]))
    return out


def _one_core() -> str:
    """Pin this process (and any decoder threads) to one core, and OpenCV to one thread."""
    cv2.setNumThreads(1)
    if hasattr(os, "sched_setaffinity"):
        core = min(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {core})
        return f"core {core}"
    return "one OpenCV thread (no CPU pinning on this OS)"


def _decoders() -> dict[str, Callable]:
    from vision import decode

    return {
        "scanner": decode.Cascade(),
        "zxing-cpp": lambda f: decode.zxing(decode.gray(f)),
        "pyzbar": lambda f: decode.pyzbar(decode.gray(f)),
        "opencv": lambda f: decode.opencv(decode.gray(f)),
    }


def p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(0.99 * (len(ordered) - 1))))]


def main() -> None:

    from vision.payload import CARD
    from vision.synthetic import CATEGORIES, make_frame

    where = _one_core()
    per_category = int(os.environ.get("BENCH_SCAN_FRAMES", "40"))
    start = time.perf_counter()
    frames = [make_frame(c, SEED + i) for c in CATEGORIES for i in range(per_category)]
    made = time.perf_counter() - start
    print(
        f"{len(frames)} frames ({per_category} per category, 1280x720) made in {made:.1f} s; "
        f"pinned to {where}"
    )

    floor = []
    for f in frames:
        t = time.thread_time()
        cv2.cvtColor(f.image, cv2.COLOR_BGR2GRAY)
        floor.append((time.thread_time() - t) * 1000)
    floor_ms = statistics.mean(floor)

    decoders = _decoders()
    results: dict[str, dict[str, list]] = {}
    for name, decoder in decoders.items():
        decoder(frames[0].image)  # warm up (OpenCV builds its detector on first use)
        rows: dict[str, list] = {c: [0, 0, 0, []] for c in CATEGORIES}  # read, cards, wrong, ms
        for f in frames:
            t = time.thread_time()
            found = decoder(f.image)
            ms = (time.thread_time() - t) * 1000
            ids = {x.reading.card_id for x in found if x.reading.kind == CARD}
            row = rows[f.category]
            row[0] += len(ids & set(f.cards))
            row[1] += len(f.cards)
            row[2] += len(ids - set(f.cards))
            row[3].append(ms)
        results[name] = rows

    names = list(decoders)
    print()
    print(f"{'category':12}" + "".join(f"{n:>22}" for n in names))
    print(f"{'':12}" + "".join(f"{'read   mean ms':>22}" for _ in names))
    for c in CATEGORIES:
        cells = []
        for n in names:
            read, cards, _, ms = results[n][c]
            cells.append(f"{read / cards:>7.1%} {statistics.mean(ms):>8.1f}")
        print(f"{c:12}" + "".join(f"{cell:>22}" for cell in cells))
    print()
    summary = {}
    for n in names:
        rows = results[n].values()
        read = sum(r[0] for r in rows)
        cards = sum(r[1] for r in rows)
        wrong = sum(r[2] for r in rows)
        ms = [m for r in rows for m in r[3]]
        summary[n] = (read / cards, statistics.mean(ms), wrong)
        print(
            f"{n:10} overall {read / cards:6.1%} ({read}/{cards} cards), wrong cards {wrong}; "
            f"ms/frame mean {statistics.mean(ms):.2f} median {statistics.median(ms):.2f} "
            f"p99 {p99(ms):.2f}; mean x{statistics.mean(ms) / floor_ms:.0f} the floor"
        )
    print(
        f"floor (BGR->grey conversion) mean {floor_ms:.3f} ms, median "
        f"{statistics.median(floor):.3f}, p99 {p99(floor):.3f}"
    )
    stats = decoders["scanner"].stats
    total = sum(stats.values())
    print(
        "scanner: stage that answered, share of frames: "
        + ", ".join(f"{k} {v / total:.1%}" for k, v in sorted(stats.items(), key=lambda kv: -kv[1]))
    )
    rate, mean, wrong = summary["scanner"]
    met = rate >= READ_TARGET and wrong == 0
    print(
        f"target (>= {READ_TARGET:.0%} overall, no wrong card): "
        f"{'met' if met else 'NOT met'} ({rate:.1%}, {mean:.2f} ms mean, {wrong} wrong)"
    )
    folder_mode(frames)
    photographs()
    live(frames)
    error_levels(int(os.environ.get("BENCH_SCAN_EC_FRAMES", "20")))
    print(f"total run {time.perf_counter() - start:.0f} s")


def folder_mode(frames: list) -> None:
    """`companion scan DIR` on the frames as JPEG files: CPU ms a frame, file read included,
    the command's own `scan_files` against zxing-cpp alone on the same files."""
    import tempfile

    from companion.cli.commands.scan import scan_files
    from vision import decode
    from vision.payload import CARD

    with tempfile.TemporaryDirectory(prefix="bench-scan-") as folder:
        truth = {}
        for i, f in enumerate(frames):
            path = Path(folder) / f"{i:04}-{f.category}.jpg"
            cv2.imwrite(str(path), f.image, [cv2.IMWRITE_JPEG_QUALITY, 95])
            truth[str(path)] = set(f.cards)
        scan_files([str(next(iter(truth)))])  # warm up: imports, OpenCV's detector
        t = time.thread_time()
        results = scan_files([folder])
        ours = (time.thread_time() - t) * 1000 / len(frames)
        t = time.thread_time()
        alone = {}
        for name in truth:
            image = np.asarray(cv2.imread(name, cv2.IMREAD_COLOR))
            alone[name] = {x.reading.card_id for x in decode.zxing(decode.gray(image))}
        zx = (time.thread_time() - t) * 1000 / len(frames)
    read = wrong = cards = zx_read = 0
    for r in results:
        ids = {c["card"] for c in r["codes"] if c["kind"] == CARD}
        expected = truth[r["file"]]
        read, wrong = read + len(ids & expected), wrong + len(ids - expected)
        cards, zx_read = cards + len(expected), zx_read + len(alone[r["file"]] & expected)
    met = ours <= FOLDER_TARGET_MS and read / cards >= READ_TARGET and wrong == 0
    print()
    print(
        f"folder mode (companion scan DIR, {len(frames)} JPEG files, CPU ms a frame with the "
        f"file read): scanner {ours:.1f} ms, {read / cards:.1%} read, {wrong} wrong; "
        f"zxing-cpp alone {zx:.1f} ms, {zx_read / cards:.1%} read (x{ours / zx:.1f} its cost)"
    )
    print(
        f"target (<= {FOLDER_TARGET_MS:.0f} ms a frame, >= {READ_TARGET:.0%} read, 0 wrong): "
        f"{'met' if met else 'NOT met'} ({ours:.1f} ms against the {FOLDER_TARGET_MS:.0f} ms "
        f"floor, {ours - zx:+.1f} ms on zxing-cpp alone)"
    )


def photographs() -> None:
    """Per folder of real photographs, and frames of four: reads by each decoder."""
    sets = photo_folders()
    every = [p for photos in sets.values() for p in photos]
    sets[MONTAGE] = photo_montages(every)
    decoders = {k: v for k, v in _decoders().items() if k != "opencv"}
    names = list(decoders)
    print()
    print(
        f"real photographs ({len(every)} in {len(sets) - 1} folders, tests/vision/photos/NOTICE), "
        "codes read (share), other texts read, median ms:"
    )
    print(
        f"{'folder':34}{'codes':>6}"
        + "".join(f"{n:>26}" for n in names)
        + f"{'zx only':>9}{'ahead':>8}"
    )
    totals = {n: [0, 0] for n in names}
    codes_all = zx_only_all = 0
    for folder, photos in sets.items():
        read = {n: 0 for n in names}
        other = {n: 0 for n in names}
        ms: dict[str, list[float]] = {n: [] for n in names}
        zx_only: list[str] = []
        codes = 0
        for photo in photos:
            expected = set(photo.texts)
            codes += len(expected)
            texts = {}
            for n, decoder in decoders.items():
                t = time.thread_time()
                found = {f.text for f in decoder(photo.image)}
                ms[n].append((time.thread_time() - t) * 1000)
                texts[n] = found
                read[n] += len(found & expected)
                other[n] += len(found - expected)
            missed = (texts["zxing-cpp"] - texts["scanner"]) & expected
            zx_only += [photo.name] * len(missed)
        cells = "".join(
            f"{read[n]:>5} {read[n] / codes:>6.1%} {other[n]:>3} {statistics.median(ms[n]):>7.1f}"
            for n in names
        )
        ahead = (read["scanner"] - read["zxing-cpp"]) / codes
        print(f"{folder:34}{codes:>6}{cells}{len(zx_only):>9}{ahead * 100:>+7.1f}")
        for name in zx_only:
            print(f"    zxing-cpp alone read {name}, the scanner did not")
        if folder != MONTAGE:
            codes_all += codes
            zx_only_all += len(zx_only)
            for n in names:
                totals[n][0] += read[n]
                totals[n][1] += other[n]
    line = "".join(f"{totals[n][0]:>5} {totals[n][0] / codes_all:>6.1%}{'':>12}" for n in names)
    ahead = (totals["scanner"][0] - totals["zxing-cpp"][0]) / codes_all
    print(f"{'all photographs':34}{codes_all:>6}{line}{zx_only_all:>9}{ahead * 100:>+7.1f}")
    print(
        "target (never miss a code zxing-cpp alone reads): "
        f"{'met' if zx_only_all == 0 else 'NOT met'} ({zx_only_all} missed); "
        f"scanner {ahead * 100:+.1f} points on zxing-cpp alone"
    )
    print(
        f"other texts read (a second code in the photograph, as qrcode-2/16's inner code, "
        f"or a misread): scanner {totals['scanner'][1]}, zxing-cpp alone "
        f"{totals['zxing-cpp'][1]}, pyzbar alone {totals['pyzbar'][1]}"
    )


CAMERA_FPS = 30.0


def live(frames: list) -> None:
    """The live scanner's cost on frames with no code, and a held card's time to read."""
    from vision.decode import Cascade
    from vision.frames import ImageSource
    from vision.payload import CARD
    from vision.scanner import LIVE_BUDGET_MS, Scanner
    from vision.synthetic import table_image
    from vision.tracker import SEEN

    class Camera(ImageSource):
        live = True  # the scanner's settings for a camera, frames fed by hand

    def scanner() -> Scanner:
        cascade = Cascade(budget_ms=LIVE_BUDGET_MS, clock=time.thread_time)
        return Scanner(Camera([]), decoder=cascade)

    print()
    print(f"live scanner, {LIVE_BUDGET_MS:.0f} ms budget a frame on average (CPU ms):")
    tables = [table_image(np.random.default_rng(SEED + i)) for i in range(60)]
    for label, empty in (
        ("empty frames, a new table each", tables * 3),
        ("empty frames, the same table", [tables[0]] * 180),
    ):
        live_scanner = scanner()
        ms = []
        for frame in empty:
            t = time.thread_time()
            live_scanner.process(frame)
            ms.append((time.thread_time() - t) * 1000)
        ms = ms[20:]  # once the stage costs are learnt
        print(
            f"  {label}: median {statistics.median(ms):.2f} ms, mean "
            f"{statistics.mean(ms):.2f}, p99 {p99(ms):.1f}, max {max(ms):.1f} ({len(ms)} frames)"
        )
        if label.startswith("empty frames, a new"):
            empty_median = statistics.median(ms)
    rng = np.random.default_rng(SEED)
    waits: dict[str, list[float]] = {}
    never: dict[str, int] = {}
    for f in frames:
        live_scanner = scanner()
        for _ in range(30):  # the scene before the card: the credit as the camera left it
            live_scanner.process(tables[int(rng.integers(len(tables)))])
        elapsed, wanted = 0.0, set(f.cards)
        for _ in range(int(5 * CAMERA_FPS)):
            noisy = cv2_add_noise(f.image, rng)
            t = time.thread_time()
            seen = live_scanner.process(noisy)
            elapsed += max((time.thread_time() - t) * 1000, 1000 / CAMERA_FPS)
            wanted -= {
                s.reading.card_id for s in seen if s.change == SEEN and s.reading.kind == CARD
            }
            if not wanted:
                waits.setdefault(f.category, []).append(elapsed)
                break
        else:
            never[f.category] = never.get(f.category, 0) + 1
    print("  a card held up to a 30 fps camera, time until every card in view is confirmed:")
    within = total = 0
    for category, values in waits.items():
        total += len(values) + never.get(category, 0)
        within += sum(v <= 1000 for v in values)
        print(
            f"    {category:12} median {statistics.median(values):6.0f} ms, max "
            f"{max(values):6.0f} ms; not within 5 s: {never.get(category, 0)}"
        )
    print(
        f"  target (empty frames <= 10 ms median; a held card read within 1 s): "
        f"{'met' if empty_median <= 10 else 'NOT met'} ({empty_median:.2f} ms); "
        f"{within}/{total} scenes confirmed within 1 s"
    )


def cv2_add_noise(image, rng):
    """The same scene as the next camera frame: a little sensor noise on it."""
    noise = rng.normal(0, 2.0, image.shape).astype(np.int16)
    return np.clip(image.astype(np.int16) + noise, 0, 255).astype(np.uint8)


def error_levels(per_category: int) -> None:
    """Why labels use error correction Q: the scanner's read rate on the same scenes with
    labels printed at each level (segno raises a level when it fits the same version)."""
    from vision import decode
    from vision.payload import CARD
    from vision.synthetic import make_frame

    if per_category <= 0:
        return
    categories = ("small", "blur", "glare", "combined")
    print()
    print(
        f"labels at each QR error correction level, scanner read rate ({per_category} "
        f"frames per category, seeds from {SEED + 1000}):"
    )
    print(f"{'level':8}" + "".join(f"{c:>11}" for c in categories) + f"{'all':>9}")
    for level in "lmqh":
        cascade, cells, read_all, cards_all = decode.Cascade(), [], 0, 0
        for c in categories:
            read = cards = 0
            for i in range(per_category):
                f = make_frame(c, SEED + 1000 + i, level)
                ids = {x.reading.card_id for x in cascade(f.image) if x.reading.kind == CARD}
                read += len(ids & set(f.cards))
                cards += len(f.cards)
            cells.append(f"{read / cards:>11.0%}")
            read_all, cards_all = read_all + read, cards_all + cards
        print(f"{level.upper():8}" + "".join(cells) + f"{read_all / cards_all:>9.1%}")


if __name__ == "__main__":
    main()
