"""The scanner panel: the camera preview, the last cards seen, and the card asked for.

The camera is opened only while this panel is showing (it drains a tablet's battery) and
only if there is one; without a camera the players tap the card instead, so a missing or
refused camera never blocks a draw.  Frames are decoded for QR codes a few times a second
on the UI loop's clock; a card id is `<game>/<kind>/<slug>` anywhere in the payload.
"""

from __future__ import annotations

import glob
import logging
import re
import sys
from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.lang import Builder
from kivy.properties import StringProperty
from kivy.uix.boxlayout import BoxLayout

from companion.ui.panels.dice import request_words
from companion.ui.widgets import BigButton, Body, clear_and_fill

Builder.load_file(str(Path(__file__).with_suffix(".kv")))
log = logging.getLogger(__name__)

CARD_ID = re.compile(r"[a-z0-9_.-]+(?:/[a-z0-9_.-]+){2,}")
KEEP_SEEN = 6
DECODE_EVERY = 0.3  # seconds between QR decodes of the preview


def card_id_in(payload: str, games: list[str] | None = None) -> str | None:
    """The card id in a QR payload: a bare id, or one inside a URL, of a known game."""
    from companion.games import available_games

    known = set(games if games is not None else available_games())
    for match in CARD_ID.finditer(payload):
        text = match.group(0)
        parts = text.split("/")
        for i in range(len(parts) - 2):  # the id may follow a host or path prefix
            if parts[i] in known:
                return "/".join(parts[i : i + 3])
    return None


def camera_present() -> bool:
    """Whether a camera may exist; on Linux a missing /dev/video* settles it cheaply."""
    if sys.platform.startswith("linux") and "ANDROID_ARGUMENT" not in __import__("os").environ:
        return bool(glob.glob("/dev/video*"))
    return True


def decode_texture(texture: Any) -> list[str]:
    """QR payloads in a camera texture (zxing-cpp; empty if it is not installed)."""
    try:
        import numpy as np
        import zxingcpp
    except ImportError:
        return []
    w, h = texture.size
    image = np.frombuffer(texture.pixels, dtype=np.uint8).reshape(h, w, 4)
    return [r.text for r in zxingcpp.read_barcodes(image[:, :, :3])]


class ScannerPanel(BoxLayout):
    prompt = StringProperty("")
    camera_note = StringProperty("")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.seen: list[str] = []
        self.camera: Any = None
        self._decoder: Any = None
        self._session: Any = None

    def refresh(self, session: Any) -> None:
        self._session = session
        request = session.request if session is not None else None
        buttons = []
        if request is not None and request.kind == "draw":
            self.prompt = request_words(request) + "\nHold the card up to the camera, or tap it:"
            for card in request.options:
                item = session.content.by_id(card)
                b = BigButton(text=getattr(item, "name", card) or card)
                b.card_id = card
                b.bind(on_release=lambda b: self.feed_card(b.card_id, by="tap"))
                buttons.append(b)
        else:
            self.prompt = "No card is asked for right now. Cards shown are remembered here."
        clear_and_fill(self.ids.options, buttons)
        self._show_seen()

    def _show_seen(self) -> None:
        names = []
        for card in reversed(self.seen):
            item = self._session.content.by_id(card) if self._session else None
            names.append(Body(text=getattr(item, "name", None) or card))
        clear_and_fill(self.ids.seen, names or [Body(text="(none yet)")])

    def feed_card(self, card_id: str, by: str = "camera") -> None:
        """A card seen (or tapped): remembered, and answers a pending draw."""
        self.seen = [c for c in self.seen if c != card_id][-(KEEP_SEEN - 1) :] + [card_id]
        session = self._session
        if session is not None and session.request is not None and session.request.kind == "draw":
            App.get_running_app().root.get_screen("session").answer(card_id, by=by)
        else:
            self._show_seen()

    # -- the camera --------------------------------------------------------------------

    def start_camera(self) -> None:
        app = App.get_running_app()
        index = app.settings.camera
        if self.camera is not None:
            return
        if index < 0:
            self.camera_note = "The camera is off (Settings). Tap the cards instead."
            return
        if not camera_present():
            self.camera_note = "No camera found on this device. Tap the cards instead."
            return
        try:
            from kivy.uix.camera import Camera

            self.camera = Camera(index=index, resolution=(640, 480), play=True)
        except Exception as exc:  # no provider, refused permission, busy device
            log.info("camera unavailable: %s", exc)
            self.camera = None
            self.camera_note = "The camera could not be opened. Tap the cards instead."
            return
        if getattr(self.camera, "_camera", None) is None:
            self.camera = None
            self.camera_note = "The camera could not be opened. Tap the cards instead."
            return
        self.camera_note = ""
        self.ids.preview.add_widget(self.camera)
        self._decoder = Clock.schedule_interval(self._decode, DECODE_EVERY)

    def stop_camera(self) -> None:
        if self._decoder is not None:
            self._decoder.cancel()
            self._decoder = None
        if self.camera is not None:
            self.camera.play = False
            self.ids.preview.remove_widget(self.camera)
            self.camera = None

    def _decode(self, _dt: float) -> None:
        texture = getattr(self.camera, "texture", None)
        if texture is None:
            return
        for payload in decode_texture(texture):
            card = card_id_in(payload)
            if card and (not self.seen or self.seen[-1] != card):
                self.feed_card(card)
