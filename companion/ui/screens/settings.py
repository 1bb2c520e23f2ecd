"""Settings: theme, text size, camera and content packs, stored per user.  And for the
camera's dice, all kept on this tablet: what the table's own dice taught it (with a way to
forget it), whether photos of the table's rolls are kept to train it (with a way to delete
them, and a link that carries them to a computer while Settings shows it), and which model
reads them.

Every choice is a toggle so nothing needs a keyboard; each tap is saved at once (a tablet
app may be killed at any moment) and restyles the app immediately.  Which die plays which
role belongs to a session, not to the user: see companion/ui/panels/assign.py.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from pathlib import Path

from kivy.app import App
from kivy.lang import Builder
from kivy.properties import BooleanProperty, ObjectProperty, StringProperty
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget

from companion.content.pack import available_packs
from companion.games import available_games, get_game
from companion.host.photo_share import PhotoShare
from companion.host.server import lan_address
from companion.host.tls import table_certificate
from companion.ui.panels.phones import qr_texture
from companion.ui.settings import TEXT_SIZES, THEMES, UserSettings
from companion.ui.widgets import BigToggle, Body, clear_and_fill

Builder.load_file(str(Path(__file__).with_suffix(".kv")))

CAMERAS = {-1: "No camera", 0: "Camera 1", 1: "Camera 2"}
# each grid of toggles in settings.kv: the setting its taps choose, and the words of each choice
Choices = Mapping[str, str] | Mapping[bool, str] | Mapping[int, str]  # a value: its words
CHOICES: list[tuple[str, str, Choices]] = [
    ("themes", "theme", {t: t.capitalize() for t in THEMES}),
    ("sizes", "text_size", {k: k for k in TEXT_SIZES}),
    ("cameras", "camera", CAMERAS),
    ("awake", "keep_awake", {True: "Keep the screen on", False: "Let it sleep"}),
    ("cues", "cues", {True: "Sound and buzz", False: "Quiet"}),
    (
        "dice_photos",
        "keep_dice_photos",
        {False: "Keep no photos", True: "Keep photos of our rolls"},
    ),
]


class SettingsScreen(Screen):
    camera_dice_words = StringProperty("")  # what the table's own dice taught the camera
    camera_dice_known = BooleanProperty(False)  # there is anything to forget
    dice_photos_words = StringProperty("")  # the photos of the table's rolls kept to train on
    dice_photos_kept = BooleanProperty(False)  # there are photos to delete
    dice_model_words = StringProperty("")  # which model reads the camera's dice
    sharing = BooleanProperty(False)  # the kept photos' link is open
    share_words = StringProperty("")  # where to open it, or why it could not open
    share_qr = ObjectProperty(None, allownone=True)  # the link as a QR code
    share_typed = StringProperty("")  # the address and the pass, a line each, to type
    share: PhotoShare | None = None
    share_address: str | None = None  # None: this tablet's LAN address (tests set loopback)
    share_secure = True  # HTTPS with the table's certificate: the pass is in the link

    def on_pre_enter(self, *args: object) -> None:
        self.refresh()

    def on_leave(self, *args: object) -> None:
        """The photos are shared only while the tablet shows their link."""
        self.stop_sharing()

    def _choices(self, grid: str, setting: str, items: Choices) -> None:
        """One toggle a choice of the user's `setting` in the grid `grid`, each tap saved."""
        current = getattr(App.get_running_app().settings, setting)
        toggles = []
        for value, text in items.items():
            t = BigToggle(text=text, group=setting, state="down" if value == current else "normal")
            t.bind(on_release=lambda _t, v=value: self.change(**{setting: v}))
            toggles.append(t)
        clear_and_fill(self.ids[grid], toggles)

    def refresh(self) -> None:
        s = App.get_running_app().settings
        for grid, setting, items in CHOICES:
            self._choices(grid, setting, items)
        self._packs(s)
        camera = App.get_running_app().hub.camera
        self.camera_dice_words = camera.record_words()
        self.camera_dice_known = bool(camera.tally.dice)
        self.dice_photos_words = camera.photos_words()
        self.dice_photos_kept = bool(camera.photos.rows())
        self.dice_model_words = camera.model.words()

    def forget_camera_dice(self) -> None:
        """New dice, or another camera: what the old ones taught no longer holds."""
        App.get_running_app().hub.camera.tally.forget()
        self.refresh()

    def delete_dice_photos(self) -> None:
        """The group's photos are theirs to take back: gone from the tablet at one tap."""
        App.get_running_app().hub.camera.photos.forget()
        self.refresh()

    def share_dice_photos(self) -> None:
        """Open (or close) a link a computer on the table's network opens to download the
        kept photos (`companion.host.photo_share`), shown as words and a QR code."""
        if self.sharing:  # open, or still opening: the button says Stop
            self.stop_sharing()
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            self.share_words = (
                "Sharing needs the app started by 'companion app' (its network loop)."
            )
            return
        camera = App.get_running_app().hub.camera
        self.sharing = True  # the button says Stop at once: a second tap never opens two
        share = PhotoShare(camera.photos, self.share_address or lan_address(), model=camera.model)
        share.installed = self.refresh  # a model sent from the computer: Settings say so
        loop.create_task(self._share(share))

    async def _share(self, share: PhotoShare) -> None:
        try:
            if self.share_secure:
                share.certificate = await asyncio.to_thread(table_certificate, share.address)
            await share.start()
        except (OSError, ValueError) as exc:
            self.sharing = False
            self.share_words = f"The photos cannot be shared: {exc}"
            return
        if not self.sharing:  # stopped while it was starting
            await share.stop()
            return
        self.share = share
        minutes = round(share.lasts / 60)
        words = [
            "On a computer on this network, open the address above and type the pass "
            "under it (or scan the code below), then download the photos, or send the tablet a "
            f"model trained on them. The pass works for {minutes} minutes, while Settings "
            "shows it."
        ]
        if share.certificate is not None:
            words.append(
                "The browser warns that it does not know this tablet: its code is "
                f"[b]{share.certificate.fingerprint()}[/b]. Go on past the warning."
            )
        if share.address.startswith("127."):
            words.insert(0, "No local network found: only this device can open the link.")
        self.share_words = " ".join(words)
        self.share_typed = f"{share.site}\n{share.secret}"
        self.share_qr = qr_texture(share.url)
        asyncio.get_running_loop().call_later(share.lasts, self._ran_out, share)

    def _ran_out(self, share: PhotoShare) -> None:
        if share is self.share:
            self.stop_sharing()
            self.share_words = "The pass ran out. Tap Share again for a new one."

    def stop_sharing(self) -> None:
        share, self.share = self.share, None
        self.sharing = False
        self.share_qr = None
        self.share_words = ""
        self.share_typed = ""
        if share is not None:
            asyncio.get_running_loop().create_task(share.stop())

    def change(self, **values: object) -> None:
        app = App.get_running_app()
        for key, value in values.items():
            setattr(app.settings, key, value)
        app.save_settings()

    def _packs(self, s: UserSettings) -> None:
        rows: list[Widget] = []
        for gid in available_games():
            rows.append(Body(text=f"[b]{get_game(gid).title}[/b]: packs for new games"))
            chosen = set(s.packs_for(gid))
            for pack in available_packs(gid):
                t = BigToggle(text=pack, state="down" if pack in chosen else "normal")
                t.allow_no_selection = True
                t.bind(on_release=lambda t, g=gid, p=pack: self.toggle_pack(g, p, t.state))
                rows.append(t)
        clear_and_fill(self.ids.packs, rows)

    def toggle_pack(self, game_id: str, pack: str, state: str) -> None:
        app = App.get_running_app()
        packs = app.settings.packs_for(game_id)
        if state == "down" and pack not in packs:
            packs.append(pack)
        elif state != "down" and pack in packs:
            packs.remove(pack)
        app.settings.packs[game_id] = packs or ["demo"]
        app.save_settings()
