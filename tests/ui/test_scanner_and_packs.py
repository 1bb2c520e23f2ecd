"""The scanner panel on vision's scanner (card photos through the real decoder, voting and
offer_card), without a camera, and content packs with problems shown in words on home."""

from __future__ import annotations

import time

import cv2
import numpy as np
import pytest

from companion.paths import user_content_dir
from tests.ui.kivyharness import PORTRAIT, AppTestCase
from tests.ui.photo_camera import PhotoCamera
from vision.frames import CameraSource
from vision.synthetic import code_photo, make_frame, table_image

pytestmark = pytest.mark.ui


class StandInCamera:
    """The camera, the one part faked: a capture device (cv2.VideoCapture's interface) that
    hands out the given photos at a camera's pace, holding the last one in view.  Everything
    after it (`CameraSource`, the scanner's threads, the decoder, the voting, the panel, the
    session) is the real thing."""

    def __init__(self, photos: list[np.ndarray], opened: bool = True) -> None:
        self.photos, self.opened, self.reads = photos, opened, 0

    def isOpened(self) -> bool:  # noqa: N802 (OpenCV's name)
        return self.opened

    def set(self, *_args: object) -> bool:
        return True

    def read(self) -> tuple[bool, np.ndarray]:
        time.sleep(1 / 30)
        photo = self.photos[min(self.reads, len(self.photos) - 1)]
        self.reads += 1
        return True, photo.copy()

    def release(self) -> None:
        pass


def card_photo(card_id: str, seed: int = 3) -> np.ndarray:
    return make_frame("nominal", seed, cards=[card_id]).image


def empty_table(seed: int = 3) -> np.ndarray:
    """The table before a card is held up: the preview is looked at while it shows this,
    as a card that answers the draw gives the game its room back and lets the camera go."""
    return table_image(np.random.default_rng(seed))


