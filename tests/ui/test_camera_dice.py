"""Camera dice by touch (issue 28): a roll answered from camera frames through the same
path as the live preview.

The camera is the one part faked (`StandInCamera`, a capture device playing generated
photos of dice); `CameraSource`, the dice watcher's thread, the ONNX reader, the panel's
preview, the camera dice source's stream, the hub's answerer and the session are the real
thing, on an asyncio loop stepped between Kivy's frames as `App.async_run` does.  The
frames are chosen by the reader itself (`tests/ui/dice_frames.py`), so the tests hold
whatever the model's accuracy.
"""

from __future__ import annotations

import asyncio
import gc
import sys
import time
from typing import Any

import numpy as np
import pytest

from tests.ui.dice_frames import sure_frame, unsure_frame
from tests.ui.photo_camera import PhotoCamera
from tests.ui.test_demo_tray import LoopAppTestCase
from tests.ui.test_scanner_and_packs import StandInCamera
from vision.frames import CameraSource

pytestmark = pytest.mark.ui


class TestCameraDice(LoopAppTestCase):
    def test_the_dice_panel_keeps_its_camera_block_whenever_the_collector_runs(self) -> None:
        """The block leaves the panel while it shows nothing (kv's ids hold it weakly).
        Kivy dispatches `parent` as the panel's rules are applied, so it left inside the
        panel's __init__; a garbage collection in the moment before the panel took it (in
        a long run, now and then) failed the session screen with a ReferenceError.  The
        collector is run in that moment here."""
        from companion.ui.panels.dice import DicePanel

        self.start_app()

        def collect_after_widget_init(frame: Any, event: str, _arg: Any) -> None:
            panel = type(frame.f_locals.get("self")).__name__ == "DicePanel"
            if event == "return" and frame.f_code.co_name == "__init__" and panel:
                gc.collect()

        sys.setprofile(collect_after_widget_init)
        try:
            panel = DicePanel()
        finally:
            sys.setprofile(None)
        gc.collect()
        assert panel.camera_block.parent is None  # nothing to show: out of the panel
        assert panel.ids.camera_block.camera_mode is False  # and alive

    def open_tiny(self) -> Any:
        self.start_app()
        self.tap("New game")
        self.tap("Tiny")
        self.tap("Start the game")
        return self.app.screen("session").panels["dice"]

    def point_camera_at(self, panel: Any, photo: Any, opened: bool = True) -> Any:
        """Stand the camera over the dice and turn camera dice on (the tap on the loop, as
        every tap in the app is under `async_run`)."""
        block = panel.ids.camera_block
        camera = self.stand_in = StandInCamera([photo], opened)
        block.open_source = lambda index: CameraSource(index, capture=lambda _i: camera)

        self.run_async(self.tap_on_loop("Camera dice"))
        assert block.on, "the tap missed Camera dice"
        return block

    async def tap_on_loop(self, text: str) -> None:
        """A tap on the Dice panel once it shows the roll (on a loaded machine the panel
        comes forward a few frames after the roll is asked for)."""
        panel = self.app.screen("session").panels["dice"]
        deadline = time.monotonic() + 20
        while panel.get_root_window() is None or "roll" not in panel.request_text:
            assert time.monotonic() < deadline, "the Dice panel never showed the roll"
            self.frames(1)
        self.frames(5)
        self.tap(text)

    def tap_die(self, block: Any, index: int) -> None:
        """A finger on die `index`'s box in the preview."""
        preview = block.ids.preview
        self.settled_center(preview)  # aimed once the layout has stopped moving it
        fh, fw = self.app.hub.camera.frame.shape[:2]
        x0, y0, x1, y1 = self.app.hub.camera.dice[index].box
        iw, ih = preview.norm_image_size
        x = preview.center_x - iw / 2 + (x0 + x1) / 2 / fw * iw
        y = preview.center_y - ih / 2 + (1 - (y0 + y1) / 2 / fh) * ih
        self.touch_at(*preview.to_window(x, y))

    def spin_until(self, check: Any, timeout: float = 10.0, why: Any = None) -> None:
        """Run the loop and draw frames until `check()` holds; `why()` says what the
        panel shows when it never does."""
        deadline = time.monotonic() + timeout
        while not check():
            assert time.monotonic() < deadline, f"timed out: {why() if why else ''}"
            self.run_async(asyncio.sleep(0.02))
            self.frames(1)

    def wait(self, seconds: float) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            self.run_async(asyncio.sleep(0.02))
            self.frames(1)

    def test_the_dice_seen_answer_the_roll_with_one_tap(self) -> None:
        frame = sure_frame()
        n = len(frame.faces)
        panel = self.open_tiny()
        self.tap("Roll 3 dice" if n == 2 else "Roll 2 dice")  # the wrong count first
        block = self.point_camera_at(panel, frame.image)
        camera = self.app.hub.camera
        self.spin_until(lambda: camera.dice and block.showing, timeout=30)
        asked = 3 if n == 2 else 2
        assert f"{n} dice seen, the roll asks for {asked}." in block.note
        assert block.ids.use.disabled  # never answered with the wrong number of dice
        assert self.app.session.request.count == asked
        assert f"{n} dice seen ({', '.join(map(str, frame.faces))})" in block.note
        assert block.ids.preview.texture is not None
        # the finger that tapped Camera dice, lifted over the preview that opened in the
        # button's place (the side panel's scroll view hands the lift on 0.2 s late),
        # chose no die
        self.wait(0.5)
        assert block.choosing == -1
        # a die tapped on the preview is chosen, to set its face by hand (the lift, too,
        # reaches it 0.2 s late)
        self.tap_die(block, 0)
        self.spin_until(lambda: block.choosing == 0, timeout=5, why=lambda: block.choosing)
        self.tap(str(frame.faces[0]), within=block.ids.faces)
        self.find(f"Die 1: {frame.faces[0]} (set by hand)", within=block)
        # camera dice stopped, the keypad answers this one; the next roll asks for as many
        # dice as are seen, and the camera is turned on again
        self.tap("Stop camera dice")
        for _ in range(asked):
            self.tap("1", within=panel.ids.keypad)
        self.spin_until(lambda: self.app.session.request is None)
        self.tap("Roll 2 dice" if n == 2 else "Roll 3 dice")
        self.run_async(self.tap_on_loop("Camera dice"))
        assert block.on, block.note
        self.spin_until(lambda: not block.ids.use.disabled, timeout=30, why=lambda: block.note)
        assert "A die read wrong? Tap it first, then Use these dice." in block.note
        self.shoot("session-camera-dice")
        assert "The photo is kept" not in block.note
        self.app.settings.keep_dice_photos = True  # Settings: Keep photos of our rolls
        # said where the roll is taken, not only in Settings
        self.spin_until(lambda: "The photo is kept to train the camera" in block.note, timeout=5)
        # the longer note at every size and at Largest text: held to the note's checks, shot
        assert self.cut_at_largest(block, "photos-kept") == []
        self.tap("Use these dice")
        self.spin_until(lambda: self.app.session.request is None)
        assert self.app.session.state.last_roll == list(frame.faces)
        [kept] = camera.photos.rows()  # the roll the table looked at, kept to train on
        assert [d["face"] for d in kept["dice"]] == list(frame.faces)
        assert self.app.session.history()[-1][0].data["by"] == "camera dice"
        assert self.app.hub.sources[-1].name == "camera dice"

    def test_the_picture_says_photos_kept_while_settings_keep_them(self) -> None:
        """While Settings keep the photos of the table's rolls, the picture itself says so
        ("Photos kept"): at Largest text the note's sentence is a scroll away.  At every
        size at Largest text the badge is shown on the picture, whole, read from across the
        table and clear of the dice; with the photos not kept it is not shown."""
        from tests.ui.kivyharness import ARTIFACTS
        from tests.ui.test_ergonomics import SIZES, TEXTS, text_size

        frame = sure_frame()
        panel = self.open_tiny()
        self.tap(f"Roll {len(frame.faces)} dice")
        block = self.point_camera_at(panel, frame.image)
        camera = self.app.hub.camera
        self.spin_until(lambda: camera.dice and block.showing, timeout=30, why=lambda: block.note)
        badge = block.ids.kept_badge
        problems: list[str] = []
        for size_name, size in SIZES.items():
            self.resize(size)
            with text_size(TEXTS["Largest"]):
                where = f"{size_name}, Largest text"
                for keep in (False, True):
                    self.app.settings.keep_dice_photos = keep  # Settings: Keep photos of our rolls
                    self.spin_until(lambda keep=keep: block.kept is keep, timeout=5)
                    self.wait(0.3)
                    self.settle()
                    if keep:
                        problems += [f"{where}: {p}" for p in self.badge_unseen(block, size)]
                        shot = f"photos-kept-badge-{size_name}-largest.png"
                        self.shoot_here(ARTIFACTS / "camera-dice" / shot)
                    elif self.seen_words(badge):
                        problems.append(f"{where}: {self.seen_words(badge)} with photos not kept")
        assert problems == [], "\n".join(problems)

    @staticmethod
    def seen_words(widget: Any) -> list[str]:
        """The words a label shows a player: none if it is off the window, see-through or
        has no room."""
        from tests.ui.looks import shown, words_of

        return words_of(widget) if shown(widget) else []

    def badge_unseen(self, block: Any, window: tuple[int, int]) -> list[str]:
        """What keeps a player from reading "Photos kept" on the picture: the badge not
        shown, not whole (its words cut or out of its box, by a scrolling area's edge or
        the window's), not on the picture as drawn (its bars beside it, or none), over a
        die's box, or not large text (WCAG's 14 pt bold) at 4.5:1."""
        from kivy.metrics import dp

        from tests.ui.looks import Looks, box, clipping, intersection, window_pixels

        badge, preview = block.ids.kept_badge, block.ids.preview
        if self.seen_words(badge) != ["Photos", "kept"]:
            return [f"the badge shows {self.seen_words(badge)}, not Photos kept"]
        problems = Looks(dp48=dp(48), window=window).check([badge], window_pixels())
        drawn = box(badge)
        if clipping(badge) != drawn:
            problems.append("the badge is cut by a scrolling area")
        if not Looks.large(badge):
            problems.append(f"the badge's words are {badge.font_size:.0f} px, not large text")
        iw, ih = preview.norm_image_size
        x0, y0 = preview.to_window(preview.center_x - iw / 2, preview.center_y - ih / 2)
        if not (x0 - 1 <= drawn[0] and drawn[2] <= x0 + iw + 1):
            problems.append(f"the badge (x {drawn[0]:.0f}..{drawn[2]:.0f}) is off the picture")
        if not (y0 - 1 <= drawn[1] and drawn[3] <= y0 + ih + 1):
            problems.append(f"the badge (y {drawn[1]:.0f}..{drawn[3]:.0f}) is off the picture")
        fh, fw = self.app.hub.camera.frame.shape[:2]
        for i, die in enumerate(self.app.hub.camera.dice):
            bx0, by0, bx1, by1 = die.box
            shown_box = (
                x0 + bx0 / fw * iw, y0 + (1 - by1 / fh) * ih, x0 + bx1 / fw * iw, y0 + (1 - by0 / fh) * ih
            )  # fmt: skip
            if intersection(drawn, shown_box) is not None:
                problems.append(f"the badge covers die {i + 1}")
        return problems

    def test_a_die_the_table_corrects_is_asked_about_the_next_time(self) -> None:
        """The table corrects a die the camera read by itself and takes the roll with Use
        these dice: the next time those dice are seen, that die is unsure, and the block
        says why (companion/table/dice_tally.py)."""
        frame = sure_frame()
        n = len(frame.faces)
        panel = self.open_tiny()
        self.tap(f"Roll {n} dice")
        block = self.point_camera_at(panel, frame.image)
        camera = self.app.hub.camera
        self.spin_until(lambda: not block.ids.use.disabled, timeout=30, why=lambda: block.note)
        least = min(range(n), key=lambda i: camera.dice[i].confidence)
        other = frame.faces[least] % 6 + 1  # the table sees another face on it
        self.wait(0.5)  # the lift of the tap on Camera dice has passed
        self.tap_die(block, least)
        self.spin_until(lambda: block.choosing == least, timeout=5, why=lambda: block.choosing)
        self.tap(str(other), within=block.ids.faces)
        self.find(f"Die {least + 1}: {other} (set by hand)", within=block)
        self.tap("Use these dice")
        self.spin_until(lambda: self.app.session.request is None)
        assert self.app.session.state.last_roll[least] == other
        # the dice picked up, and thrown again for the next roll: they land the same
        bare = np.full_like(frame.image, 128)  # the table with no dice on it
        self.stand_in.photos, self.stand_in.reads = [bare, frame.image], 0
        self.tap(f"Roll {n} dice")
        self.spin_until(
            lambda: block.showing and len(camera.dice) == n and least not in camera.fixed,
            timeout=30,
            why=lambda: block.note,
        )
        self.find(f"Die {least + 1}: ? unsure, tap to set", within=block)
        assert camera.faces() == [None if i == least else f for i, f in enumerate(frame.faces)]
        assert f"The camera misread 1 of the {n} dice it read by itself" in block.note
        assert block.ids.use.disabled and self.app.session.request is not None
        # the words at every size and at Largest text: the note is held to the same
        # checks as without them, the unsure die's button in view, and shot to be looked at
        assert self.cut_at_largest(block, "careful", unsure=True) == []

    def test_an_unsure_die_never_answers_by_itself_the_table_taps_its_value(self) -> None:
        frame = unsure_frame()
        n = len(frame.faces)
        missing = list(frame.truth)
        for f in frame.faces:
            if f is not None:
                missing.remove(f)
        panel = self.open_tiny()
        self.tap("Roll 2 dice" if n == 2 else "Roll 3 dice")
        block = self.point_camera_at(panel, frame.image)
        self.spin_until(lambda: self.app.hub.camera.dice and block.showing, timeout=30)
        self.tap("Take the roll when the dice are still: off")
        assert self.app.settings.still_dice
        reads = block.watcher.frames
        # still for well over a second and many reads: the unsure die holds the roll
        self.spin_until(lambda: block.watcher.frames >= reads + 8, timeout=30)
        self.wait(0.3)
        assert self.app.session.request is not None
        assert "unsure: tap it" in block.note and block.ids.use.disabled
        self.shoot("session-camera-dice-unsure")
        values = list(frame.faces)
        for i, face in enumerate(frame.faces):
            if face is None:
                self.tap(f"Die {i + 1}: ? unsure, tap to set")
                self.tap(str(missing[0]), within=block.ids.faces)
                values[i] = missing.pop(0)
        # set by hand, the dice still in view: taken by themselves with the setting on
        self.spin_until(lambda: self.app.session.request is None, timeout=30)
        assert self.app.session.state.last_roll == values
        # no roll waiting, the Dice panel is put away and the camera rests
        self.spin_until(lambda: block.watcher is None)
        # it opens again with the next roll, and dice left lying after their roll never
        # answer it
        self.tap("Roll 2 dice" if n == 2 else "Roll 3 dice")
        self.spin_until(
            lambda: block.watcher is not None and block.watcher.frames >= 10, timeout=30
        )
        assert self.app.session.request is not None
        assert f"{n} dice seen" in block.note

    def test_where_opencv_cannot_open_the_camera_kivys_feeds_the_dice_reader(self) -> None:
        """As on an Android tablet: OpenCV's capture refuses, Kivy's camera provider plays
        the photo, in colour, and the same reader and panel answer the roll."""
        frame = sure_frame()
        panel = self.open_tiny()
        self.tap("Roll 2 dice" if len(frame.faces) == 2 else "Roll 3 dice")
        PhotoCamera.photos = [frame.image]
        PhotoCamera.opened = []
        block = panel.ids.camera_block
        block.kivy_camera = lambda: PhotoCamera
        self.point_camera_at(panel, frame.image, opened=False)
        self.spin_until(lambda: not block.ids.use.disabled, timeout=30)
        (camera,) = PhotoCamera.opened
        shown = self.app.hub.camera.frame  # the frame read: in colour, the right way up
        assert shown.shape == frame.image.shape
        assert np.abs(shown.astype(int) - frame.image).mean() < 2
        self.tap("Use these dice")
        self.spin_until(lambda: self.app.session.request is None)
        assert self.app.session.state.last_roll == list(frame.faces)
        # answered, the Dice panel is put away and Kivy's camera is let go
        self.spin_until(lambda: camera.stopped)
        assert block.watcher is None

    def test_a_phones_photo_with_an_unsure_die_waits_on_the_tablet_for_a_tap(self) -> None:
        """The host hands the photo to the hub's camera dice (as `PhonesPanel` wires it);
        the camera itself stays off: the photo takes the keypad's place until answered."""
        import cv2

        frame = unsure_frame()
        panel = self.open_tiny()
        self.tap("Roll 2 dice" if len(frame.faces) == 2 else "Roll 3 dice")
        photo = cv2.imencode(".png", frame.image)[1].tobytes()
        reply = self.run_async(self.app.hub.camera.photo("Ann", photo))
        assert not reply["ok"] and reply["text"].endswith("on the tablet.")
        block = panel.ids.camera_block
        self.spin_until(lambda: block.showing)
        assert not block.on and block.note.startswith("Photo from Ann: ")
        assert panel.ids.keypad.disabled  # the photo in its place
        self.shoot("session-camera-dice-phone-photo")
        values = list(frame.faces)
        for i, face in enumerate(frame.faces):
            if face is None:
                self.tap(f"Die {i + 1}: ? unsure, tap to set")
                self.tap("6", within=block.ids.faces)
                values[i] = 6
        self.tap("Use these dice")
        self.spin_until(lambda: self.app.session.request is None)
        assert self.app.session.state.last_roll == values
        assert self.app.session.history()[-1][0].data["by"] == "phone photo"
        assert not block.showing and not panel.ids.keypad.disabled

    def test_the_dice_seen_read_at_every_size_and_text_size(self) -> None:
        """Issue 25 at every size (the tablets both ways and a phone, Normal and Largest
        text): the picture of the dice and the note of what was seen, held to the looks
        checks.  At Largest text on a phone the picture was not shown at all (the words
        and buttons beside it took the panel), in portrait it was a 70x50 px thumbnail,
        and the note's lines were cut through."""
        from kivy.metrics import dp

        from tests.ui.kivyharness import ARTIFACTS
        from tests.ui.looks import Looks
        from tests.ui.test_ergonomics import SIZES, TEXTS, look_now, sorted_out, text_size

        frame = unsure_frame()
        panel = self.open_tiny()
        # no die answers in time (20 s at the table, on a loaded machine within this test):
        # the keypad's offer stands, and waits for the keypad while the camera is in its
        # place (above it, it left the picture 28x21 px on a phone at Largest text)
        self.app.hub.answerer.timeout = 0.5
        self.tap(f"Roll {len(frame.faces)} dice")
        block = self.point_camera_at(panel, frame.image)
        self.spin_until(lambda: self.app.hub.camera.dice and block.showing, timeout=30)
        self.spin_until(lambda: panel.offer_text, timeout=10)
        found: dict[Any, list[str]] = {}
        small: list[str] = []
        for size_name, size in SIZES.items():
            self.resize(size)
            looks = Looks(dp48=dp(48), window=size)
            for text, scale in TEXTS.items():
                with text_size(scale):
                    self.wait(0.3)
                    self.settle()
                    look_now(looks, found, size_name, text, "the Dice panel's camera dice")
                    where = f"{size_name}, {text} text"
                    # the picture takes a good part of the block, whole in the window
                    preview = block.ids.preview
                    iw, ih = preview.norm_image_size
                    x0, y0 = preview.to_window(preview.center_x - iw / 2, preview.center_y - ih / 2)
                    if ih < block.height * 0.35 or iw < dp(150):
                        small.append(f"{where}: the picture is {iw:.0f}x{ih:.0f} px")
                    if x0 < 0 or y0 < 0 or x0 + iw > size[0] + 1 or y0 + ih > size[1] + 1:
                        small.append(f"{where}: the picture is off the window")
                    small += self.note_cut(block, where)
                    # the unsure die's button is in view as the block first shows, and a tap
                    # on it brings all six faces into view
                    view, die = block.ids.column_view, block.ids.dice.children[-1]
                    if not self.wholly_seen(view, die, size):
                        small.append(f"{where}: the unsure die's button is out of view")
                    self.shoot_here(ARTIFACTS / "camera-dice" / f"{size_name}-{text.lower()}.png")
                    self.tap(die)
                    self.spin_until(lambda: len(block.ids.faces.children) == 6, timeout=5)
                    self.wait(0.3)
                    keys = block.ids.faces.children
                    if not all(self.wholly_seen(view, k, size) for k in keys):
                        small.append(f"{where}: a face to give the die is out of view")
                    self.shoot_here(
                        ARTIFACTS / "camera-dice" / f"{size_name}-{text.lower()}-choosing.png"
                    )
                    self.tap(block.ids.dice.children[-1])  # chosen no more
                    self.spin_until(lambda: not block.ids.faces.children, timeout=5)
                    view.scroll_y = 1
        lines, _known = sorted_out(found, known=[])
        assert lines + small == [], "\n".join(lines + small)
        # the camera stopped, the keypad is back with its offer
        self.tap("Stop camera dice")
        self.spin_until(lambda: panel.ids.offer.text == panel.offer_text, timeout=5)

    @staticmethod
    def wholly_seen(view: Any, widget: Any, window: tuple[int, int]) -> bool:
        """Whether the widget is wholly inside its scrolling area's shown part and the
        window, as the area is scrolled now."""
        x0, y0 = widget.to_window(widget.x, widget.y)
        x1, y1 = widget.to_window(widget.right, widget.top)
        vx0, vy0 = view.to_window(view.x, view.y)
        vx1, vy1 = vx0 + view.width, vy0 + view.height
        return (
            max(vx0, 0) - 1 <= x0 and x1 <= min(vx1, window[0]) + 1
            and max(vy0, 0) - 1 <= y0 and y1 <= min(vy1, window[1]) + 1
        )  # fmt: skip

    def cut_at_largest(self, block: Any, shots: str, unsure: bool = False) -> list[str]:
        """What is cut of the block at every size at Largest text (the note's lines, and
        with `unsure` the unsure die's button), each size shot as `<shots>-<size>-largest`."""
        from tests.ui.kivyharness import ARTIFACTS
        from tests.ui.test_ergonomics import SIZES, TEXTS, text_size

        cut: list[str] = []
        for size_name, size in SIZES.items():
            self.resize(size)
            with text_size(TEXTS["Largest"]):
                self.wait(0.3)
                self.settle()
                cut += self.note_cut(block, f"{size_name}, Largest text")
                die = block.ids.dice.children[-1] if unsure else None
                if die is not None and not self.wholly_seen(block.ids.column_view, die, size):
                    cut.append(f"{size_name}, Largest text: the unsure die's button is cut")
                self.shoot_here(ARTIFACTS / "camera-dice" / f"{shots}-{size_name}-largest.png")
        return cut

    @staticmethod
    def note_cut(block: Any, where: str) -> list[str]:
        """The note of what was seen, as its scrolling area first shows it: at least its
        first line (unless the dice to tap, above it, fill the area), and no line cut
        through by the area's lower edge."""
        view, note = block.ids.column_view, block.ids.note
        lines = note._label._cached_lines
        bottom = view.to_window(view.x, view.y)[1]
        edge = note.to_window(note.x, note.top)[1] - (note.height - note.texture_size[1]) / 2
        bounds = [edge]
        for line in lines:
            bounds.append(bounds[-1] - line.h)
        if bottom > bounds[1] + 1:
            if block.ids.dice.children and bottom >= bounds[0] - 1:
                return []  # the dice to tap fill the area; the note is under them, whole
            return [f"{where}: not even the note's first line is seen"]
        if bounds[-1] + 1 < bottom and min(abs(bottom - b) for b in bounds) > 3:
            return [f"{where}: a line of the note is cut through by its area's edge"]
        return []
