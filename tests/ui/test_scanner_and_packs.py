"""The scanner panel without a camera, QR decoding of a real frame, and content packs with
problems shown in words on the home screen."""

from __future__ import annotations

import io

import pytest

from companion.paths import user_content_dir
from companion.ui.panels import scanner
from tests.ui.kivyharness import AppTestCase

pytestmark = pytest.mark.ui


def qr_texture(payload: str):
    """A camera-sized RGBA frame with a QR code in it, as Kivy's camera would hand over."""
    import segno
    from kivy.core.image import Image as CoreImage

    buffer = io.BytesIO()
    segno.make(payload, error="m").save(buffer, kind="png", scale=8, border=4)
    buffer.seek(0)
    return CoreImage(buffer, ext="png").texture


class TestScanner(AppTestCase):
    def open_tiny(self):
        app = self.start_app()
        self.tap("New game")
        self.tap("Tiny")
        self.tap("Start the game")
        return app

    def test_without_a_camera_the_cards_are_tapped(self) -> None:
        app = self.open_tiny()
        app.settings.camera = -1
        self.tap("Cards")
        panel = app.screen("session").panels["cards"]
        assert panel.camera is None and "camera is off" in panel.camera_note

    def test_no_camera_device_is_said_in_words(self) -> None:
        app = self.open_tiny()
        original = scanner.camera_present
        scanner.camera_present = lambda: False  # the device list, faked at the edge
        try:
            self.tap("Cards")
        finally:
            scanner.camera_present = original
        panel = app.screen("session").panels["cards"]
        assert panel.camera is None and "No camera found" in panel.camera_note

    def test_a_card_in_a_frame_answers_the_draw(self) -> None:
        app = self.open_tiny()
        self.tap("Draw")
        panel = app.screen("session").panels["cards"]
        payloads = scanner.decode_texture(qr_texture("https://tc.example/c/tiny/token/copper"))
        assert payloads == ["https://tc.example/c/tiny/token/copper"]
        card = scanner.card_id_in(payloads[0])
        assert card == "tiny/token/copper"
        panel.feed_card(card)
        self.frames(3)
        assert app.session.state.hand == ["tiny/token/copper"]
        assert app.session.history()[-1][0].data["by"] == "camera"
        assert [w.text for w in panel.ids.seen.children] == ["Copper"]

    def test_a_card_that_cannot_come_up_is_refused(self) -> None:
        app = self.open_tiny()
        self.tap("Draw")
        app.screen("session").panels["cards"].feed_card("tiny/token/gold")
        self.frames(2)
        assert "tiny/token/gold cannot be drawn" in app.screen("session").error
        assert app.session.request is not None and app.session.state.hand == []

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
        texts = [w.text for w in app.screen("home").ids.packs.children]
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
        self.tap("house")
        self.tap("Start the game")
        assert app.session is None
        assert "tokens.yaml:2" in app.screen("new").ids.notice.text
        assert [i.id for i in app.library.list()] == []


@pytest.mark.parametrize(
    ("payload", "card"),
    [
        ("tiny/token/copper", "tiny/token/copper"),
        ("https://tc.example/c/tiny/token/silver", "tiny/token/silver"),
        ("TC1:tiny/token/copper", "tiny/token/copper"),
        ("https://example.com/some/other/thing", None),
        ("hello", None),
    ],
)
def test_card_id_in_a_payload(payload, card):
    assert scanner.card_id_in(payload, games=["tiny"]) == card
