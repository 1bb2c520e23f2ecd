"""Runs the real app on `App.async_run`, lets phones join from the Phones panel (on
loopback), has a scripted phone answer a roll, removes it, and prints what happened as
JSON.  Its own process, like async_app_probe, because `App.stop()` closes the window."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path

from tests.ui.probes import settle

os.environ.setdefault("SDL_VIDEODRIVER", "offscreen")
os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_CLIPBOARD", "dummy")

SHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "ui"


async def main() -> dict:
    import aiohttp
    from kivy.core.window import Window

    from companion.ui.app import CompanionApp
    from companion.ui.launch import run_app
    from companion.ui.panels.phones import PhonesPanel
    from companion.ui.shot import save_window
    from tests.host.phones import ScriptPhone

    PhonesPanel.address = "127.0.0.1"
    app = CompanionApp()
    out: dict = {}

    async def table() -> None:
        await settle(lambda: app.root is not None and app.root.get_parent_window())
        app.go("new")
        app.screen("new").pick("tiny")
        app.screen("new").start()
        await settle(lambda: app.session is not None)
        screen = app.screen("session")
        screen.show_tab("phones")
        panel = screen.panels["phones"]
        panel.secure = False  # the scripted phone speaks plain ws (the LAN tests cover HTTPS)
        panel.ids.toggle.dispatch("on_release")  # "Let phones join"
        await settle(lambda: panel.host is not None)
        host = panel.host
        out["link"] = panel.link
        out["qr"] = panel.qr is not None
        async with aiohttp.ClientSession() as client:
            phone = ScriptPhone(client, host, "probe", "Dana")
            await phone.join()
            await asyncio.sleep(0.2)
            out["listed"] = [r.name for r in panel.ids.list.children if hasattr(r, "phone_id")]
            app.session.do("roll")
            state = await phone.until(lambda s: s["waiting"] is not None)
            reply = await phone.send(
                phone.command("answer", {"values": [4]}, waiting=state["waiting"]["key"])
            )
            out["answered"] = reply["ok"]
            await settle(lambda: app.session.request is None)
            out["score"] = app.session.state.score
            screen.show_tab("phones")  # the roll had brought the dice forward
            Window.size = (800, 1280)
            await asyncio.sleep(0.3)
            shot: dict = {}

            def take(*_args: object) -> None:
                Window.unbind(on_flip=take)
                shot["path"] = save_window(SHOTS / "phones-panel-portrait.png")

            Window.bind(on_flip=take)
            await settle(lambda: "path" in shot)
            row = next(r for r in panel.ids.list.children if hasattr(r, "phone_id"))
            row.panel.remove(row.phone_id)
            refused = await phone.expect("refused")
            out["removed"] = refused["text"]
            await settle(lambda: not host.phones())
            out["after_remove"] = len(host.phones())
            # as the tablet serves a table: HTTPS with its certificate, the QR code the door
            panel.ids.toggle.dispatch("on_release")  # "Stop phones"
            panel.secure = True
            panel.ids.toggle.dispatch("on_release")  # "Let phones join"
            await settle(lambda: panel.host is not None and panel.door is not None)
            out["door_link"] = panel.link
            out["door_status"] = panel.status
            out["fingerprint"] = panel.door.certificate.fingerprint()
            import ssl

            trust = ssl.create_default_context(cafile=str(panel.door.certificate.ca_pem))
            page = f"https://127.0.0.1:{panel.host.port}/?t={panel.host.tokens.join.token}"
            async with client.get(panel.link.split("#")[0]) as door:
                out["door_page"] = door.status
            async with client.get(page, ssl=trust) as secure:
                out["https_page"] = secure.status
        screen.leave()  # leaving the game lets the phones go
        await settle(lambda: panel.host is None and app.root.current == "home")
        await asyncio.sleep(0.3)  # the session screen's leave runs on the next frames
        out["stopped"] = panel.host is None and not panel.hosting
        app.stop()

    await asyncio.gather(run_app(app), table())
    return out


if __name__ == "__main__":
    print(json.dumps(asyncio.run(main())))
    sys.exit(0)
