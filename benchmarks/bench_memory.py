"""Memory with the Cards panel's camera preview running, beside bare Kivy, in one run.

Each figure is a fresh child process: bare Kivy showing a Label; the floor issue 26
measures the preview against (the preview at most 1.2 times it), which is the same bare
Kivy app with the scanner's libraries imported (OpenCV, numpy, zxing-cpp, pyzbar and
libzbar) and each of its three decoders run once on a 720p photograph (so their lazily
made tables and detectors exist, as they do in the preview's process), and nothing
else: no frames, threads or buffers of the scanner's; the app with a session open; the
same with its Cards panel showing and the camera off (Settings); that panel with the
camera preview running from OpenCV's capture (a desktop, a Raspberry Pi: a stand-in
capture device playing card photographs, so the panel's real scanner threads, decoder,
voting and preview run); and the same with frames from Kivy's camera provider (the way in
on an Android tablet, where OpenCV cannot open the camera).

What is counted, and when: resident (RSS), proportional (PSS) and unique (USS, pages no
other process shares) memory from the kernel's /proc/self/smaps_rollup, sampled ten times
a second for `SECONDS` once the screen is drawn (the session opened, the preview showing
a frame) and `SETTLE` has passed; a run's figure is the median of its samples, and the
table gives the median of `RUNS` runs, interleaved so the machine's drift falls on every
kind alike.  The ratio is of RSS (PSS depends on which other processes map the same
libraries at that moment).

This machine has no GPU: Kivy draws through Mesa's software renderer (llvmpipe), whose
rasterizing threads queue whole frames of binned geometry in malloc's heap while the
drawing thread runs ahead of them: 50-190 MB more with a session open, varying with the
machine's load from run to run (heaptrack: 248 of 302 MB at the peak allocated inside
swrast_dri.so under Kivy's VertexBatch.draw), a cost of the stand-in for a GPU, not of
the app.  The children therefore rasterize on the drawing thread (`LP_NUM_THREADS=0`,
printed; set it in the environment to measure otherwise), in every kind, the floor too.
And the children's window is offscreen (an EGL pbuffer), whose buffer swap flushes
nothing (a window's swap hands the frame to the screen, a tablet's to its GPU): the
renderer kept binning frame after frame, about 26 KB a draw call, until something read
a texture back or its scene filled (36 MB), so the session screen held up to that much
more than its frame; each child flushes GL before every swap, as a window's swap does
(`BENCH_MEMORY_FLUSH=1`, printed; 0 to measure without).

The stand-in's photographs are made by the parent and read from files, so making them
costs the measured process nothing; what it holds (the photographs, as a camera driver
holds its buffers) is printed.  `--detail` adds where the memory is: the process's
mappings grouped (the GL driver, OpenCV and its libraries, numpy, malloc's heap,
anonymous maps) and its threads.
"""

from __future__ import annotations

import faulthandler
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from collections import Counter
from pathlib import Path

RUNS = int(os.environ.get("BENCH_MEMORY_RUNS", "5"))
SECONDS = float(os.environ.get("BENCH_MEMORY_SECONDS", "4"))
SETTLE = 1.0  # seconds after the screen is drawn (and the session opened) before sampling
KINDS = ("bare", "bare-decoding", "session", "cards", "preview", "kivy-camera")
PREVIEW_KINDS = ("preview", "kivy-camera")
TARGET_MB = 200.0
TARGET_RATIO = 1.2  # the preview at most this times bare Kivy + the scanner's libraries
HOLD_FRAMES = 30  # each card is held up for a second, as a player shows one
DEADLINE = 90.0  # a probe still running after this prints every stack and exits 1
ROOT = Path(__file__).resolve().parent.parent
RENDERER = {"LP_NUM_THREADS": "0"}  # Mesa's software renderer draws on Kivy's thread
# 1: GL is flushed before each swap, as a window's swap does (the offscreen one does not)
FLUSH = os.environ.get("BENCH_MEMORY_FLUSH", "1")
LABELS = {
    "bare": "bare Kivy app, a Label",
    "bare-decoding": "floor: bare Kivy + decoders, used once",
    "session": "Table Companion, a session open",
    "cards": "session, Cards panel, camera off",
    "preview": "session + preview (OpenCV capture)",
    "kivy-camera": "session + preview (Kivy's camera)",
}
# Mappings grouped by what they are, for --detail: (group, substrings of the file name)
GROUPS = (
    ("GL driver (software here)", ("libLLVM", "swrast", "libgallium", "libGL", "libEGL", "dri")),
    ("OpenCV and its libraries", ("cv2", "libav", "libsw", "libQt", "opencv", "openblasp")),
    ("numpy", ("numpy", "_multiarray", "scipy_openblas", "libgfortran")),
    ("zxing-cpp, zbar", ("zxing", "zbar")),
    ("Python", ("python", ".cpython-")),
    ("SDL, fonts, images", ("SDL", "freetype", "libpng", "libjpeg", "libwebp", "libtiff")),
    ("malloc heap", ("[heap]",)),
    ("anonymous maps (large buffers, arenas, stacks)", ("[anon]", "[stack]")),
)


