"""The app's cold start to a drawn home screen, and its resident memory.

Each run is a fresh process (a cold start as a player gets it, minus the disk cache),
timed from before Python starts to the first frame flipped with the home screen on it.
Floors measured in the same run: a bare interpreter, and a bare Kivy app showing a Label
to its first frame, so the figure says what our own code costs on this shared machine.
Memory is VmRSS at the home screen, with a session open, and with the Cards panel's camera
preview running; this machine has no camera, so a stand-in capture device hands synthetic
1280x720 card photos (vision/synthetic.py) at 30 fps to the real panel, scanner and decoder.

A probe that goes wrong says so and exits non-zero: an exception anywhere in it (a Kivy
callback, whatever the app's exception handler makes of it, or a scanner thread), a figure
it could not take, or a probe still running after `PROBE_DEADLINE` seconds (then every
thread's stack is printed).
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
from pathlib import Path

RUNS = 7
KINDS = ("python", "bare", "bare-decoding", "home", "session", "preview", "kivy-camera", "refresh")
PREVIEW_RUNS = 3
PREVIEW_SECONDS = 3.0  # the preview measured this long once the first frame is shown
PROBE_DEADLINE = 60.0  # a probe still running after this prints every stack and exits 1
EXIT_DEADLINE = 10.0  # ... and one that printed its figures has this long to exit
ROOT = Path(__file__).resolve().parent.parent


def _rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS in /proc/self/status: resident memory cannot be measured")


class ProbeFailed(Exception):
    """A probe could not take its figures; said in words, exit status 1."""


def probe(kind: str) -> None:
    """Inside the child: start, draw one frame, print what it took, exit; anything that
    goes wrong is printed and the exit status is 1, and a probe never waits forever.

    Kivy sends `sys.stderr` to its log file once imported, so the probe's words and stacks
    go to the process's own stderr (`sys.__stderr__`), where the parent reads them."""
    err = sys.__stderr__
    faulthandler.dump_traceback_later(PROBE_DEADLINE, exit=True, file=err)
    try:
        out = _probe(kind)
        if not isinstance(out.get("rss"), float):
            raise ProbeFailed(f"no resident memory figure: {out}")
    except BaseException as exc:  # SystemExit too: the probe's own words, then status 1
        if not isinstance(exc, ProbeFailed | SystemExit):
            traceback.print_exc(file=err)
        print(f"probe {kind} failed: {exc}", file=err, flush=True)
        os._exit(1)  # no waiting on whatever threads the failure left running
    print(json.dumps(out), flush=True)
    faulthandler.dump_traceback_later(EXIT_DEADLINE, exit=True, file=err)  # a hang at exit


