"""The scanner panel: the camera preview, the last cards seen, and the card asked for.

All the reading is `vision/`'s: its `Scanner` grabs and decodes frames on its own threads
(the decode cascade, then the tracker's voting, so a card held up for three seconds is one
card), and each `seen` sighting comes back to the UI loop, where
`companion.table.card_answers.offer_card` gives it to the session: it answers a pending draw, runs the game's `card_commands`, or
says in words why not.  Unknown codes and HEXplore Living Cards are named, never opened.

The camera is opened only while this panel is showing (it drains a tablet's battery), on a
worker thread (opening one can take a second); a missing or refused camera is said in
words and the players tap the card instead, so it never blocks a draw.

Frames come from OpenCV's capture where it can open the camera (a desktop, a Raspberry
Pi), and otherwise from Kivy's own camera provider (`KivyCameraSource`): on an Android
tablet OpenCV cannot open the camera and Kivy's is the way in.  Either way they feed the
same `vision` scanner; with Kivy's camera the preview is the provider's own texture, so no
frame is copied for it.
"""

from __future__ import annotations

import logging
import threading
import weakref
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, cast

from kivy.app import App
from kivy.clock import Clock, ClockEvent
from kivy.graphics.texture import Texture
from kivy.lang import Builder
from kivy.metrics import dp
from kivy.properties import NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.image import Image

from companion.core.rules import Request, request_words
from companion.table.card_answers import card_name, offer_card
from companion.ui.panels.camera_open import open_camera
from companion.ui.widgets import BigButton, Body, clear_and_fill, text_width
from vision.frames import CameraSource, FrameSource, SourceError
from vision.payload import CARD, LIVING_CARD, Reading
from vision.tracker import SEEN, Sighting, Tracker

if TYPE_CHECKING:  # OpenCV, numpy and zxing-cpp are imported when the camera opens
    import numpy as np
    from kivy.core.camera import CameraBase  # importing it picks the camera provider

    from companion.core.session import Session
    from vision.scanner import Scanner

Builder.load_file(str(Path(__file__).with_suffix(".kv")))
log = logging.getLogger(__name__)

KEEP_SEEN = 6
PREVIEW_EVERY = 1 / 15  # seconds between preview updates; decoding runs at its own pace
TAP_INSTEAD = "Tap the cards instead."
CAMERA_SIZE = (1280, 720)  # asked of either camera
FRAME_WAIT = 5.0  # seconds without a picture from Kivy's camera before it counts as gone


