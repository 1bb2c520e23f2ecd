"""Settings, the device banner, import and export, by touch."""

from __future__ import annotations

import json

import pytest
from kivy.metrics import sp

from companion.core.transfer import export_session
from companion.games import get_game
from companion.paths import settings_file
from companion.ui.style import style
from companion.ui.theme import PALETTES
from tests.ui.kivyharness import AppTestCase
from tests.ui.memsource import MemorySource

pytestmark = pytest.mark.ui


class TestScreens(AppTestCase):
    def test_settings_are_saved_per_user_and_restyle_the_app(self) -> None:
        app = self.start_app()
        self.tap("Settings")
        assert app.root.current == "settings"
        self.shoot("settings")
        self.tap("Light")
        self.tap("Largest")
        stored = json.loads(settings_file().read_text())
        assert stored["theme"] == "light" and stored["text_size"] == "Largest"
        assert tuple(style.bg) == PALETTES["light"]["bg"]
        assert style.font_scale == pytest.approx(1.8)
        assert self.find("Back").font_size == pytest.approx(sp(22) * 1.8)
        self.shoot("settings-light-largest")
        # a restarted app starts with them
        style.use("dark", 1.0)  # as a fresh process would start
        app = self.start_app()
        assert style.theme == "light" and style.font_scale == pytest.approx(1.8)

    def test_lost_device_banner_and_sources_in_the_dice_panel(self) -> None:
        app = self.start_app()
        self.tap("New game")
        self.tap("Tiny")
        self.tap("Start the game")
        source = MemorySource("pixels d6", battery=35)
        app.hub.add(source)
        app.hub.batteries["pixels d6"] = 35
        source.status = "lost"
        screen = app.screen("session")
        screen._watch_devices(0)
        self.frames(3)
        assert screen.alarm == "Dice: pixels d6 lost"
        panel = screen.panels["dice"]
        rows = [w.text for w in panel.ids.sources.children]
        assert any("pixels d6" in r and "lost" in r and "battery 35%" in r for r in rows)
        self.shoot("session-device-lost")

    def test_export_then_import_a_save(self) -> None:
        app = self.start_app()
        session = app.library.new(get_game("tiny"), {"start": 3})
        session.do("add", {"n": 2})
        session.close()
        app.screen("home").refresh()
        self.frames(3)
        self.tap("Export")
        exported = self.home / "exports" / "tiny-1.tcsave"
        assert exported.exists()
        assert "Saved a copy" in app.screen("home").ids.notice.text
        self.tap("Import a save")
        popup = self.find(cls="ImportPopup", within=self.Window)
        self.shoot("import-save")
        self.tap(popup.ids.saves.children[-1])
        assert "Imported tiny-1.tcsave as tiny-2" in app.screen("home").ids.notice.text
        with app.library.open("tiny-2") as copy:
            assert copy.state.score == 5

    def test_a_damaged_save_is_refused_in_words(self) -> None:
        app = self.start_app()
        session = app.library.new(get_game("tiny"))
        session.close()
        bad = self.home / "bad.tcsave"
        export_session(session.path, bad)
        bad.write_text(bad.read_text().replace('"tiny"', '"tinx"', 1))
        app.screen("home").import_file(str(bad))
        notice = app.screen("home").ids.notice.text
        assert "Could not import bad.tcsave" in notice and "checksum" in notice
        assert [i.id for i in app.library.list()] == ["tiny-1"]