def _probe(kind: str) -> dict:
    os.environ.setdefault("SDL_VIDEODRIVER", "offscreen")
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    os.environ.setdefault("KIVY_CLIPBOARD", "dummy")
    os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
    if kind not in KINDS:
        raise ProbeFailed(f"no probe called '{kind}'")
    if kind == "refresh":
        from kivy.config import Config

        Config.set("graphics", "maxfps", "0")  # time frames, not the frame-rate cap
    if kind == "python":
        return {"rss": _rss_mb()}
    from kivy.base import ExceptionHandler, ExceptionManager
    from kivy.clock import Clock
    from kivy.core.window import Window

    if kind in ("bare", "bare-decoding"):
        from kivy.app import App
        from kivy.uix.label import Label

        if kind == "bare-decoding":  # the floor of any Kivy app that reads QR codes
            import vision.scanner  # noqa: F401 (OpenCV, numpy, zxing-cpp: what it costs)

        class Bare(App):
            def build(self):
                return Label(text="Table Companion")

        app = Bare()
    else:
        from companion.ui.app import CompanionApp

        app = CompanionApp()
    out: dict = {}
    failures: list[str] = []

    def fail(text: str) -> None:
        """Remember what went wrong and stop the app on the next frame (stopping inside
        Kivy's exception handling or from another thread is not safe)."""
        failures.append(text)
        Clock.schedule_once(lambda _dt: app.stop(), 0)

    class Loud(ExceptionHandler):
        """Any exception in the main loop fails the probe, even one the app's own handler
        lets pass (its RefusalHandler shows a RuleError on the session screen and carries
        on, which here would leave the probe waiting for a frame that never comes)."""

        def handle_exception(self, inst: BaseException) -> int:
            fail("".join(traceback.format_exception(inst)))
            return ExceptionManager.RAISE

    def thread_failed(args: threading.ExceptHookArgs) -> None:
        name = args.thread.name if args.thread else "a thread"
        trace = traceback.format_exception(args.exc_type, args.exc_value, args.exc_traceback)
        fail(f"in {name}:\n" + "".join(trace))

    loud = Loud()
    ExceptionManager.add_handler(loud)
    threading.excepthook = thread_failed

    def first_frame(*_a: object) -> None:
        Window.unbind(on_flip=first_frame)
        if kind == "preview":
            _emulate_preview(app, out)
        elif kind == "kivy-camera":
            _emulate_kivy_camera(app, out)
        elif kind == "refresh":
            _measure_refresh(app, out)
        elif kind == "session":
            from companion.games import available_games
            from companion.ui.launch import start_first_game

            start_first_game(app, available_games())
            Window.bind(on_flip=session_frame)
        else:
            out["rss"] = _rss_mb()
            app.stop()

    def session_frame(*_a: object) -> None:
        Window.unbind(on_flip=session_frame)
        out["rss"] = _rss_mb()
        app.stop()

    Window.bind(on_flip=first_frame)
    try:
        app.run()
    finally:
        ExceptionManager.remove_handler(loud)
    if failures:
        raise ProbeFailed("\n".join(failures))
    return out


REFRESH_EVENTS = (10, 1000)  # commands in the session (1000 is a long evening and more)
REFRESH_REPEATS = 30
REFRESH_GAME = "tiny"  # its `add` command is the change timed (tests/fixtures/tinygame.py)


def _measure_refresh(app, out: dict) -> None:
    """After a command, the frame redraws the game view and the panel in view: the refresh
    plus the frame that lays out and draws it, timed per tab for a fresh session and a long
    one, against the least a redraw costs (one label changed, one frame; on this machine's
    software GL a full window redraw dominates)."""
    from kivy.base import EventLoop
    from kivy.uix.label import Label

    from companion.games import get_game

    game = get_game(REFRESH_GAME)
    probe_label = Label(text="0")
    app.root.current_screen.add_widget(probe_label)
    floor = []
    for i in range(REFRESH_REPEATS):  # the least a redraw costs: one label's text, one frame
        t = time.perf_counter()
        probe_label.text = str(i + 1)
        EventLoop.idle()
        floor.append(time.perf_counter() - t)
    app.root.current_screen.remove_widget(probe_label)
    out["floor"] = floor
    for n in REFRESH_EVENTS:
        session = app.library.new(game, {}, ["demo"])
        for _ in range(n):
            session.do("add", {"n": 1})
        app.attach(session)
        screen = app.screen("session")
        for tab in ("dice", "log", "fix"):
            screen.show_tab(tab)
            times = []
            EventLoop.idle()
            for _ in range(REFRESH_REPEATS):
                session.do("add", {"n": 1})  # a command changes the state (not timed)
                t = time.perf_counter()
                screen.refresh_now()
                EventLoop.idle()  # the frame: clock, layout, drawing
                times.append(time.perf_counter() - t)
            out[f"{tab}-{n}"] = times
    out["rss"] = _rss_mb()
    app.stop()


HOLD_FRAMES = 30  # each card is held up for a second, as a player shows one


class _StandInCapture:
    """No camera here: a capture device (cv2.VideoCapture's interface) sending 1280x720
    synthetic photos of cards on a table at 30 fps, each card held up for a second, so the
    panel's real scanner threads, decoder, voting and preview run on real pictures."""

    def __init__(self, cards: list[str]) -> None:
        from vision.synthetic import make_frame

        self.photos = [make_frame("nominal", seed, cards=[c]).image for seed, c in enumerate(cards)]
        self.n = 0

    @property
    def mb(self) -> float:
        return sum(p.nbytes for p in self.photos) / 2**20

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