def memory_mb() -> tuple[float, float, float]:
    """(RSS, PSS, USS) of this process in MB, from the kernel's own accounting: USS is
    its private pages, clean and dirty (what ending the process would free)."""
    kb: Counter[str] = Counter()
    for line in Path("/proc/self/smaps_rollup").read_text().splitlines():
        key, _, rest = line.partition(":")
        if key in ("Rss", "Pss", "Private_Clean", "Private_Dirty"):
            kb[key] = int(rest.split()[0])
    return kb["Rss"] / 1024, kb["Pss"] / 1024, (kb["Private_Clean"] + kb["Private_Dirty"]) / 1024


def mappings_mb() -> dict[str, float]:
    """This process's resident memory by `GROUPS`, in MB (the rest under "other")."""
    by_name: Counter[str] = Counter()
    name = ""
    for line in Path("/proc/self/smaps").read_text().splitlines():
        head = line.split(maxsplit=5)
        if head and "-" in head[0] and not head[0].endswith(":"):
            name = head[5].strip() if len(head) > 5 else "[anon]"
        elif head and head[0] == "Rss:":
            by_name[name] += int(head[1])
    out: Counter[str] = Counter()
    for mapped, kb in by_name.items():
        group = next((g for g, keys in GROUPS if any(k in mapped for k in keys)), "other")
        out[group] += kb / 1024
    return dict(out)


class ProbeFailed(Exception):
    """A probe could not take its figures; said in words, exit status 1."""


def probe(kind: str) -> None:
    """Inside the child: run `kind`, print its figures as JSON; any failure exits 1."""
    err = sys.__stderr__
    faulthandler.dump_traceback_later(DEADLINE, exit=True, file=err)
    try:
        out = _probe(kind)
    except BaseException as exc:
        if not isinstance(exc, ProbeFailed | SystemExit):
            traceback.print_exc(file=err)
        print(f"probe {kind} failed: {exc}", file=err, flush=True)
        os._exit(1)
    print(json.dumps(out), flush=True)
    faulthandler.dump_traceback_later(10, exit=True, file=err)


