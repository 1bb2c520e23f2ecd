"""The scanner panel: the camera preview, the last cards seen, and the card asked for.

All the reading is `vision/`'s: its `Scanner` grabs and decodes frames on its own threads
(the decode cascade, then the tracker's voting, so a card held up for three seconds is one
card), and each `seen` sighting comes back to the UI loop, where `vision.answering.offer_card`
gives it to the session: it answers a pending draw, runs the game's `card_commands`, or
says in words why not.  Unknown codes and HEXplore Living Cards are named, never opened.

The camera is opened only while this panel is showing (it drains a tablet's battery), on a
worker thread (opening one can take a second); a missing or refused camera is said in
words and the players tap the card instead, so it never blocks a draw.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from kivy.app import App
from kivy.clock import Clock
from kivy.graphics.texture import Texture
from kivy.lang import Builder
from kivy.properties import StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.image import Image

from companion.ui.panels.dice import request_words
from companion.ui.widgets import BigButton, Body, clear_and_fill
from vision.answering import card_name, offer_card
from vision.frames import CameraSource, FrameSource, SourceError
from vision.payload import CARD, LIVING_CARD, Reading
from vision.scanner import Scanner
from vision.tracker import SEEN, Sighting

Builder.load_file(str(Path(__file__).with_suffix(".kv")))
log = logging.getLogger(__name__)

KEEP_SEEN = 6
PREVIEW_EVERY = 1 / 15  # seconds between preview updates; decoding runs at its own pace
TAP_INSTEAD = "Tap the cards instead."


def seen_words(session: Any, reading: Reading) -> str:
    """How a code read is listed under "Last cards seen": a card by its name, anything
    else by what it is, its text shown (escaped), never followed."""
    if reading.kind == CARD and reading.card_id is not None:
        if session is not None and session.content.by_id(reading.card_id) is not None:
            return card_name(session, reading.card_id)
        return reading.card_id
    if reading.kind == LIVING_CARD:
        return "HEXplore Living Card (read it on hexploreit.com)"
    text = reading.text.encode("unicode_escape").decode("ascii")
    return f"Unknown code: {text[:40]}{'...' if len(text) > 40 else ''}"


class ScannerPanel(BoxLayout):
    prompt = StringProperty("")
    camera_note = StringProperty("")
    said = StringProperty("")  # what came of the last card shown, in words

    # Where frames come from: the camera is the outside world, so tests swap this for a
    # `CameraSource` over a stand-in capture device; everything after it is the real thing.
    open_source: Callable[[int], FrameSource] = CameraSource

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.seen: list[str] = []
        self.scanner: Scanner | None = None
        self.preview: Image | None = None
        self._session: Any = None
        self._generation = (
            0  # bumped on every start and stop: late news from an old camera is dropped
        )
        self._opening = False
        self._preview_tick: Any = None
        self._shown: np.ndarray | None = None

    def refresh(self, session: Any) -> None:
        self._session = session
        request = session.request if session is not None else None
        buttons = []
        if request is not None and request.kind == "draw":
            self.prompt = request_words(request) + "\nHold the card up to the camera, or tap it:"
            for card in request.options:
                b = BigButton(text=card_name(session, card))
                b.card_id = card
                b.bind(on_release=lambda b: self.tap_card(b.card_id))
                buttons.append(b)
        else:
            self.prompt = "No card is asked for right now. Cards shown are remembered here."
        clear_and_fill(self.ids.options, buttons)
        self._show_seen()

    def _show_seen(self) -> None:
        names = [Body(text=text) for text in reversed(self.seen)]
        clear_and_fill(self.ids.seen, names or [Body(text="(none yet)")])

    def _remember(self, words: str) -> None:
        self.seen = [s for s in self.seen if s != words][-(KEEP_SEEN - 1) :] + [words]
        self._show_seen()

    def tap_card(self, card_id: str) -> None:
        """A card tapped in place of showing it: answers the draw like any other touch."""
        App.get_running_app().root.get_screen("session").answer(card_id, by="tap")

    def show(self, reading: Reading, by: str = "camera") -> None:
        """A code the scanner saw: remembered, and given to the session (on the UI loop)."""
        session = self._session
        self._remember(seen_words(session, reading))
        if session is None:
            return
        offer = offer_card(session, reading, by=by)
        self.said = offer.message
        log.info("card shown: %s -> %s", reading.text, offer.message)

    # -- the camera --------------------------------------------------------------------

    def start_camera(self) -> None:
        if self.scanner is not None or self._opening:
            return
        index = App.get_running_app().settings.camera
        if index < 0:
            self.camera_note = f"The camera is off (Settings). {TAP_INSTEAD}"
            return
        self._generation += 1
        self._opening = True
        self.camera_note = "Opening the camera..."
        threading.Thread(
            target=self._open, args=(index, self._generation), name="camera-open", daemon=True
        ).start()

    def _open(self, index: int, generation: int) -> None:
        """On a worker thread: open the camera and start reading it."""
        try:
            source = self.open_source(index)
        except SourceError as exc:
            message = str(exc)
            Clock.schedule_once(lambda _dt: self._failed(message, generation))
            return
        except Exception as exc:  # a platform without a camera backend
            log.info("camera unavailable: %s", exc)
            Clock.schedule_once(
                lambda _dt: self._failed("the camera could not be opened", generation)
            )
            return
        scanner = Scanner(
            source,
            on_sighting=lambda s: Clock.schedule_once(lambda _dt: self._sighted(s, generation)),
            on_error=lambda m: Clock.schedule_once(lambda _dt: self._failed(m, generation)),
        )
        scanner.start()
        Clock.schedule_once(lambda _dt: self._opened(scanner, generation))

    def _opened(self, scanner: Scanner, generation: int) -> None:
        if generation != self._generation:  # the panel was left while the camera opened
            scanner.stop(timeout=0.5)
            return
        self._opening = False
        self.scanner = scanner
        if scanner.error:
            return  # _failed is on its way
        self.camera_note = ""
        self.preview = Image(fit_mode="contain")
        self.ids.preview.add_widget(self.preview)
        self._preview_tick = Clock.schedule_interval(self._show_frame, PREVIEW_EVERY)

    def _failed(self, message: str, generation: int) -> None:
        if generation != self._generation:
            return
        self.stop_camera()
        self.camera_note = f"{message[:1].upper()}{message[1:]}. {TAP_INSTEAD}"

    def _sighted(self, sighting: Sighting, generation: int) -> None:
        if generation == self._generation and sighting.change == SEEN:
            self.show(sighting.reading)

    def _show_frame(self, _dt: float) -> None:
        """The newest frame the scanner grabbed, into the preview's texture."""
        frame = self.scanner.latest if self.scanner is not None else None
        if frame is None or frame is self._shown or not frame.size or self.preview is None:
            return
        self._shown = frame
        h, w = frame.shape[:2]
        texture = self.preview.texture
        if texture is None or tuple(texture.size) != (w, h):
            texture = Texture.create(size=(w, h), colorfmt="rgb")
            texture.flip_vertical()  # camera rows run top down, GL's bottom up
        rgb = cv2.cvtColor(frame, cv2.COLOR_BGR2RGB)
        texture.blit_buffer(rgb.tobytes(), colorfmt="rgb", bufferfmt="ubyte")
        self.preview.texture = texture
        self.preview.canvas.ask_update()

    def stop_camera(self) -> None:
        self._generation += 1
        self._opening = False
        if self._preview_tick is not None:
            self._preview_tick.cancel()
            self._preview_tick = None
        if self.preview is not None:
            self.ids.preview.remove_widget(self.preview)
            self.preview = None
        self._shown = None
        scanner, self.scanner = self.scanner, None
        if scanner is not None:
            scanner.stop(timeout=0.5)