def _emulate_preview(app, out: dict) -> None:
    """The session's Cards panel with a stand-in camera: once its preview shows a frame,
    PREVIEW_SECONDS of the scanner's threads grabbing and decoding 720p frames and the
    preview showing them, sampling resident memory; the probe fails if the camera did not
    open, nothing was decoded, no card was seen or nothing reached the preview."""
    from kivy.clock import Clock

    from companion.games import available_games
    from companion.ui.launch import start_first_game
    from vision.frames import CameraSource
    from vision.synthetic import CARD_IDS

    start_first_game(app, available_games())
    session = app.session
    cards = [c for c in CARD_IDS if session.content.by_id(c) is not None]  # this game's cards
    cards = (cards or [c for c in CARD_IDS if c.startswith(f"{session.game.id}/")])[:3]
    capture = _StandInCapture(cards)
    screen = app.screen("session")
    panel = screen.panels["cards"]
    panel.open_source = lambda index: CameraSource(index, capture=lambda _i: capture)
    screen.show_tab("cards")
    samples: list[float] = []
    started: list[float] = []
    opening_deadline = time.monotonic() + PROBE_DEADLINE / 2

    def sample(_dt: float) -> bool:
        scanner = panel.scanner
        if not started:
            if panel._shown is None:  # not yet a frame in the preview
                if panel.camera_note and not panel._opening:
                    raise ProbeFailed(
                        f"the Cards panel did not show the camera: {panel.camera_note}"
                    )
                if time.monotonic() > opening_deadline:
                    raise ProbeFailed("the Cards panel's preview never showed a frame")
                return True
            started.append(time.monotonic())
            out["grabbed-before"] = capture.n
        samples.append(_rss_mb())
        if time.monotonic() - started[0] < PREVIEW_SECONDS:
            return True
        if scanner is None or scanner.error:
            raise ProbeFailed(f"the scanner stopped: {panel.camera_note or scanner}")
        seconds = time.monotonic() - started[0]
        out["rss"] = max(samples)
        out["rss-samples"] = len(samples)
        out["grabbed-fps"] = (capture.n - out.pop("grabbed-before")) / seconds
        out["decoded"] = scanner.stats.frames
        out["decode-ms"] = scanner.stats.mean_ms
        out["seen"] = list(panel.seen)
        out["stand-in-mb"] = capture.mb
        if not scanner.stats.frames or not panel.seen:
            raise ProbeFailed(
                f"the scanner decoded {scanner.stats.frames} frames, saw {panel.seen}"
            )
        app.stop()
        return False

    Clock.schedule_interval(sample, 0.1)


def _emulate_kivy_camera(app, out: dict) -> None:
    """The Cards panel with frames from Kivy's camera provider (the Android way in): a
    stand-in provider plays card photographs read from `BENCH_UI_PHOTOS` (made by the
    parent, so making them costs this process nothing), each held up for a second."""
    import cv2
    from kivy.clock import Clock

    from companion.games import available_games
    from companion.ui.launch import start_first_game
    from tests.ui.photo_camera import PhotoCamera
    from vision.frames import SourceError

    start_first_game(app, available_games())
    folder = Path(os.environ["BENCH_UI_PHOTOS"])
    photos = [cv2.imread(str(p)) for p in sorted(folder.glob("*.png"))]
    PhotoCamera.photos = [p for p in photos for _ in range(HOLD_FRAMES)]
    screen = app.screen("session")
    panel = screen.panels["cards"]

    def refuse(index: int):
        raise SourceError(f"camera {index} could not be opened")

    panel.open_source = refuse  # as on Android: OpenCV cannot open the camera
    panel.kivy_camera = lambda: PhotoCamera
    screen.show_tab("cards")
    samples: list[float] = []
    started: list[float] = []

    def sample(_dt: float) -> bool:
        scanner = panel.scanner
        if not started:
            if scanner is None or panel.preview is None or panel.preview.texture is None:
                if panel.camera_note and not panel._opening:
                    raise ProbeFailed(
                        f"the Cards panel did not show the camera: {panel.camera_note}"
                    )
                return True
            started.append(time.monotonic())
        samples.append(_rss_mb())
        if time.monotonic() - started[0] < PREVIEW_SECONDS:
            return True
        out["rss"] = max(samples)
        out["decoded"] = scanner.stats.frames
        out["seen"] = list(panel.seen)
        out["stand-in-mb"] = sum(p.nbytes for p in photos) / 2**20
        if not scanner.stats.frames or not panel.seen:
            raise ProbeFailed(
                f"the scanner decoded {scanner.stats.frames} frames, saw {panel.seen}"
            )
        app.stop()
        return False

    Clock.schedule_interval(sample, 0.1)