class KivyCameraSource:
    """Frames from a Kivy camera provider, for the scanner: grey, at the camera's size.

    The scanner's grabbing thread asks for a frame; the next time the provider updates
    its texture (on Kivy's thread) one is taken: the luminance plane of Android's NV21
    buffer where the provider hands it out (no conversion), otherwise the texture's pixels
    read back and turned grey.  Frames nobody asked for are never read back, so a scanner
    busy decoding costs the camera nothing.  Open and close it on Kivy's thread.
    """

    live = True

    def __init__(
        self, camera: CameraBase, name: str, wait: float = FRAME_WAIT, colour: bool = False
    ) -> None:
        self.camera, self.name, self.wait = camera, name, wait
        self.colour = colour  # BGR frames (the dice reader's), not grey (the decoder's)
        self._ready = threading.Condition()
        self._frame: np.ndarray | None = None
        self._wanted = False
        self._closed = False
        camera.bind(on_texture=self._on_texture)
        if camera.stopped:
            camera.start()

    @classmethod
    def open(cls, provider: type[CameraBase], index: int, colour: bool = False) -> KivyCameraSource:
        try:
            camera = provider(index=index, resolution=CAMERA_SIZE, stopped=True)
        except Exception as exc:  # the provider's own failure, in its words
            log.info("Kivy camera %d: %s", index, exc)
            raise SourceError(f"camera {index} could not be opened") from exc
        return cls(camera, f"camera {index}", colour=colour)

    @property
    def texture(self) -> Texture | None:
        """The provider's texture: the preview draws it as it is."""
        return cast("Texture | None", self.camera.texture)

    def _on_texture(self, camera: CameraBase) -> None:
        if not self._wanted or self._closed:
            return
        frame = self._grey()
        if frame is None:
            return
        with self._ready:
            self._frame, self._wanted = frame, False
            self._ready.notify_all()

    def _grey(self) -> np.ndarray | None:
        import cv2
        import numpy as np

        w, h = (int(v) for v in self.camera.resolution)
        grab = getattr(self.camera, "grab_frame", None)
        if grab is not None:  # Android: NV21, whose first w*h bytes are the grey picture
            buf = grab()
            size = w * h * 3 // 2 if self.colour else w * h
            if buf is None or len(buf) < size:
                return None
            if self.colour:
                nv21 = np.frombuffer(buf, np.uint8, size).reshape(h * 3 // 2, w)
                return cv2.cvtColor(nv21, cv2.COLOR_YUV2BGR_NV21)
            return np.frombuffer(buf, np.uint8, w * h).reshape(h, w).copy()
        texture = self.camera.texture
        if texture is None:
            return None
        tw, th = texture.size
        rgba = np.frombuffer(texture.pixels, np.uint8).reshape(th, tw, 4)
        return cv2.cvtColor(rgba, cv2.COLOR_RGBA2BGR if self.colour else cv2.COLOR_RGBA2GRAY)

    def read(self) -> np.ndarray | None:
        with self._ready:
            self._wanted, self._frame = True, None
            self._ready.wait_for(lambda: self._frame is not None or self._closed, self.wait)
            if self._closed:
                return None
            if self._frame is None:
                raise SourceError(f"{self.name} stopped sending pictures")
            frame, self._frame = self._frame, None
            return frame

    def close(self) -> None:
        with self._ready:
            self._closed = True
            self._ready.notify_all()
        self.camera.unbind(on_texture=self._on_texture)
        self.camera.stop()


def kivy_camera_provider() -> type[CameraBase] | None:
    """Kivy's camera provider, unless it is OpenCV's (which the panel tried already)."""
    from kivy.core.camera import Camera

    if Camera is None or "opencv" in Camera.__module__:
        return None
    return cast("type[CameraBase]", Camera)


def seen_words(session: Session | None, reading: Reading) -> str:
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


def display_rgb(frame: np.ndarray, size: tuple[float, float]) -> np.ndarray:
    """The camera frame as RGB rows no larger than `size` (the preview widget's, in
    pixels), aspect kept: shrunk before the colour conversion, so no full-size copy is
    made.  A grey frame (what a phone camera hands the decoder) is shown grey."""
    import cv2
    import numpy as np

    from vision.pixels import eight_bit

    frame = eight_bit(frame)  # a 16-bit or float camera's frame; 8-bit as it is
    h, w = frame.shape[:2]
    scale = min(1.0, max(size[0], 1.0) / w, max(size[1], 1.0) / h)
    if scale < 1.0:
        size_px = (max(1, round(w * scale)), max(1, round(h * scale)))
        frame = cv2.resize(frame, size_px, interpolation=cv2.INTER_AREA)
    if frame.ndim == 3 and frame.shape[2] <= 2:
        frame = frame[:, :, 0]  # grey (and alpha)
    if frame.ndim == 2:
        code = cv2.COLOR_GRAY2RGB
    else:
        code = cv2.COLOR_BGRA2RGB if frame.shape[2] == 4 else cv2.COLOR_BGR2RGB
    return np.ascontiguousarray(cv2.cvtColor(np.ascontiguousarray(frame), code))


def draw_prompt(request: Request) -> str:
    """What the Cards panel asks, in two lines: who draws and what ("Stormbringer: flip the
    top Enemy AI card"), then how to answer.  Shorter than the Dice panel's words (no
    "Draw a card" line): at the Largest text the card buttons must start high enough that
    a deck of ten needs little scrolling."""
    if request.choice:
        return request_words(request) + "\nTap one:"
    what = (
        f"{request.who}: {request.why}"
        if request.who
        else request.why[:1].upper() + request.why[1:]
    )
    return what + "\nHold it up to the camera, or tap it:"


class ScannerPanel(BoxLayout):
    prompt = StringProperty("")
    camera_note = StringProperty("")
    # the height a draw needs: its words, its cards, the camera's note or picture (the
    # cards last seen scroll below it); the session screen sizes a portrait panel by it
    wanted = NumericProperty(0)
    said = StringProperty("")  # what came of the last card shown, in words

    # Where frames come from: the camera is the outside world, so tests swap this for a
    # `CameraSource` over a stand-in capture device, and `kivy_camera` for a stand-in Kivy
    # camera provider; everything after them is the real thing.  On Android only Kivy's
    # camera is tried.
    open_source: Callable[[int], FrameSource] = CameraSource  # imports OpenCV once called
    kivy_camera: Callable[[], type[CameraBase] | None] = staticmethod(kivy_camera_provider)

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self.seen: list[str] = []
        self.ids.options.bind(width=self._even)  # two cards a row only where they fit
        self.scanner: Scanner | None = None
        # One tracker for the panel's life: a card still held when the camera stops (the
        # tab closed after its draw) and opens again is the same sighting, never a new draw.
        self.tracker = Tracker()
        self.preview: Image | None = None
        self._session: Session | None = None
        self._generation = (
            0  # bumped on every start and stop: late news from an old camera is dropped
        )
        self._opening = False
        self._preview_tick: ClockEvent | None = None
        # the frame last drawn, weakly: holding it kept a whole camera frame (2.7 MB at
        # 720p) alive after the scanner had moved on to newer ones
        self._shown: weakref.ref[np.ndarray] | None = None

    def refresh(self, session: Session) -> None:
        self._session = session
        request = session.request if session is not None else None
        cards: list[tuple[str, str]] = []  # (card id, its name) of each button
        if request is not None and request.kind == "draw":
            self.prompt = draw_prompt(request)
            cards = [(card, card_name(session, card)) for card in request.options]
        else:
            self.prompt = "No card is asked for right now. Cards shown are remembered here."
        grid = self.ids.options
        shown = [(b.card_id, b.text) for b in reversed(grid.children)]
        if cards != shown:  # the same cards keep their buttons (see _show_seen)
            buttons = []
            for card, name in cards:
                b = BigButton(text=name)
                b.card_id = card
                b.bind(on_release=lambda b: self.tap_card(b.card_id))
                b.bind(texture_size=lambda *_a: self._even())
                buttons.append(b)
            clear_and_fill(grid, buttons)
        if request is not None and request is not getattr(self, "_asked", None):
            self.ids.scroll.scroll_y = 1  # a new draw starts at its words and first cards
        self._asked = request
        self._show_seen()

    def _even(self, *_args: object) -> None:
        """Every card button as tall as the tallest (a one-line name beside a two-line one
        was a short button in a tall row, and read as a different kind of thing); two a
        row only where every name's words stay whole (a phone at the Largest text broke
        a long name in half the panel's width)."""
        grid = self.ids.options
        buttons = grid.children
        half = (grid.width - grid.spacing[0]) / 2 - dp(12)  # a button's words' room
        widest = max(
            (text_width(w, b.font_size, b.font_name) for b in buttons for w in b.text.split()),
            default=0.0,
        )
        grid.cols = 2 if widest <= half - 1 else 1
        tallest = max((b.texture_size[1] for b in buttons), default=0) + dp(16)
        for b in buttons:
            b.min_height = max(dp(64), tallest)

    def _show_seen(self) -> None:
        """The cards last seen, newest first, in the rows already there: each card shown
        (and each refresh for it) made a new row of labels, and the old ones, held in
        reference cycles as every Kivy widget is, kept their textures and drawing until
        Python's rare full collection (2-3 MB with the preview running, issue 26)."""
        texts = list(reversed(self.seen)) or ["(none yet)"]
        grid = self.ids.seen
        while len(grid.children) > len(texts):
            grid.remove_widget(grid.children[0])
        while len(grid.children) < len(texts):
            grid.add_widget(Body())
        for row, text in zip(reversed(grid.children), texts, strict=True):
            row.text = text

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
        """On a worker thread: the camera with OpenCV, else Kivy's (`open_camera`)."""
        open_camera(
            self.open_source,
            index,
            lambda source: self._scan(source, generation),
            lambda refusal: self._open_kivy(index, generation, refusal),
        )

    def _open_kivy(self, index: int, generation: int, refusal: str | None) -> None:
        """On Kivy's thread: the camera through Kivy's provider, or say why there is none
        (OpenCV's words when it refused first)."""
        if generation != self._generation:
            return
        provider = self.kivy_camera()
        if provider is None:
            self._failed(refusal or "this device has no camera the app can use", generation)
            return
        try:
            source = KivyCameraSource.open(provider, index)
        except SourceError as exc:
            self._failed(refusal or str(exc), generation)
            return
        self._scan(source, generation)

    def _scan(self, source: FrameSource, generation: int) -> None:
        from vision.scanner import Scanner

        scanner = Scanner(
            source,
            tracker=self.tracker,
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
        """The newest frame the scanner grabbed, into the preview's texture at the size
        the preview is drawn (a 720p texture would be scaled down on screen anyway, and
        would hold three times the memory)."""
        if self.scanner is None or self.preview is None:
            return
        own = getattr(self.scanner.source, "texture", None)
        if own is not None:  # Kivy's camera: its texture, as it is
            if self.preview.texture is not own:
                self.preview.texture = own
            self.preview.canvas.ask_update()
            return
        frame = self.scanner.latest
        if frame is None or frame is self._shown_frame() or not frame.size:
            return
        self._shown = weakref.ref(frame)
        rgb = display_rgb(frame, self.preview.size)
        h, w = rgb.shape[:2]
        texture = self.preview.texture
        if texture is None or tuple(texture.size) != (w, h):
            texture = Texture.create(size=(w, h), colorfmt="rgb")
            texture.flip_vertical()  # camera rows run top down, GL's bottom up
        texture.blit_buffer(rgb.data.cast("B"), colorfmt="rgb", bufferfmt="ubyte")
        self.preview.texture = texture
        self.preview.canvas.ask_update()

    def _shown_frame(self) -> np.ndarray | None:
        return self._shown() if self._shown is not None else None

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
