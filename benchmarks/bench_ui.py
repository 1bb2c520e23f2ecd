"""The app's cold start to a drawn home screen, and its resident memory.

Each run is a fresh process (a cold start as a player gets it, minus the disk cache),
timed from before Python starts to the first frame flipped with the home screen on it.
Floors measured in the same run: a bare interpreter, and a bare Kivy app showing a Label
to its first frame, so the figure says what our own code costs on this shared machine.
Memory is VmRSS at the home screen and with a session open; the camera preview cannot be
measured on a machine without a camera and is reported as such.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RUNS = 7
PREVIEW_RUNS = 3
ROOT = Path(__file__).resolve().parent.parent


def _rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def probe(kind: str) -> None:
    """Inside the child: start, draw one frame, print what it took, exit."""
    os.environ.setdefault("SDL_VIDEODRIVER", "offscreen")
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    os.environ.setdefault("KIVY_CLIPBOARD", "dummy")
    os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
    if kind == "refresh":
        from kivy.config import Config

        Config.set("graphics", "maxfps", "0")  # time frames, not the frame-rate cap
    if kind == "python":
        print(json.dumps({"rss": _rss_mb()}))
        return
    from kivy.core.window import Window

    if kind == "bare":
        from kivy.app import App
        from kivy.uix.label import Label

        class Bare(App):
            def build(self):
                return Label(text="Table Companion")

        app = Bare()
    else:
        from companion.ui.app import CompanionApp

        app = CompanionApp()
    out: dict = {}

    def on_flip(*_a: object) -> None:
        if "rss" in out:
            return
        out["rss"] = _rss_mb()
        if kind in ("preview", "refresh"):
            out["rss"] = None
            Window.unbind(on_flip=on_flip)
            (_emulate_preview if kind == "preview" else _measure_refresh)(app, out)
            return
        if kind == "session":
            from companion.games import available_games
            from companion.ui.launch import start_first_game

            start_first_game(app, available_games())
            out["rss"] = None
            Window.unbind(on_flip=on_flip)
            Window.bind(on_flip=lambda *_: (out.update(rss=_rss_mb()), app.stop()))
            return
        app.stop()

    Window.bind(on_flip=on_flip)
    app.run()
    print(json.dumps(out))


REFRESH_EVENTS = (10, 1000)  # commands in the session (1000 is a long evening and more)
REFRESH_REPEATS = 30


def _measure_refresh(app, out: dict) -> None:
    """After a command, the frame redraws the game view and the panel in view: the refresh
    plus the frame that lays out and draws it, timed per tab for a fresh session and a long
    one, against the least a redraw costs (one label changed, one frame; on this machine's
    software GL a full window redraw dominates)."""
    from kivy.base import EventLoop
    from kivy.uix.label import Label

    from companion.games import available_games, get_game

    game = get_game(available_games()[0])
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


class _StandInCapture:
    """No camera here: a capture device (cv2.VideoCapture's interface) sending 1280x720
    frames at 30 fps, so the panel's real scanner threads, decoder and preview run."""

    def __init__(self) -> None:
        import numpy as np

        self.frames = np.random.default_rng(1).integers(0, 255, (8, 720, 1280, 3), np.uint8)
        self.n = 0

    def isOpened(self) -> bool:  # noqa: N802 (OpenCV's name)
        return True

    def set(self, *_args: object) -> bool:
        return True

    def read(self):
        time.sleep(1 / 30)
        self.n += 1
        return True, self.frames[self.n % 8].copy()

    def release(self) -> None:
        pass


def _emulate_preview(app, out: dict) -> None:
    """The Cards panel with a stand-in camera for three seconds: the scanner's threads
    grab and decode 720p frames and the preview shows them."""
    from kivy.clock import Clock

    from companion.games import available_games, get_game
    from vision.frames import CameraSource

    game = get_game(available_games()[0])
    app.start_session(game, {}, ["demo"])
    screen = app.screen("session")
    capture = _StandInCapture()
    screen.panels["cards"].open_source = lambda index: CameraSource(
        index, capture=lambda _i: capture
    )
    screen.show_tab("cards")

    def finish(_dt: float) -> None:
        out["rss"] = _rss_mb()
        out["frames"] = capture.n
        app.stop()

    Clock.schedule_once(finish, 3.0)


def _run_json(kind: str, env: dict[str, str]) -> dict:
    result = subprocess.run(
        [sys.executable, "-m", "benchmarks.bench_ui", "--probe", kind],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    if result.returncode != 0:
        raise RuntimeError(f"probe {kind} failed: {result.stderr[-1500:]}")
    return json.loads(result.stdout.strip().splitlines()[-1])


def _run(kind: str, env: dict[str, str]) -> tuple[float, float]:
    start = time.perf_counter()
    result = subprocess.run(
        [sys.executable, "-m", "benchmarks.bench_ui", "--probe", kind],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    elapsed = time.perf_counter() - start
    if result.returncode != 0:
        raise RuntimeError(f"probe {kind} failed: {result.stderr[-1500:]}")
    data = json.loads(result.stdout.strip().splitlines()[-1])
    return elapsed, data["rss"]


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
    _run("home", env)  # warm the disk cache and Kivy's config folder once
    figures: dict[str, tuple[list[float], list[float]]] = {}
    for kind in ("python", "bare", "home", "session", "preview"):
        times, rss = [], []
        for _ in range(PREVIEW_RUNS if kind == "preview" else RUNS):
            t, r = _run(kind, env)
            times.append(t)
            rss.append(r)
        figures[kind] = (times, rss)
    floor = statistics.median(figures["bare"][0])
    print(
        f"{'start to first frame':34} {'median s':>9} {'p99 s':>8} {'x bare kivy':>12} "
        f"{'RSS MB':>8}"
    )
    labels = {
        "python": "python interpreter (floor)",
        "bare": "bare Kivy app, a Label (floor)",
        "home": "Table Companion, home screen",
        "session": "home + a session opened",
        "preview": "session + emulated camera preview",
    }
    for kind, (times, rss) in figures.items():
        if kind == "preview":
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
    print(
        f"target: resident memory <= 250 MB with the preview: "
        f"{'met' if preview <= 250 else 'NOT met'} ({preview:.0f} MB median; no camera on "
        "this machine, so a 640x480 texture at 30 fps with QR decoding stands in for it)"
    )


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--probe":
        probe(sys.argv[2])
    else:
        main()