def _card_photos(folder: Path) -> None:
    """The Kivy camera probe's photographs: 720p frames of the tiny game's cards."""
    import cv2

    from vision.synthetic import make_frame

    for i, card in enumerate(("tiny/token/copper", "tiny/token/silver", "tiny/token/gold")):
        cv2.imwrite(str(folder / f"{i}.png"), make_frame("nominal", i, cards=[card]).image)


def _run_json(kind: str, env: dict[str, str]) -> dict:
    """One probe in a fresh process; its figures, or RuntimeError with its own words."""
    try:
        result = subprocess.run(
            [sys.executable, "-m", "benchmarks.bench_ui", "--probe", kind],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=PROBE_DEADLINE + EXIT_DEADLINE + 10,  # the probe's own watchdog is first
        )
    except subprocess.TimeoutExpired as exc:
        err = exc.stderr.decode(errors="replace") if isinstance(exc.stderr, bytes) else exc.stderr
        raise RuntimeError(f"probe {kind} did not finish: {(err or '')[-3000:]}") from None
    if result.returncode != 0:
        raise RuntimeError(
            f"probe {kind} failed (exit status {result.returncode}): {result.stderr[-3000:]}"
        )
    try:
        data = json.loads(result.stdout.strip().splitlines()[-1])
    except (IndexError, json.JSONDecodeError):
        raise RuntimeError(
            f"probe {kind} printed no figures: {result.stdout[-500:]}{result.stderr[-1500:]}"
        ) from None
    if not isinstance(data.get("rss"), float):
        raise RuntimeError(f"probe {kind} gave no resident memory figure: {data}")
    return data


def _run(kind: str, env: dict[str, str]) -> tuple[float, dict]:
    """A cold start: the probe's wall time from before Python starts, and its figures."""
    start = time.perf_counter()
    data = _run_json(kind, env)
    return time.perf_counter() - start, data


def _p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]


