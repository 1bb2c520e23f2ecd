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
        if kind == "session":
            from companion.games import available_games, get_game

            game = get_game(available_games()[0])
            app.start_session(game, {}, ["demo"])
            out["rss"] = None
            Window.unbind(on_flip=on_flip)
            Window.bind(on_flip=lambda *_: (out.update(rss=_rss_mb()), app.stop()))
            return
        app.stop()

    Window.bind(on_flip=on_flip)
    app.run()
    print(json.dumps(out))


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
    for kind in ("python", "bare", "home", "session"):
        times, rss = [], []
        for _ in range(RUNS):
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
    }
    for kind, (times, rss) in figures.items():
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
    print("camera preview memory: not measured (no camera on this machine)")


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--probe":
        probe(sys.argv[2])
    else:
        main()
