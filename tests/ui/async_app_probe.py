"""Runs the real app on `App.async_run` with a dice source on the same asyncio loop, and
prints what happened as JSON.  Started as its own process by test_async_app.py, because
`App.stop()` closes the one Kivy window a test process has."""

from __future__ import annotations

import asyncio
import json
import os
import sys

os.environ.setdefault("SDL_VIDEODRIVER", "offscreen")
os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_CLIPBOARD", "dummy")


async def main() -> dict:
    from companion.ui.app import CompanionApp
    from companion.ui.launch import run_app
    from tests.ui.memsource import MemorySource

    app = CompanionApp()
    out: dict = {}

    async def table() -> None:
        while app.root is None or not app.root.get_parent_window():
            await asyncio.sleep(0.02)
        out["started_on_home"] = app.root.current == "home"
        # a new game through the wizard: the content loads off the UI loop
        app.go("new")
        app.screen("new").pick("tiny")
        app.screen("new").start()
        for _ in range(200):
            if app.session is not None:
                break
            await asyncio.sleep(0.02)
        session = app.session
        out["started_by_wizard"] = session is not None and app.root.current == "session"
        source = MemorySource("probe tray")
        app.hub.add(source)
        session.do("roll")
        await asyncio.sleep(0.1)
        out["panel_request"] = app.screen("session").panels["dice"].request_text
        source.push(3)  # face index 3 of a d6 reads 4
        for _ in range(200):
            if session.request is None:
                break
            await asyncio.sleep(0.02)
        await asyncio.sleep(0.1)  # a frame for the screen to refresh
        out["last_roll"] = session.state.last_roll
        out["panel_after"] = app.screen("session").panels["dice"].request_text
        out["by"] = session.history()[-1][0].data.get("by")
        # close it, and continue it from the home screen: opened in a worker thread
        sid = session.id
        app.close_session()
        app.go("home")
        app.screen("home").continue_session(sid)
        for _ in range(200):
            if app.session is not None:
                break
            await asyncio.sleep(0.02)
        out["reopened"] = app.session is not None and app.session.id == sid
        out["reopened_roll"] = app.session.state.last_roll if app.session else None
        out["screen"] = app.root.current
        app.stop()

    await asyncio.gather(run_app(app), table())
    out["sources_closed"] = [s.status for s in app.hub.sources] == ["disconnected"]
    return out


if __name__ == "__main__":
    print(json.dumps(asyncio.run(main())))
    sys.exit(0)