class TestBackButton(AppTestCase):
    def test_back_steps_back_instead_of_closing(self) -> None:
        app = self.start_app()
        self.tap("New game")
        self.tap("Tiny")
        assert self.Window.dispatch("on_keyboard", 27, 0, "", []) is True
        assert app.root.current == "new" and app.screen("new").game_id == ""
        self.Window.dispatch("on_keyboard", 27, 0, "", [])
        assert app.root.current == "home"
        self.tap("New game")
        self.tap("Tiny")
        self.tap("Start the game")
        self.tap("Settings", within=app.screen("session"))
        self.Window.dispatch("on_keyboard", 27, 0, "", [])
        assert app.root.current == "session" and app.session is not None
        self.Window.dispatch("on_keyboard", 27, 0, "", [])
        assert app.root.current == "home" and app.session is None
        assert app._on_key(self.Window, 27) is False  # on home, back leaves the app as usual

    def test_settings_say_what_the_tables_dice_taught_the_camera_and_forget_it(self) -> None:
        """New dice on the table: the care the old ones taught is forgotten with one tap
        (companion/table/dice_tally.py)."""
        from companion.paths import data_home
        from companion.table.dice_tally import CameraTally, DieTaken

        record = CameraTally.load(data_home() / "camera-dice.json")
        record.note("m1", [DieTaken(0.99, True, 3, 3)] * 11 + [DieTaken(0.999, True, 5, 6)])
        app = self.start_app()
        self.tap("Settings")
        self.find(
            "From 12 dice in rolls you took: it read 12 by itself and misread 1, so it now asks "
            "you about more of the dice it reads as 5."
        )
        self.tap("Largest")  # as across the table, the button scrolled into view
        forget = self.find("Forget what our dice taught it")
        forget.parent.parent.scroll_to(forget, animate=False)
        self.settle()
        self.shoot("settings-camera-dice-largest")
        # after a turn of the tablet each grid keeps its own columns (the packs' one column
        # had become two, their names broken a word a line)
        ids = app.screen("settings").ids
        assert (ids.packs.cols, ids.awake.cols, ids.cues.cols) == (1, 2, 2)
        self.tap("Forget what our dice taught it")
        self.find(
            "Nothing yet: each roll you take with Use these dice, after setting any die it "
            "read wrong, teaches the camera how it reads your dice."
        )
        assert CameraTally.load(data_home() / "camera-dice.json").dice == []
        assert app.hub.camera.care() is None
        assert app.screen("settings").camera_dice_known is False  # nothing left to forget

    def test_photos_of_the_tables_rolls_are_kept_only_when_asked_and_deleted_at_a_tap(
        self,
    ) -> None:
        """Off until the group turns it on (a photo of the table may show hands and cards);
        what is kept, and where, said in words; deleted with one tap
        (companion/table/dice_photos.py)."""
        import numpy as np

        from companion.ui.settings import UserSettings

        app = self.start_app()
        self.tap("Settings")
        assert app.settings.keep_dice_photos is False
        self.find(
            "None kept. With Keep photos on, each roll you take with Use these dice is kept as "
            "a photo with the faces you set, on this tablet only, to train the camera on your "
            "own dice."
        )
        self.tap("Keep photos of our rolls")
        assert UserSettings.load().keep_dice_photos is True  # saved at the tap
        photos = app.hub.camera.photos
        photos.keep(np.full((720, 1280, 3), 90, np.uint8), [((10, 10, 60, 60), 4)], "m1")
        kilobytes = round(photos.size() / 1e3)  # a grey frame: a few kilobytes
        self.tap("Back")
        self.tap("Settings")
        self.find(
            f"1 photo of your rolls (1 die, {kilobytes} KB) kept on this tablet in {photos.folder}, to "
            "train the camera on your own dice."
        )
        self.find(  # and which model reads: a model trained on them, where to put it
            "The camera reads with the model that came with the app. A model trained on your "
            "own photos reads instead, from the app's next start, once its files are in "
            f"{photos.folder.parent / 'dice-model'} (sent from a computer through Share the "
            "photos, or copied there)."
        )
        self.tap("Largest")
        delete = self.find("Delete the kept photos")
        delete.parent.parent.scroll_to(delete, animate=False)
        self.settle()
        self.shoot("settings-dice-photos-largest")
        self.tap("Delete the kept photos")
        assert photos.rows() == [] and not list(photos.folder.glob("*.jpg"))
        assert app.screen("settings").dice_photos_kept is False
        self.tap("Keep no photos")
        assert UserSettings.load().keep_dice_photos is False