def _probe(kind: str) -> dict:
    for key, value in (
        ("SDL_VIDEODRIVER", "offscreen"),
        ("KIVY_NO_ARGS", "1"),
        ("KIVY_CLIPBOARD", "dummy"),
        ("KIVY_NO_CONSOLELOG", "1"),
    ):
        os.environ.setdefault(key, value)
    if kind not in KINDS:
        raise ProbeFailed(f"no probe called '{kind}'")
    from kivy.app import App
    from kivy.base import ExceptionHandler, ExceptionManager
    from kivy.clock import Clock
    from kivy.core.window import Window

    if kind.startswith("bare"):
        from kivy.uix.label import Label

        if kind == "bare-decoding":  # the floor of any Kivy app that reads QR codes
            _decoders_used_once()

        class Bare(App):
            def build(self):
                return Label(text="Table Companion")

        app: App = Bare()
    else:
        from companion.ui.app import CompanionApp

        app = CompanionApp()
    out: dict = {}
    failures: list[str] = []

    def fail(text: str) -> None:
        failures.append(text)
        Clock.schedule_once(lambda _dt: app.stop(), 0)

    class Loud(ExceptionHandler):
        def handle_exception(self, inst: BaseException) -> int:
            fail("".join(traceback.format_exception(inst)))
            return ExceptionManager.RAISE

    def thread_failed(args: threading.ExceptHookArgs) -> None:
        trace = traceback.format_exception(args.exc_type, args.exc_value, args.exc_traceback)
        fail(f"in {args.thread.name if args.thread else 'a thread'}:\n" + "".join(trace))

    loud = Loud()
    ExceptionManager.add_handler(loud)
    threading.excepthook = thread_failed

    def first_frame(*_a: object) -> None:
        Window.unbind(on_flip=first_frame)
        try:
            panel = None
            if kind != "bare" and kind != "bare-decoding":
                from companion.games import available_games
                from companion.ui.launch import start_first_game

                start_first_game(app, available_games())
                if kind in PREVIEW_KINDS:
                    panel = _open_preview(app, kind, out)
                elif kind == "cards":  # the same screen with the camera off (Settings)
                    app.settings.camera = -1
                    app.screen("session").show_tab("cards")
            _sample(app, kind, panel, out, fail)
        except Exception:
            fail(traceback.format_exc())

    Window.bind(on_flip=first_frame)
    if os.environ.get("BENCH_MEMORY_FLUSH", "1") != "0":
        from kivy.graphics.opengl import glFlush

        # bound handlers run before the window's own (the swap): each frame is flushed
        Window.bind(on_flip=lambda *_a: glFlush())
    try:
        app.run()
    finally:
        ExceptionManager.remove_handler(loud)
    if failures:
        raise ProbeFailed("\n".join(failures))
    return out


def _decoders_used_once() -> None:
    """The scanner's libraries as any app reading QR codes has them: imported (OpenCV,
    numpy, zxing-cpp, pyzbar and libzbar) and each decoder run once on a photograph, so
    their lazily made tables and detectors are there, as in the preview's process."""
    from vision import decode

    grey = decode.gray(_photos()[0])
    for stage in (decode.zxing, decode.pyzbar, decode.opencv):
        stage(grey)


def _photos() -> list:
    import cv2

    folder = Path(os.environ["BENCH_MEMORY_PHOTOS"])
    return [cv2.imread(str(p)) for p in sorted(folder.glob("*.png"))]