def main() -> None:
    home = tempfile.mkdtemp(prefix="bench-ui-")
    env = {
        **os.environ,
        "COMPANION_HOME": home,
        "KIVY_HOME": str(Path(home) / "kivy"),
        "SDL_VIDEODRIVER": "offscreen",
        "PYTHONPATH": str(ROOT),
    }
    env.pop("DISPLAY", None)
    if "tests.fixtures.tinygame" not in env.get("COMPANION_EXTRA_GAMES", ""):
        env["COMPANION_EXTRA_GAMES"] = "tests.fixtures.tinygame:GAME"
        env["COMPANION_CONTENT_PATH"] = str(ROOT / "tests" / "fixtures" / "content")
    photos = Path(home) / "photos"
    photos.mkdir()
    _card_photos(photos)
    env["BENCH_UI_PHOTOS"] = str(photos)
    _run("home", env)  # warm the disk cache and Kivy's config folder once
    figures: dict[str, tuple[list[float], list[float]]] = {}
    previews: list[dict] = []
    for kind in ("python", "bare", "bare-decoding", "home", "session", "preview", "kivy-camera"):
        times, rss = [], []
        for _ in range(PREVIEW_RUNS if kind in ("preview", "kivy-camera") else RUNS):
            t, data = _run(kind, env)
            times.append(t)
            rss.append(data["rss"])
            if kind == "preview":
                previews.append(data)
        figures[kind] = (times, rss)
    floor = statistics.median(figures["bare"][0])
    print(
        f"{'start to first frame':34} {'median s':>9} {'p99 s':>8} {'x bare kivy':>12} "
        f"{'RSS MB':>8}"
    )
    labels = {
        "python": "python interpreter (floor)",
        "bare": "bare Kivy app, a Label (floor)",
        "bare-decoding": "bare Kivy + OpenCV, zxing (floor)",
        "home": "Table Companion, home screen",
        "session": "home + a session opened",
        "preview": "session + camera preview (stand-in)",
    }
    for kind, (times, rss) in figures.items():
        if kind in ("preview", "kivy-camera"):
            continue
        med = statistics.median(times)
        print(
            f"{labels[kind]:34} {med:9.3f} {_p99(times):8.3f} {med / floor:12.2f} "
            f"{statistics.median(rss):8.1f}"
        )
    home_med = statistics.median(figures["home"][0])
    print(
        f"target: cold start to home <= 2.0 s: {'met' if home_med <= 2.0 else 'NOT met'} "
        f"({home_med:.2f} s median of {RUNS})"
    )
    refresh = _run_json("refresh", env)
    print()
    floor_ms = statistics.median(refresh["floor"]) * 1000
    print(f"{'redraw after a command':34} {'median ms':>9} {'p99 ms':>8} {'x floor':>12}")
    print(
        f"{'one label changed + frame (floor)':34} {floor_ms:9.2f} "
        f"{_p99(refresh['floor']) * 1000:8.2f} {1.0:12.2f}"
    )
    for n in REFRESH_EVENTS:
        for tab in ("dice", "log", "fix"):
            times = refresh[f"{tab}-{n}"]
            med = statistics.median(times) * 1000
            print(
                f"{f'{tab} panel, {n} commands in the log':34} {med:9.2f} "
                f"{_p99(times) * 1000:8.2f} {med / max(floor_ms, 1e-6):12.1f}"
            )
    print("(a frame at 60 fps has 16.7 ms for everything)")
    print()
    preview = statistics.median(figures["preview"][1])
    print(f"{labels['preview']:34} {'':9} {'':8} {'':12} {preview:8.1f}")
    listed = sorted({words for p in previews for words in p["seen"]})
    print(
        f"  each run {PREVIEW_SECONDS:.0f} s, peak of {previews[0]['rss-samples']} samples; "
        f"{statistics.median(p['grabbed-fps'] for p in previews):.0f} frames/s grabbed, "
        f"{statistics.median(p['decoded'] for p in previews):.0f} decoded at "
        f"{statistics.median(p['decode-ms'] for p in previews):.1f} ms each;\n"
        f"  the panel listed: {', '.join(listed)}; the stand-in's own photos: "
        f"{previews[0]['stand-in-mb']:.1f} MB"
    )
    kivy_camera = statistics.median(figures["kivy-camera"][1])
    print(f"{'session + Kivy camera (stand-in)':34} {'':9} {'':8} {'':12} {kivy_camera:8.1f}")
    print(
        "  frames from Kivy's camera provider (Android's way in): a stand-in provider plays\n"
        "  card photographs read from files into its texture, which the preview shows as it is"
    )
    print(
        f"target: resident memory <= 200 MB with the preview: "
        f"{'met' if preview <= 200 else 'NOT met'} ({preview:.0f} MB median of {PREVIEW_RUNS}; "
        f"with Kivy's camera {kivy_camera:.0f} MB;\n"
        "  no camera here, so a stand-in capture device sends 1280x720 synthetic card photos\n"
        "  at 30 fps to the real Cards panel, scanner threads, decoder and preview)"
    )


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--probe":
        probe(sys.argv[2])
    else:
        main()
