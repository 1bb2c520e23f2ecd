"""Runs the real app on `App.async_run`, keeps two photos of rolls, and carries them off
by touch from Settings: "Share the photos with a computer", a download from the link the
screen shows (HTTPS on loopback, trusting the table's certificate), "Stop sharing the
photos", a second share that leaving Settings closes.  Screenshots at Largest text in
landscape, portrait and on a phone.  Prints what happened as JSON.  Its own process, like
phones_probe, because the share runs on the app's asyncio loop and `App.stop()` closes the
window."""

from __future__ import annotations

import asyncio
import io
import json
import os
import re
import sys
import zipfile
from pathlib import Path

from tests.ui.probes import settle

os.environ.setdefault("SDL_VIDEODRIVER", "offscreen")
os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_CLIPBOARD", "dummy")

SHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "ui"
SIZES = {"landscape": (1280, 800), "portrait": (800, 1280), "phone": (412, 915)}


async def tap(widget) -> None:
    """A finger down and up on the widget, scrolled into view first as a player would."""
    from kivy.tests.common import UnitTestTouch
    from kivy.uix.scrollview import ScrollView

    from tests.ui.kivyharness import walk_up

    scroller = next((w for w in walk_up(widget.parent) if isinstance(w, ScrollView)), None)
    if scroller is not None:
        scroller.scroll_to(widget, padding=10, animate=False)
    await asyncio.sleep(0.2)
    touch = UnitTestTouch(*widget.to_window(*widget.center))
    touch.touch_down()
    await asyncio.sleep(0.05)
    touch.touch_up()
    await asyncio.sleep(0.1)


async def shoot(name: str) -> None:
    from kivy.core.window import Window

    from companion.ui.shot import save_window

    shot: dict = {}

    def take(*_args: object) -> None:
        Window.unbind(on_flip=take)
        shot["path"] = save_window(SHOTS / f"{name}.png")

    Window.bind(on_flip=take)
    await settle(lambda: "path" in shot)


async def main() -> dict:
    import aiohttp
    import numpy as np
    from kivy.core.window import Window

    from companion.host.tls import table_certificate
    from companion.ui.app import CompanionApp
    from companion.ui.launch import run_app
    from companion.ui.screens.settings import SettingsScreen

    SettingsScreen.share_address = "127.0.0.1"
    app = CompanionApp()
    out: dict = {}

    async def table() -> None:
        try:
            await steps()
        finally:
            app.stop()  # a step that fails still ends the app, and its error is printed

    async def steps() -> None:
        await settle(lambda: app.root is not None and app.root.get_parent_window())
        photos = app.hub.camera.photos
        for face in (3, 5):
            frame = np.full((720, 1280, 3), 60 + face * 20, np.uint8)
            photos.keep(frame, [((100, 100, 160, 160), face), ((300, 90, 360, 150), 1)], "m")
        app.settings.text_size = "Largest"
        app.save_settings()
        app.go("settings")
        screen = app.screen("settings")
        await asyncio.sleep(0.3)
        button = screen.ids.share_photos
        out["button_before"] = button.text
        await tap(button)
        await settle(lambda: screen.share is not None and screen.share_qr is not None)
        words = screen.ids.share_words.text
        out["words"] = words
        out["qr"] = screen.ids.share_code.texture is not None and screen.ids.share_code.height > 0
        out["button_sharing"] = button.text
        delete = next(
            w for w in screen.walk() if getattr(w, "text", "") == "Delete the kept photos"
        )
        out["delete_disabled"] = delete.disabled  # the photos being shared stay till it stops
        # what a person reads off the screen: the address to type, then the pass, a line each
        out["site"], secret = screen.ids.share_typed.text.split("\n")
        out["link"] = f"{out['site']}/?t={secret.lower()}"  # typed in either case
        certificate = table_certificate("127.0.0.1")
        out["code_shown"] = certificate.fingerprint() in words
        for name, size in SIZES.items():
            Window.size = size
            await asyncio.sleep(0.4)
            words_shown = screen.ids.share_typed
            words_shown.parent.parent.scroll_to(words_shown, padding=40, animate=False)
            await asyncio.sleep(0.3)
            await shoot(f"settings-share-photos-{name}-largest")
            typed = screen.ids.share_typed  # each line whole: none wider than the screen
            out.setdefault("typed_fits", {})[name] = typed.texture_size[0] <= typed.width
        Window.size = SIZES["landscape"]
        await asyncio.sleep(0.3)
        import ssl

        trust = ssl.create_default_context(cafile=str(certificate.ca_pem))
        async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(ssl=trust)) as client:
            async with client.get(out["site"]) as asked:
                out["asked"] = asked.status
            async with client.get(out["link"]) as page:
                out["page"] = page.status
                text = await page.text()
            href = re.search(r"id='download' href='([^']+)'", text)
            async with client.get(f"{out['site']}/{href.group(1) if href else ''}") as zipped:
                body = await zipped.read()
            with zipfile.ZipFile(io.BytesIO(body)) as z:
                out["zipped"] = sorted(n for n in z.namelist() if n.endswith(".jpg"))
            await tap(button)  # "Stop sharing the photos"
            await settle(lambda: screen.share is None)
            await asyncio.sleep(0.2)
            out["button_after"] = button.text
            try:
                async with client.get(out["link"]) as late:
                    out["after_stop"] = late.status
            except aiohttp.ClientConnectionError:
                out["after_stop"] = "closed"
            # shared again, then the table goes back to its game: the link closes with it
            await tap(button)
            await settle(lambda: screen.share is not None)
            second = screen.share.url
            await tap(screen.ids.back)
            await settle(lambda: app.root.current != "settings")
            await asyncio.sleep(0.3)
            try:
                async with client.get(second) as late:
                    out["after_leave"] = late.status
            except aiohttp.ClientConnectionError:
                out["after_leave"] = "closed"

    await asyncio.gather(run_app(app), table())
    return out


if __name__ == "__main__":
    print(json.dumps(asyncio.run(main())))
    sys.exit(0)
