"""Real phones, as near as a test gets: Debian's Chromium, headless, driven by Selenium,
its camera a fake capture device playing a video of a card; the host on its own asyncio
loop in a thread, as the app runs it, serving on loopback only.

Nothing is downloaded: the browser and its driver are the system's (/usr/bin/chromium and
/usr/bin/chromedriver, installed by scripts/system-packages.sh), and each browser gets a
fresh profile folder.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion.host.server import PhoneHost

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
FLAGS = (
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    "--no-proxy-server",  # loopback only, whatever the environment says
    "--use-fake-device-for-media-stream",
    "--use-fake-ui-for-media-stream",
)


def have_browser() -> bool:
    return os.access(CHROMIUM, os.X_OK) and os.access(CHROMEDRIVER, os.X_OK)


def write_y4m(path: Path, frames: list[np.ndarray], fps: int = 15) -> Path:
    """A Y4M video (4:2:0) of BGR frames, the format Chromium's fake camera reads."""
    h, w = frames[0].shape[:2]
    with open(path, "wb") as out:
        out.write(f"YUV4MPEG2 W{w} H{h} F{fps}:1 Ip A1:1 C420jpeg\n".encode())
        for frame in frames:
            yuv = cv2.cvtColor(frame, cv2.COLOR_BGR2YUV_I420)
            out.write(b"FRAME\n" + yuv.tobytes())
    return path


def card_video(path: Path, card_id: str, seconds: float = 2.0) -> Path:
    """A phone camera's view of one labelled card lying on the table, held still."""
    from vision.synthetic import make_frame

    frame = make_frame("close", 1, cards=[card_id]).image  # held up near the phone
    frame = cv2.resize(frame, (640, 360), interpolation=cv2.INTER_AREA)
    return write_y4m(path, [frame] * int(seconds * 15))


class HostThread:
    """The session and its host on one asyncio loop in a thread, like the app's loop; the
    test reaches the session only through `call`, so it is never touched from two threads."""

    def __init__(self, make_session: Callable[[], Any], **host_args: Any) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.session = self.call(make_session)
        self.host: PhoneHost = self.call(lambda: PhoneHost(self.session, **host_args))
        self.wait(self.host.start())

    def call(self, func: Callable[[], Any]) -> Any:
        future: Future = Future()

        def run() -> None:
            try:
                future.set_result(func())
            except BaseException as exc:  # handed back to the test thread
                future.set_exception(exc)

        self.loop.call_soon_threadsafe(run)
        return future.result(timeout=20)

    def wait(self, coro: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout=20)

    def close(self) -> None:
        self.wait(self.host.stop())
        self.call(self.session.close)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=10)


class Phone:
    """One headless Chromium showing the phone page, 360 px wide."""

    def __init__(
        self,
        profile: Path,
        video: Path | None = None,
        width: int = 360,
        home: Path | None = None,
        dark: bool = False,
    ) -> None:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service

        options = webdriver.ChromeOptions()
        options.binary_location = CHROMIUM
        for flag in FLAGS:
            options.add_argument(flag)
        options.add_argument(f"--user-data-dir={profile}")
        options.add_argument(f"--window-size={max(width, 500)},900")
        options.add_experimental_option(
            "mobileEmulation",
            {"deviceMetrics": {"width": width, "height": 780, "pixelRatio": 1, "touch": True}},
        )
        if video is not None:
            options.add_argument(f"--use-file-for-fake-video-capture={video}")
        if dark:
            options.add_argument("--force-dark-mode")  # prefers-color-scheme: dark
        os.environ.setdefault("SE_AVOID_STATS", "true")
        self.profile = profile
        # HOME holds the NSS database a user's trusted certificates are in (tests/browser/lan)
        env = {**os.environ, "HOME": str(home)} if home is not None else None
        service = Service(CHROMEDRIVER, env=env)
        self.driver = webdriver.Chrome(options=options, service=service)
        self.driver.set_script_timeout(20)

    def open(self, url: str) -> None:
        self.driver.get(url)

    def js(self, script: str, *args: Any) -> Any:
        return self.driver.execute_script(script, *args)

    def text(self, element_id: str) -> str:
        return self.js(f"return document.getElementById('{element_id}').textContent")

    def until(self, check: Callable[[], Any], seconds: float = 15, what: str = "") -> Any:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            value = check()
            if value:
                return value
            time.sleep(0.05)
        # what the phone shows instead (the door's page has no message line)
        shown = self.js("return location.pathname + ': ' + document.body.innerText.slice(0, 300)")
        raise AssertionError(f"the phone never showed {what or check}: {shown!r}")

    def join_as(self, name: str) -> None:
        """Give the name the page asks for at join (once per phone), then wait to be in."""
        asked = "return !document.getElementById('join').hidden"
        joined = "return document.getElementById('link').textContent === 'joined'"
        self.until(lambda: self.js(asked) or self.js(joined), what="the name asked")
        if self.js(asked):
            self.js(
                "document.getElementById('join-name').value = arguments[0];"
                "document.getElementById('join-go').click();",
                name,
            )
        self.until(lambda: self.js(joined), what="joined")

    def tap(self, css: str) -> None:
        """Tap a button once it takes taps (a new keypad holds its keys a moment)."""
        ready = "const b = document.querySelector(arguments[0]); return !!b && !b.disabled"
        self.until(lambda: self.js(ready, css), seconds=10, what=f"{css} ready for a tap")
        self.js("document.querySelector(arguments[0]).click()", css)

    def close(self) -> None:
        self.driver.quit()
        shutil.rmtree(self.profile, ignore_errors=True)
