"""The Dice panel's camera block (issue 28): the preview with each die and its value, the
dice in words, "Use these dice", and the setting to take the roll when the dice are still.

It draws what `companion.table.dice_camera.CameraDice` holds and sends it the table's taps;
the reading is `vision.dice`'s, on the `DiceWatcher`'s thread, each read brought to Kivy's
loop with `Clock.schedule_once` and shown the same way whether a roll is waiting or not.
The camera is opened only while the block is on the screen and turned on (a tablet's
battery), on a worker thread (opening one can take a second); a camera that will not open
is said in words and the keypad stays the way on.  A phone's photo is shown here too until
it is answered.  An unsure die is marked "?" and "unsure" in words, never by colour alone.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from kivy.app import App
from kivy.clock import Clock
from kivy.core.text import Label as CoreLabel
from kivy.graphics.texture import Texture
from kivy.input.motionevent import MotionEvent
from kivy.lang import Builder
from kivy.metrics import dp
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.image import Image

from companion.ui.panels.camera_open import open_camera
from companion.ui.panels.scanner import KivyCameraSource, display_rgb, kivy_camera_provider
from companion.ui.style import style
from companion.ui.widgets import BigButton, clear_and_fill
from vision.frames import CameraSource, FrameSource, SourceError

if TYPE_CHECKING:
    import numpy as np
    from kivy.core.camera import CameraBase

    from companion.table.dice_camera import CameraDice
    from vision.dice.camera import DiceWatcher
    from vision.dice.reader import DieRead

Builder.load_file(str(Path(__file__).with_suffix(".kv")))
log = logging.getLogger(__name__)

SURE = (80, 200, 90)  # BGR outlines: a read die, an unsure one, one the table set
UNSURE = (0, 170, 255)
SET_BY_HAND = (255, 190, 60)


def die_words(index: int, face: int | None, fixed: bool) -> str:
    """'Die 2: 5', 'Die 2: ? unsure, tap to set', 'Die 2: 4 (set by hand)'."""
    if face is None:
        return f"Die {index + 1}: ? unsure, tap to set"
    return f"Die {index + 1}: {face}{' (set by hand)' if fixed else ''}"


def box_label(index: int, face: int | None) -> str:
    """The words on a die in the picture: short, so dice side by side keep theirs apart
    (an unsure die's "?" is its mark; its button says "unsure" in words)."""
    return f"{index + 1}: {face if face is not None else '?'}"


Rect = tuple[int, int, int, int]  # x0, y0, x1, y1 in the picture's pixels


def label_places(boxes: list[Rect], sizes: list[tuple[int, int]], picture: Rect) -> list[Rect]:
    """Where each die's label goes: above its box, else under it, else to its left or
    right, else inside its top; the first that stays in the picture and covers neither
    another die nor a label already placed (dice touching each other would otherwise hide
    each other's pips or numbers), else the first clear of the labels."""
    placed: list[Rect] = []
    for i, ((x0, y0, x1, y1), (w, h)) in enumerate(zip(boxes, sizes, strict=True)):
        left = max(picture[0], min(x0, picture[2] - w))  # a die at the edge keeps its words
        spots = [
            (x, y, x + w, y + h)
            for x, y in ((left, y0 - h), (left, y1), (x0 - w, y0), (x1, y0), (left, y0))
            if picture[0] <= x <= picture[2] - w and picture[1] <= y <= picture[3] - h
        ] or [(left, max(picture[1], y0), left + w, max(picture[1], y0) + h)]
        others = placed + [b for j, b in enumerate(boxes) if j != i]
        clear = [r for r in spots if not any(_overlap(r, q) for q in others)]
        apart = [r for r in spots if not any(_overlap(r, q) for q in placed)]
        placed.append((clear or apart or spots)[0])
    return placed


Spot = tuple[float, float, float, float]  # x0, y0, x1, y1 in the shown picture's pixels, top down


def badge_place(boxes: list[Spot], size: tuple[float, float], picture: Spot, inset: float) -> Spot:
    """Where the "Photos kept" badge goes on the picture: its top left corner, else top
    right, bottom left or bottom right, the first clear of every die (each box given with
    the room its label takes), else the one over least of them.  A fixed order, so the
    badge moves only when a die comes into its corner, never between two corners as the
    dice jitter from frame to frame elsewhere; `inset` keeps it off the picture's edge."""
    w, h = size
    x0, y0, x1, y1 = picture
    spots = [
        (x, y, x + w, y + h)
        for y in (y0 + inset, y1 - inset - h)
        for x in (x0 + inset, x1 - inset - w)
    ]

    def covered(spot: Spot) -> float:
        return sum(
            max(0.0, min(spot[2], b[2]) - max(spot[0], b[0]))
            * max(0.0, min(spot[3], b[3]) - max(spot[1], b[1]))
            for b in boxes
        )

    return min(spots, key=covered)  # the first of the least covered: the order above


def _overlap(a: Rect, b: Rect) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@dataclass(frozen=True)
class Drawn:
    """The preview as drawn, and where on it each die's outline and label went (in its
    pixels, top down): what the "Photos kept" badge keeps clear of."""

    rgb: np.ndarray
    marks: list[Rect]


def draw_dice(
    frame: np.ndarray,
    dice: tuple[DieRead, ...],
    faces: list[int | None],
    fixed: set[int],
    size: tuple[float, float],
    label_px: float = 0.0,
) -> Drawn:
    """The frame as RGB no larger than `size`, each die outlined and labelled with its
    number and value ("2: ?" for an unsure one), the labels at least `label_px` tall (the
    table's text size) and clear of each other."""
    import cv2
    import numpy as np

    h, w = frame.shape[:2]
    rgb = display_rgb(frame, size)
    scale = rgb.shape[1] / w
    out = np.ascontiguousarray(rgb)
    thick = max(2, round(3 * scale * max(w, h) / 1280))
    # Hershey's simplex letters are 22 px tall at scale 1
    font = max(0.5, 0.9 * scale * max(w, h) / 1280, label_px / 22)
    ink = max(thick, round(font * 2))  # the letters' strokes
    boxes: list[Rect] = [
        (round(d.box[0] * scale), round(d.box[1] * scale), round(d.box[2] * scale),
         round(d.box[3] * scale))
        for d in dice
    ]  # fmt: skip
    texts = [box_label(i, face) for i, face in enumerate(faces)]
    measured = [cv2.getTextSize(t, cv2.FONT_HERSHEY_SIMPLEX, font, ink) for t in texts]
    sizes = [(tw + 6, th + base + 4) for (tw, th), base in measured]
    picture = (0, 0, out.shape[1], out.shape[0])
    colours = [
        (SET_BY_HAND if i in fixed else (SURE if face is not None else UNSURE))[::-1]
        for i, face in enumerate(faces)
    ]  # BGR outlines, the preview is RGB
    for box, colour in zip(boxes, colours, strict=True):
        cv2.rectangle(out, box[:2], box[2:], colour, thick)
    places = label_places(boxes, sizes, picture)
    for text, ((_tw, th), _b), place, colour in zip(texts, measured, places, colours, strict=True):
        cv2.rectangle(out, place[:2], place[2:], colour, -1)
        cv2.putText(
            out,
            text,
            (place[0] + 3, place[1] + th + 2),
            cv2.FONT_HERSHEY_SIMPLEX,
            font,
            (0, 0, 0),
            ink,
            cv2.LINE_AA,
        )
    return Drawn(out, boxes + places)


class FaceKey(BigButton):
    """One face to give an unsure die."""


class DicePreview(Image):
    """The preview; a tap on a die's box chooses that die, to set its face.  A tap is a
    finger put down and lifted on it: the side panel's scroll view hands a lift on to
    whatever stands under it a moment later, and the finger that tapped Camera dice was
    lifted over the preview that had opened in the button's place, choosing a die."""

    def on_touch_down(self, touch: MotionEvent) -> bool:
        if self.collide_point(*touch.pos) and self.texture is not None:
            touch.ud[self._key] = True
        return bool(super().on_touch_down(touch))

    @property
    def _key(self) -> str:
        return f"dice-preview-{id(self)}"

    def on_touch_up(self, touch: MotionEvent) -> bool:
        if not self.collide_point(*touch.pos) or self.texture is None:
            return False
        if not touch.ud.get(self._key):
            return False  # lifted here, put down elsewhere
        block = self.parent
        while block is not None and not isinstance(block, DiceCameraBlock):
            block = block.parent
        frame = getattr(block, "frame_size", None)
        if block is None or not frame:
            return False
        iw, ih = self.norm_image_size
        x0, y0 = self.center_x - iw / 2, self.center_y - ih / 2
        u = (touch.x - x0) / max(iw, 1) * frame[0]
        v = (1 - (touch.y - y0) / max(ih, 1)) * frame[1]
        return bool(block.tap_at(u, v))


class DiceCameraBlock(BoxLayout):
    on = BooleanProperty(False)  # the camera is turned on as a dice source
    note = StringProperty("")  # the dice in view, or why they cannot answer, in words
    ready = BooleanProperty(False)  # "Use these dice" may be tapped
    still_text = StringProperty("")
    choosing = NumericProperty(-1)  # the die whose face the table is choosing
    showing = BooleanProperty(False)  # a frame or a phone's photo is in view
    photo = BooleanProperty(False)  # the photo in view is a phone's
    # the block in the keypad's place: camera dice turned on, or a phone's photo in view
    camera_mode = BooleanProperty(False)
    wide = BooleanProperty(False)  # the picture beside the words (a tablet), not above them
    kept = BooleanProperty(False)  # a picture in view whose roll's photo Settings keep
    marks = ListProperty([])  # the dice's outlines and labels as drawn: the badge avoids them
    drawn_width = NumericProperty(1)  # the drawn preview's width in pixels, for `marks`

    # Where frames come from: the camera is the outside world, so tests swap this for a
    # `CameraSource` over a stand-in capture device; everything after it is the real thing.
    open_source: Callable[[int], FrameSource] = CameraSource
    # ... and Kivy's camera provider where OpenCV cannot open one (an Android tablet)
    kivy_camera: Callable[[], type[CameraBase] | None] = staticmethod(kivy_camera_provider)

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self.watcher: DiceWatcher | None = None
        self._generation = 0
        self._shown: tuple[object, ...] = ()
        self._drawn: np.ndarray | None = None  # the frame last drawn in the preview
        self._opening = False
        self._refused_words = ""  # a camera that would not open is not tried every second
        self._stop_bound = False

    @property
    def camera(self) -> CameraDice:
        return App.get_running_app().hub.camera  # type: ignore[no-any-return]

    # -- on and off ----------------------------------------------------------------------

    def toggle(self) -> None:
        if self.on:
            self.on = False
            self.stop_camera()
            self.camera.turn_off()
        else:
            self.on = True
            self.camera.turn_on()
            self.camera_mode = True
            self._place()  # on the screen before the camera opens
            self.start_camera()
        self.refresh()

    def toggle_still(self) -> None:
        app = App.get_running_app()
        app.settings.still_dice = not app.settings.still_dice
        app.save_settings()
        self.refresh()

    def follow_screen(self) -> None:
        """On the screen and turned on: read the camera; off the screen (no roll waiting,
        another tab, another screen): free it, and open it again when back."""
        if self.get_root_window() is None:
            if self.watcher is not None or self._opening:
                self.stop_camera()
        elif self.on and self.watcher is None and not self._opening and not self._refused_words:
            self.start_camera()

    def start_camera(self) -> None:
        if self.watcher is not None or self._opening:
            return
        self._refused_words = ""
        index = App.get_running_app().settings.camera
        if index < 0:
            self.note = "The camera is off (Settings): use the keypad."
            self._refused_words = self.note
            return
        self._generation += 1
        self._opening = True
        self.note = "Opening the camera..."
        threading.Thread(
            target=self._open, args=(index, self._generation), name="dice-camera-open", daemon=True
        ).start()

    def _open(self, index: int, generation: int) -> None:
        """On a worker thread: the camera with OpenCV, else Kivy's (`open_camera`)."""
        open_camera(
            self.open_source,
            index,
            lambda source: self._watch(source, generation),
            lambda refusal: self._open_kivy(index, generation, refusal),
        )

    def _open_kivy(self, index: int, generation: int, refusal: str | None) -> None:
        """On Kivy's thread: the camera through Kivy's provider, in colour, or say why
        there is none (OpenCV's words when it refused first)."""
        if generation != self._generation:
            return
        provider = self.kivy_camera()
        if provider is None:
            self._refused(generation, refusal or "this device has no camera the app can use")
            return
        try:
            source = KivyCameraSource.open(provider, index, colour=True)
        except SourceError as exc:
            self._refused(generation, refusal or str(exc))
            return
        self._watch(source, generation)

    def _watch(self, source: FrameSource, generation: int) -> None:
        from vision.dice.camera import DiceWatcher

        watcher = DiceWatcher(
            source,
            self.camera.reader,
            on_read=lambda frame, dice: Clock.schedule_once(
                lambda _dt: self._read(generation, frame, dice)
            ),
            on_error=lambda words: Clock.schedule_once(
                lambda _dt: self._refused(generation, words)
            ),
        )
        Clock.schedule_once(lambda _dt: self._started(generation, watcher))

    def _started(self, generation: int, watcher: DiceWatcher) -> None:
        if generation != self._generation:
            watcher.stop(close=True)  # stopped while it opened
            return
        self._opening = False
        self.watcher = watcher
        self.note = "Looking for dice..."
        if not self._stop_bound:  # the app closing frees the camera before Python goes
            self._stop_bound = True
            App.get_running_app().bind(on_stop=lambda *_a: self.stop_camera(wait=1.0))
        watcher.start()

    def _refused(self, generation: int, words: str) -> None:
        if generation != self._generation:
            return
        self._opening = False
        self.watcher = None
        self.note = f"{words[:1].upper()}{words[1:]}. Use the keypad."
        self._refused_words = self.note

    def _read(self, generation: int, frame: np.ndarray, dice: tuple[DieRead, ...]) -> None:
        if generation != self._generation:
            return
        if self.get_root_window() is None:
            self.stop_camera()  # the panel left the screen: the camera rests
            return
        self.camera.take_when_still = bool(App.get_running_app().settings.still_dice)
        self.camera.show(frame, dice)
        self.refresh()

    def stop_camera(self, wait: float = 0.0) -> None:
        """Free the camera; `wait` seconds for its thread when the app stops."""
        self._generation += 1
        self._opening = False
        watcher, self.watcher = self.watcher, None
        if watcher is not None:
            # Kivy's camera is closed on Kivy's thread, which this is
            watcher.stop(close=isinstance(watcher.source, KivyCameraSource))
            if wait:
                watcher.join(wait)

    # -- taps ----------------------------------------------------------------------------

    def use_these(self) -> None:
        self.camera.keep_photos = bool(App.get_running_app().settings.keep_dice_photos)
        self.camera.take(looked=True)  # the table saw the preview: its faces are true
        self.refresh()

    def choose(self, index: int) -> None:
        self.choosing = -1 if self.choosing == index else index
        self.refresh()
        self.faces_in_view()

    def faces_in_view(self) -> None:
        """While a die's face is chosen, its six faces in view: scrolled down just enough
        for the last row, the die's own button kept above them where there is room.  From
        heights, not places (kv calls this again as each height settles; places follow a
        frame later)."""
        view, column = self.ids.column_view, self.ids.column
        if self.choosing < 0 or view.height >= column.height:
            return
        above = (self.ids.dice, self.ids.choosing_words, self.ids.faces)
        bottom = sum(w.height for w in above) + column.spacing * (len(above) - 1)
        hidden = column.height - view.height
        view.scroll_y = min(1.0, max(0.0, 1 - max(0.0, bottom - view.height) / hidden))

    def set_face(self, face: int) -> None:
        if self.choosing >= 0:
            self.camera.fix(self.choosing, face)
        self.choosing = -1
        self.refresh()

    @property
    def frame_size(self) -> tuple[int, int] | None:
        frame = self.camera.frame
        return (frame.shape[1], frame.shape[0]) if frame is not None else None

    def tap_at(self, x: float, y: float) -> bool:
        """A tap on the preview at (x, y) in the frame's pixels: the die there is chosen."""
        for i, die in enumerate(self.camera.dice):
            x0, y0, x1, y1 = die.box
            if x0 <= x <= x1 and y0 <= y <= y1:
                self.choose(i)
                return True
        return False

    def let_go(self) -> None:
        self.camera.let_go()
        self.refresh()

    # -- showing -------------------------------------------------------------------------

    @staticmethod
    def badge_words(room: float, font_size: float, font_name: str) -> str:
        """The badge's words at the text size on one line where they take no more than
        `room` (half the picture), else on two: a squarer badge keeps to its corner, off
        the dice (on a phone's or a tablet's picture at Largest text one line took three
        quarters of the picture's width, over a die's label)."""
        line = CoreLabel(text="Photos kept", font_size=font_size, font_name=font_name, bold=True)
        line.refresh()
        return "Photos kept" if line.texture.size[0] <= room else "Photos\nkept"

    def badge_pos(
        self, preview: Image, size: list[float], *_follows: object
    ) -> tuple[float, float]:
        """Where the badge of `size` stands: a corner of the picture as shown (not of the
        preview's box, its bars beside the picture), clear of the dice and their labels
        where one is (`badge_place`).  Given what it follows, for kv to call it again."""
        iw, ih = preview.norm_image_size
        left, bottom = preview.center_x - iw / 2, preview.center_y - ih / 2
        scale = iw / self.drawn_width
        marks = [(x0 * scale, y0 * scale, x1 * scale, y1 * scale) for x0, y0, x1, y1 in self.marks]
        x0, y0, _x1, y1 = badge_place(marks, (size[0], size[1]), (0, 0, iw, ih), dp(6))
        return left + x0, bottom + ih - y1

    def words_room(self, words: float, room: float, *_follows: object) -> float:
        """How tall the words beside or under the picture are: all of them, or the `room`
        they have (beside it, its height; under it, 40% of the block, the picture keeping
        the rest).  The dice to tap come first; the note after them is cut between two of
        its lines rather than through one (at Largest text the note scrolls).  Given the
        sizes it follows, for kv to call it again when they change."""
        if words <= room:
            return words
        note, column = self.ids.note, self.ids.column
        lines = list(getattr(note._label, "_cached_lines", None) or ())
        above = (self.ids.dice, self.ids.choosing_words, self.ids.faces)
        # the note's words are centred in it, under the dice to tap and their spacing
        start = sum(w.height for w in above) + column.spacing * len(above)
        top = start + (note.height - note.texture_size[1]) / 2
        if not lines or room >= top + note.texture_size[1]:
            return room
        if room < top + lines[0].h:  # no line of it fits: the dice to tap end the room
            return start - column.spacing if column.spacing < start <= room else room
        shown = top
        for line in lines:
            if shown + line.h > room:
                break
            shown += line.h
        return float(shown)

    def _place(self) -> None:
        """In the Dice panel only while it shows something: a hidden block would still
        take the touches in its place (a disabled widget keeps them), and it is laid
        out after the row of Camera dice and Assign dice, so it is asked first."""
        if self.parent is not None:
            self._home = self.parent
        home = getattr(self, "_home", None)
        if home is None:
            return
        if self.camera_mode and self.parent is None:
            home.add_widget(self, index=1)  # above the list of sources, the panel's last
        elif not self.camera_mode and self.parent is not None:
            home.remove_widget(self)

    def refresh(self) -> None:
        self.follow_screen()
        camera = self.camera
        app = App.get_running_app()
        self.still_text = "Take the roll when the dice are still: " + (
            "on" if app.settings.still_dice else "off"
        )
        self.photo = bool(camera.photo_from)
        self.showing = camera.frame is not None and (self.on or self.photo)
        self.camera_mode = self.on or self.showing
        # said on the picture too: at Largest text the note's sentence is a scroll away
        self.kept = self.showing and bool(app.settings.keep_dice_photos)
        self._place()
        problem = camera.problem() if camera.dice else None
        faces = camera.faces()
        self.ready = self.showing and bool(camera.dice) and problem is None
        if self.showing:
            read = ", ".join("?" if f is None else str(f) for f in faces)
            where = f"Photo from {camera.photo_from}" if camera.photo_from else "Camera"
            seen = f"{where}: {len(faces)} {'die' if len(faces) == 1 else 'dice'} seen"
            seen += f" ({read})." if faces else "."
            # a die read wrong is corrected before the roll is taken: the table's record of
            # its own dice learns from it (companion/table/dice_tally.py)
            ready = "A die read wrong? Tap it first, then Use these dice."
            if app.settings.keep_dice_photos:  # said where the photo is taken, not only in Settings
                ready += " The photo is kept to train the camera (Settings)."
            self.note = f"{seen} {problem or ready}"
            care = camera.care()
            if care:
                self.note += f"\n{care}"
            if camera.said and not camera.dice:
                self.note = camera.said
        elif camera.said and not self.on:
            self.note = camera.said
        if self.choosing >= len(faces):
            self.choosing = -1
        if self._drawn is not camera.frame or self._shown[:3] != (
            tuple(faces),
            tuple(sorted(camera.fixed)),
            self.showing,
        ):
            self._drawn = camera.frame
            self._draw(faces)
        # the buttons are made again only when what they say changes: a tap must not lose
        # its button to the next frame
        shown = (tuple(faces), tuple(sorted(camera.fixed)), self.showing, self.choosing)
        if shown == self._shown:
            return
        self._shown = shown
        buttons = []
        for i, face in enumerate(faces):
            if face is not None and i not in camera.fixed:
                continue  # a sure die is said in the note and chosen on the preview
            b = BigButton(text=die_words(i, face, i in camera.fixed))
            b.die_index = i
            b.primary = face is None
            b.bind(on_release=lambda b: self.choose(b.die_index))
            buttons.append(b)
        clear_and_fill(self.ids.dice, buttons if self.showing else [])
        keys = []
        if self.choosing >= 0:
            for face in range(1, 7):
                key = FaceKey(text=str(face))
                key.face = face
                key.bind(on_release=lambda k: self.set_face(k.face))
                keys.append(key)
        clear_and_fill(self.ids.faces, keys)

    def _draw(self, faces: list[int | None]) -> None:
        camera = self.camera
        image = self.ids.preview
        if not self.showing or camera.frame is None:
            image.texture = None
            self.marks = []
            return
        w, h = image.size
        drawn = draw_dice(
            camera.frame,
            camera.dice,
            faces,
            set(camera.fixed),
            (max(w, 320), max(h, 180)),
            label_px=dp(13) * style.font_scale,
        )
        rgb = drawn.rgb
        self.drawn_width = rgb.shape[1]
        self.marks = [list(m) for m in drawn.marks]
        texture = Texture.create(size=(rgb.shape[1], rgb.shape[0]), colorfmt="rgb")
        texture.blit_buffer(rgb.tobytes(), colorfmt="rgb", bufferfmt="ubyte")
        texture.flip_vertical()
        image.texture = texture