class TestScanner(AppTestCase):
    def open_tiny(self):
        app = self.start_app()
        self.tap("New game")
        self.tap("Tiny")
        self.tap("Start the game")
        return app

    def point_camera_at(self, *photos: np.ndarray, opened: bool = True):
        """Stand the camera in front of these photos, then bring the Cards panel forward."""
        panel = self.app.screen("session").panels["cards"]
        camera = self.camera = StandInCamera(list(photos), opened)
        panel.open_source = lambda index: CameraSource(index, capture=lambda _i: camera)
        self.tap("Cards")
        return panel

    def until(self, done, what: str, seconds: float = 20.0) -> None:
        deadline = time.monotonic() + seconds
        while not done():
            assert time.monotonic() < deadline, f"never happened: {what}"
            self.frames(1)

    def test_without_a_camera_the_cards_are_tapped(self) -> None:
        app = self.open_tiny()
        app.settings.camera = -1
        self.tap("Cards")
        panel = app.screen("session").panels["cards"]
        assert panel.scanner is None and "camera is off" in panel.camera_note

    def test_a_camera_that_will_not_open_is_said_in_words(self) -> None:
        app = self.open_tiny()
        panel = self.point_camera_at(card_photo("tiny/token/copper"), opened=False)
        self.until(lambda: "could not be opened" in panel.camera_note, "the camera's refusal")
        assert panel.scanner is None and panel.camera_note.endswith("Tap the cards instead.")
        self.tap("Draw")
        self.tap("Copper", within=panel)
        assert app.session.state.hand == ["tiny/token/copper"]

    def test_a_card_held_up_answers_the_draw_once(self) -> None:
        app = self.open_tiny()
        self.tap("Draw")
        panel = self.point_camera_at(empty_table())
        self.until(lambda: panel.preview is not None and panel.preview.texture, "the preview")
        shown = panel.preview.texture.size  # at the size it is drawn, never above the camera's
        assert shown[0] <= max(panel.preview.width, 1) + 1 and shown[0] <= 1280
        assert abs(shown[0] / shown[1] - 1280 / 720) < 0.02
        self.shoot("session-cards-camera")
        self.camera.photos = [card_photo("tiny/token/copper")]  # the card held up
        self.until(lambda: app.session.state.hand, "the card answering the draw")
        assert app.session.state.hand == ["tiny/token/copper"]
        assert app.session.history()[-1][0].data["by"] == "camera"
        assert panel.seen == ["Copper"] and panel.said.startswith("Copper answered")
        # the card shown, the game gets its room back and the camera is let go
        self.until(lambda: panel.scanner is None, "the camera let go")
        # held in view, the card is not seen again: the next draw waits for another card
        # (the game's button, not the result card's title, which names the step it answered)
        self.tap("Draw", within=app.screen("session").view)
        self.tap("Cards")
        self.until(lambda: panel.scanner is not None, "the camera opened again")
        frames = panel.scanner.stats.frames
        self.until(lambda: panel.scanner.stats.frames >= frames + 5, "more frames decoded")
        assert app.session.state.hand == ["tiny/token/copper"]
        assert app.session.request is not None

    def test_a_16_bit_camera_with_alpha_is_read_and_previewed(self) -> None:
        """Issue 26: 16-bit frames were never read by the live path (and a BGRA frame
        raised in the preview on the UI thread)."""

        def deep(photo: np.ndarray) -> np.ndarray:
            alpha = np.full(photo.shape[:2], 255, np.uint8)
            return np.dstack([photo, alpha]).astype(np.uint16) * 257

        app = self.open_tiny()
        self.tap("Draw")
        panel = self.point_camera_at(deep(empty_table()))
        self.until(lambda: panel.preview is not None and panel.preview.texture, "the preview")
        self.until(lambda: panel.scanner.stats.frames >= 5, "frames decoded")
        assert panel.scanner.stats.errors == 0
        self.camera.photos = [deep(card_photo("tiny/token/copper"))]
        self.until(lambda: app.session.state.hand, "the card answering the draw")
        assert app.session.state.hand == ["tiny/token/copper"]
        assert panel.said.startswith("Copper answered")

    def test_in_portrait_a_draw_takes_only_the_room_its_cards_and_camera_need(self) -> None:
        app = self.start_app(PORTRAIT)
        self.tap("New game")
        self.tap("Tiny")
        self.tap("Start the game")
        screen = app.screen("session")
        game = screen.ids.game_column
        half = game.height  # the game's half, with nothing asked for... and no strip yet
        self.tap("Draw")
        self.frames(3)
        side, panel = screen.ids.side, screen.panels["cards"]
        assert screen.tab == "cards" and screen.side_fit > 0
        # tabs, padding and the panel's words, card buttons and camera note: no more
        assert side.height == pytest.approx(screen.side_fit, abs=1)
        assert side.height < screen.ids.body.height / 2 - 100, (side.height, half)
        assert game.height > screen.ids.body.height / 2  # the game has the rest
        scroll = panel.ids.scroll
        low = scroll.to_window(scroll.x, scroll.y)[1]
        for button in panel.ids.options.children:  # every card seen whole, unscrolled
            bottom, top = button.to_window(0, button.y)[1], button.to_window(0, button.top)[1]
            assert low - 1 <= bottom and top <= low + scroll.height + 1, (bottom, top, low)
        seen = panel.ids.seen  # the cards last seen are below, a scroll away
        assert seen.to_window(0, seen.top)[1] < low + 1
        # with the camera's picture the panel grows by it, up to half the screen
        before = side.height
        self.point_camera_at(card_photo("tiny/token/copper", seed=5)[:40, :40])
        self.until(lambda: panel.preview is not None, "the preview")
        self.frames(3)
        assert side.height > before and side.height <= screen.ids.body.height / 2 + 1
        self.shoot("session-cards-camera-draw")
        self.tap("Copper", within=panel)  # the draw answered: the side is a strip again
        self.frames(3)
        assert screen.side_fit == 0 and app.session.state.hand == ["tiny/token/copper"]

    def test_where_opencv_cannot_open_the_camera_kivys_camera_feeds_the_scanner(self) -> None:
        """As on an Android tablet: OpenCV's capture refuses, Kivy's camera provider plays
        a card's photograph, and the same scanner reads it and answers the draw."""
        app = self.open_tiny()
        self.tap("Draw")
        PhotoCamera.photos = [empty_table()]
        PhotoCamera.opened = []
        panel = app.screen("session").panels["cards"]
        panel.kivy_camera = lambda: PhotoCamera
        panel = self.point_camera_at(card_photo("tiny/token/silver"), opened=False)
        self.until(lambda: PhotoCamera.opened and panel.preview is not None, "the preview")
        (camera,) = PhotoCamera.opened
        self.until(lambda: panel.preview.texture is camera.texture, "the provider's texture")
        self.until(lambda: panel.scanner.latest is not None, "a frame decoded")
        grey = panel.scanner.latest  # decoded grey, the right way up (zxing would read a
        expected = cv2.cvtColor(PhotoCamera.photos[0], cv2.COLOR_BGR2GRAY)  # mirrored code)
        assert grey.shape == expected.shape
        assert np.abs(grey.astype(int) - expected).mean() < 2
        assert panel.camera_note == ""
        self.shoot("session-cards-kivy-camera")
        PhotoCamera.photos = [card_photo("tiny/token/copper")]  # the card held up
        self.until(lambda: app.session.state.hand, "the card answering the draw")
        assert app.session.state.hand == ["tiny/token/copper"]
        assert panel.seen == ["Copper"]
        # the card shown, the game gets its room back: leaving the panel lets the camera go
        self.until(lambda: camera.stopped, "the camera stopped")
        assert panel.scanner is None

    def test_a_card_not_in_the_game_changes_nothing(self) -> None:
        app = self.open_tiny()
        self.tap("Draw")
        panel = self.point_camera_at(card_photo("tiny/token/gold"))
        self.until(lambda: panel.said, "a word about the card")
        assert "tiny/token/gold is not in this game's content" in panel.said
        assert app.session.request is not None and app.session.state.hand == []

    def test_with_nothing_asked_a_card_is_only_remembered(self) -> None:
        app = self.open_tiny()
        panel = self.point_camera_at(card_photo("tiny/token/silver"))
        self.until(lambda: panel.said, "a word about the card")
        assert panel.said == "Silver seen, but nothing is waiting for a card right now."
        assert panel.seen == ["Silver"] and app.session.state.hand == []

    def test_other_codes_are_named_and_never_opened(self) -> None:
        app = self.open_tiny()
        self.tap("Draw")
        before = len(app.session.history())
        panel = self.point_camera_at(
            *[code_photo("https://www.hexploreit.com/vol2/living")] * 12,
            code_photo("https://example.com/buy-now"),
        )
        self.until(lambda: len(panel.seen) == 2, "both codes named")
        assert panel.seen == [
            "HEXplore Living Card (read it on hexploreit.com)",
            "Unknown code: https://example.com/buy-now",
        ]
        assert "not one of this app's card labels" in panel.said
        assert app.session.request is not None and len(app.session.history()) == before

    def test_a_new_round_is_a_heading_in_the_log(self) -> None:
        app = self.open_tiny()
        self.tap("Next round")
        self.tap("Log")
        data = app.screen("session").panels["log"].ids.lines.data
        assert {"text": "RoundStarted: round 1", "heading": True} in data


class TestPacks(AppTestCase):
    def test_pack_problems_in_words_on_the_home_screen(self) -> None:
        broken = user_content_dir() / "tiny" / "house"
        broken.mkdir(parents=True)
        (broken / "tokens.yaml").write_text(
            "tokens:\n  - {id: tiny/token/gold, name: Gold, value: lots}\n"
        )
        app = self.start_app()
        texts = [w.text for w in app.screen("home").ids.packs.children if hasattr(w, "text")]
        assert any(t.startswith("[b]Tiny · demo[/b]: 2 items, no problems") for t in texts)
        problem = next(t for t in texts if "house" in t)
        assert (
            "1 problem(s)" in problem
            and "  tokens.yaml:2: tokens[0].value (tiny/token/gold)" in problem
        )
        assert "Expected `int`, got `str`" in problem
        self.shoot("home-pack-problem")
        # the broken pack cannot start a game; the error is shown and nothing is written
        self.tap("New game")
        self.tap("Tiny")
        # the group's own pack is played over the demo unless the table says otherwise
        assert self.find("house").state == "down"
        self.tap("Start the game")
        assert app.session is None
        assert "tokens.yaml:2" in app.screen("new").ids.notice.text
        assert [i.id for i in app.library.list()] == []
