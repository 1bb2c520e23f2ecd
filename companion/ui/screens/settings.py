"""Settings: theme, text size, camera and content packs, stored per user.  And for the
camera's dice, all kept on this tablet: what the table's own dice taught it (with a way to
forget it), whether photos of the table's rolls are kept to train it (with a way to delete
them), and which model reads them.

Every choice is a toggle so nothing needs a keyboard; each tap is saved at once (a tablet
app may be killed at any moment) and restyles the app immediately.  Which die plays which
role belongs to a session, not to the user: see companion/ui/panels/assign.py.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from kivy.app import App
from kivy.lang import Builder
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget

from companion.content.pack import available_packs
from companion.games import available_games, get_game
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

    def on_pre_enter(self, *args: object) -> None:
        self.refresh()

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