class _StandInCapture:
    """No camera here: a capture device (cv2.VideoCapture's interface) playing card
    photographs at 30 fps, each held up for a second, a fresh buffer each frame as a
    capture device returns."""

    def __init__(self, photos: list) -> None:
        self.photos, self.n = photos, 0

    def isOpened(self) -> bool:  # noqa: N802 (OpenCV's name)
        return True

    def set(self, *_args: object) -> bool:
        return True

    def read(self):
        time.sleep(1 / 30)
        self.n += 1
        return True, self.photos[(self.n // HOLD_FRAMES) % len(self.photos)].copy()

    def release(self) -> None:
        pass


def _open_preview(app, kind: str, out: dict):
    """The session's Cards panel showing, its camera a stand-in playing photographs."""
    from vision.frames import CameraSource, SourceError

    photos = _photos()
    out["stand-in-mb"] = sum(p.nbytes for p in photos) / 2**20
    screen = app.screen("session")
    panel = screen.panels["cards"]
    if kind == "preview":
        capture = _StandInCapture(photos)
        panel.open_source = lambda index: CameraSource(index, capture=lambda _i: capture)
    else:
        from tests.ui.photo_camera import PhotoCamera

        PhotoCamera.photos = [p for p in photos for _ in range(HOLD_FRAMES)]

        def refuse(index: int):
            raise SourceError(f"camera {index} could not be opened")

        panel.open_source = refuse  # as on Android: OpenCV cannot open the camera
        panel.kivy_camera = lambda: PhotoCamera
    screen.show_tab("cards")
    return panel


def _sample(app, kind: str, panel, out: dict, fail) -> None:
    """Sample memory for `SECONDS` once the preview shows a frame (or at once), then stop."""
    from kivy.clock import Clock

    samples: list[tuple[float, float, float]] = []
    started: list[float] = []
    give_up = time.monotonic() + DEADLINE / 2
    settle = time.monotonic() + SETTLE

    def showing() -> bool:
        if time.monotonic() < settle:
            return False
        if panel is None:
            return True
        if panel.camera_note and not panel._opening:
            raise ProbeFailed(f"the Cards panel did not show the camera: {panel.camera_note}")
        preview = panel.preview
        return panel.scanner is not None and preview is not None and preview.texture is not None

    def tick(_dt: float) -> bool:
        try:
            if not started:
                if not showing():
                    if time.monotonic() > give_up:
                        raise ProbeFailed("the Cards panel's preview never showed a frame")
                    return True
                started.append(time.monotonic())
            samples.append(memory_mb())
            if time.monotonic() - started[0] < SECONDS:
                return True
            out["rss"] = statistics.median(s[0] for s in samples)
            out["pss"] = statistics.median(s[1] for s in samples)
            out["uss"] = statistics.median(s[2] for s in samples)
            out["peak"] = max(s[0] for s in samples)
            out["samples"] = len(samples)
            out["threads"] = len(os.listdir("/proc/self/task"))
            if os.environ.get("BENCH_MEMORY_DETAIL"):
                out["groups"] = mappings_mb()
            if panel is not None:
                scanner = panel.scanner
                if scanner is None or not scanner.stats.frames or not panel.seen:
                    raise ProbeFailed(f"the scanner read nothing: {panel.seen}, {scanner}")
                out["decoded"] = scanner.stats.frames
                out["seen"] = list(panel.seen)
            app.stop()
        except Exception:
            fail(traceback.format_exc())
        return False

    Clock.schedule_interval(tick, 0.1)


def _card_photos(folder: Path) -> None:
    """The stand-in cameras' photographs: 720p frames of the tiny game's cards."""
    import cv2

    from vision.synthetic import make_frame

    for i, card in enumerate(("tiny/token/copper", "tiny/token/silver", "tiny/token/gold")):
        cv2.imwrite(str(folder / f"{i}.png"), make_frame("nominal", i, cards=[card]).image)


def _run(kind: str, env: dict[str, str]) -> dict:
    """One probe in a fresh process, with a home of its own: the sessions earlier probes
    opened would otherwise be listed on the home screen (a row each) of every later one,
    so the kinds measured late in a run would hold more."""
    home = tempfile.mkdtemp(prefix=f"{kind}-", dir=env["BENCH_MEMORY_HOMES"])
    result = subprocess.run(
        [sys.executable, "-m", "benchmarks.bench_memory", "--probe", kind],
        cwd=ROOT,
        env={**env, "COMPANION_HOME": home},
        capture_output=True,
        text=True,
        timeout=DEADLINE + 30,
    )
    if result.returncode != 0:
        raise RuntimeError(f"probe {kind} failed ({result.returncode}): {result.stderr[-3000:]}")
    return json.loads(result.stdout.strip().splitlines()[-1])


def main(detail: bool = False) -> None:
    home = tempfile.mkdtemp(prefix="bench-memory-")
    env = {
        **os.environ,
        "COMPANION_HOME": home,
        "KIVY_HOME": str(Path(home) / "kivy"),
        "SDL_VIDEODRIVER": "offscreen",
        "PYTHONPATH": os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p),
    }
    env.pop("DISPLAY", None)
    for key, value in RENDERER.items():
        env.setdefault(key, value)
    if "tests.fixtures.tinygame" not in env.get("COMPANION_EXTRA_GAMES", ""):
        env["COMPANION_EXTRA_GAMES"] = "tests.fixtures.tinygame:GAME"
        env["COMPANION_CONTENT_PATH"] = str(ROOT / "tests" / "fixtures" / "content")
    if detail:
        env["BENCH_MEMORY_DETAIL"] = "1"
    env["BENCH_MEMORY_HOMES"] = str(Path(home) / "homes")
    Path(env["BENCH_MEMORY_HOMES"]).mkdir()
    photos = Path(home) / "photos"
    photos.mkdir()
    _card_photos(photos)
    env["BENCH_MEMORY_PHOTOS"] = str(photos)
    _run("bare", env)  # warm the disk cache and Kivy's config folder once
    kinds = [k for k in os.environ.get("BENCH_MEMORY_KINDS", "").split(",") if k] or KINDS
    runs: dict[str, list[dict]] = {k: [] for k in kinds}
    for _ in range(RUNS):
        for kind in kinds:
            runs[kind].append(_run(kind, env))
    env["BENCH_MEMORY_FLUSH"] = FLUSH
    renderer = ", ".join(f"{k}={env[k]}" for k in (*RENDERER, "BENCH_MEMORY_FLUSH"))
    print(
        f"{'process':38} {'RSS MB':>7} {'range':>13} {'PSS MB':>7} {'USS MB':>7} {'peak':>7} "
        f"{'threads':>7}  (medians of {RUNS} runs, each the median of {SECONDS:.0f} s of "
        f"samples; {renderer})"
    )
    for kind in kinds:
        got = runs[kind]
        rss = [r["rss"] for r in got]
        print(
            f"{LABELS[kind]:38} {statistics.median(rss):7.1f} "
            f"{f'{min(rss):.0f}-{max(rss):.0f}':>13} "
            f"{statistics.median(r['pss'] for r in got):7.1f} "
            f"{statistics.median(r['uss'] for r in got):7.1f} "
            f"{statistics.median(r['peak'] for r in got):7.1f} "
            f"{statistics.median(r['threads'] for r in got):7.0f}"
        )
    print(
        "  floor: a bare Kivy app (one Label) with OpenCV, numpy, zxing-cpp, pyzbar and "
        "libzbar imported and each decoder run once on a 720p photograph; no frames, "
        "threads or buffers of the scanner's"
    )
    previews = {k: statistics.median(r["rss"] for r in runs[k]) for k in PREVIEW_KINDS if k in runs}
    if previews:
        shown = [r for k in previews for r in runs[k]]
        print(
            f"  the panel listed: {', '.join(sorted({s for r in shown for s in r['seen']}))}; "
            f"the stand-ins hold their photographs ({shown[0]['stand-in-mb']:.1f} MB, as a "
            "camera driver holds its buffers)"
        )
        print(
            f"target: resident memory <= {TARGET_MB:.0f} MB with the preview: "
            f"{'met' if max(previews.values()) <= TARGET_MB else 'NOT met'} ("
            + ", ".join(f"{LABELS[k].split('(')[1][:-1]} {v:.0f} MB" for k, v in previews.items())
            + ")"
        )
    if previews and "bare-decoding" in runs:
        floor = statistics.median(r["rss"] for r in runs["bare-decoding"])
        worst = max(previews.values())
        print(
            f"target: the preview <= {TARGET_RATIO:.1f}x bare Kivy + the scanner's libraries "
            f"({floor:.0f} MB, same run): {'met' if worst <= TARGET_RATIO * floor else 'NOT met'}"
            " ("
            + ", ".join(
                f"{LABELS[k].split('(')[1][:-1]} {v / floor:.2f}x" for k, v in previews.items()
            )
            + (
                f"; the app with the camera off {statistics.median(r['rss'] for r in runs['cards']) / floor:.2f}x"
                if "cards" in runs
                else ""
            )
            + ")"
        )
    if detail:
        print()
        print(f"{'where the memory is (RSS MB, median)':46}" + "".join(f"{k:>14}" for k in kinds))
        groups = [g for g, _ in GROUPS] + ["other"]
        for group in groups:
            cells = [statistics.median(r["groups"].get(group, 0.0) for r in runs[k]) for k in kinds]
            print(f"{group[:46]:46}" + "".join(f"{c:14.1f}" for c in cells))


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--probe":
        probe(sys.argv[2])
    else:
        main(detail="--detail" in sys.argv)
