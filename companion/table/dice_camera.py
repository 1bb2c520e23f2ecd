"""Camera dice (issue 28): what the camera sees, and when it answers the waiting roll.

The dice panel shows the tablet camera's frames with each die found and its value; a
phone's photo is shown the same way until it is answered.  This holds what is shown and
decides, in words, whether the dice in view may answer: a roll must be waiting, for a
six-sided die, with as many dice as the roll asks, none of them unsure (the table taps an
unsure die's value: `fix`), and dice the roll's assignments allow.  Taking them hands the
faces to `vision.dice.camera.CameraDiceSource`, whose events reach the session through the
hub's `RequestAnswerer` like any tray's.  Rolls the table takes with a tap teach the
table's record of its own dice (`dice_tally`), which makes a die unsure where the model's
rule would answer it but this table's dice show it misreads; with the group's leave, they
are kept as photos to train on too (`dice_photos`).  Nothing here touches Kivy, so the rules
for camera dice are tested without a window; the panel only draws this.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from companion.core.rules import DIE_FACES, Request
from companion.paths import data_home
from companion.table.dice_answers import RequestAnswerer
from companion.table.dice_model import ModelChoice
from companion.table.dice_photos import FOLDER, DicePhotos, size_words
from companion.table.dice_tally import CameraTally, DieTaken
from hardware.source import DiceSource
from vision.dice.camera import CameraDiceSource, ReaderLock, Stillness, same_dice

if TYPE_CHECKING:
    import numpy as np

    from vision.dice.reader import DieRead

TALLY_FILE = "camera-dice.json"  # in the data home: see companion/table/dice_tally.py
MAX_PHOTO = 8 * 1024 * 1024  # bytes: a phone's photo, already shrunk by the page, is far less


def plain_d6(profile: str) -> bool:
    """Whether the profile's die is a plain d6 with pips (the reader's only die): six
    faces, each labelled with a number (a d3 is played on one; a HEXplore hex d6 has a
    symbol for a face the reader was never taught)."""
    faces = DIE_FACES.get(profile, ())
    return len(faces) == 6 and all(label.isdigit() for label, _v in faces)


def dice_words(n: int) -> str:
    return f"{n} die" if n == 1 else f"{n} dice"


def listed(numbers: list[int]) -> str:
    """1 -> '1'; 1, 3 -> '1 and 3'; 1, 2, 3 -> '1, 2 and 3'."""
    words = [str(n) for n in numbers]
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


class Hub(Protocol):
    """What camera dice need of the app's dice hub (`companion.table.dice_hub.DiceHub`, which
    holds a `CameraDice`): said here so the camera does not import the hub that owns it."""

    sources: list[DiceSource]
    answerer: RequestAnswerer | None

    def changed(self) -> None: ...

    def add(self, source: DiceSource) -> None: ...

    def die_name(self, die_id: str) -> str: ...


class CameraDice:
    """The dice in view (the live camera's newest read, or a phone's photo held until it
    is answered), the table's taps on unsure dice, and taking them as a roll."""

    def __init__(
        self,
        hub: Hub,
        reader: ReaderLock | None = None,
        clock: Callable[[], float] = time.monotonic,
        home: Callable[[], Path] = data_home,
    ) -> None:
        self.hub = hub
        self.home = home  # where the table's record of its own dice is kept
        self._tally: CameraTally | None = None
        self.source = CameraDiceSource()
        self.model = ModelChoice(home)  # the table's own model, or the shipped one
        self.reader = reader or ReaderLock(self.model.reader)
        self.clock = clock
        self.stillness = Stillness()
        self.take_when_still = False  # the user's setting; off: one tap takes the roll
        self.keep_photos = False  # the user's setting: keep looked-at rolls' photos to train on
        self.dice: tuple[DieRead, ...] = ()
        self.frame: np.ndarray | None = None  # what the dice were read from, for the preview
        self.fixed: dict[int, int] = {}  # die index -> the face the table tapped
        self.photo_from = ""  # the phone whose photo is held ("" : the live camera)
        self.said = ""  # what came of the last take, in words

    # -- on and off ----------------------------------------------------------------------

    def turn_on(self) -> None:
        """List the camera among the dice sources (its stream starts on the hub's loop)."""
        self._listed()
        self.source.status = "connected"
        self.hub.changed()

    def _listed(self) -> None:
        """The source among the hub's, its stream read on the running loop: the camera
        turned on, or a phone's photo arriving (on the host's loop) with it off."""
        if self.source not in self.hub.sources:
            self.hub.add(self.source)

    def turn_off(self) -> None:
        self.source.status = "off"
        if not self.photo_from:
            self.clear()
        self.hub.changed()

    def clear(self) -> None:
        self.dice, self.frame, self.fixed, self.photo_from = (), None, {}, ""
        self.stillness = Stillness(self.stillness.frames, self.stillness.seconds)

    # -- what is in view -----------------------------------------------------------------

    @property
    def tally(self) -> CameraTally:
        """The table's record of camera dice it looked at (read on first use)."""
        if self._tally is None:
            self._tally = CameraTally.load(self.home() / TALLY_FILE)
        return self._tally

    @property
    def photos(self) -> DicePhotos:
        """The photos of looked-at rolls kept with the group's leave (`dice_photos`)."""
        return DicePhotos(self.home() / FOLDER)

    def photos_words(self) -> str:
        """What the kept photos are, for Settings."""
        kept = self.photos
        rows = kept.rows()
        if not rows:
            return (
                "None kept. With Keep photos on, each roll you take with Use these dice is "
                "kept as a photo with the faces you set, on this tablet only, to train the "
                "camera on your own dice."
            )
        dice = sum(len(r["dice"]) for r in rows)
        photos = "1 photo" if len(rows) == 1 else f"{len(rows)} photos"
        return (
            f"{photos} of your rolls ({dice_words(dice)}, {size_words(kept.size())}) kept on "
            f"this tablet in {kept.folder}, to train the camera on your own dice."
        )

    def faces(self) -> list[int | None]:
        """Each die's face: the table's tap where it gave one, else the reader's (None:
        unsure, by the reader's rule or by what this table's own dice taught it)."""
        model = self.reader.signature if self.dice else None
        return [
            self.fixed.get(i, d.face if self._answers(d, model) else None)
            for i, d in enumerate(self.dice)
        ]

    def _answers(self, die: DieRead, model: str | None) -> bool:
        """Whether the reader's face for `die` stands: the reader was sure of it, and this
        table's dice have not made it careful with that face at that confidence."""
        return die.face is not None and die.confidence >= self.tally.bar(model, die.face)

    def show(self, frame: np.ndarray, dice: tuple[DieRead, ...]) -> str | None:
        """A live read (on the UI loop).  Taps on unsure dice hold while the dice stay where
        they were; with the setting on, still dice that may answer are taken."""
        if self.photo_from:
            return None  # a phone's photo is in view until it is answered or let go
        if not same_dice(self.dice, dice, faces=False):
            self.fixed = {}
        self.dice, self.frame = dice, frame
        self.stillness.see(dice, self.clock())
        if self.take_when_still and self.stillness.ready and self.problem() is None:
            return self.take()
        return None

    def care(self) -> str | None:
        """Words for the table while its own dice have made the camera more careful than
        its model's rule (None while they have not)."""
        faces = self.tally.careful_with(self.reader.signature)
        if not faces:
            return None
        tally = self.tally
        of = "the one die" if tally.read == 1 else f"{tally.wrong} of the {tally.read} dice"
        return f"The camera misread {of} it read by itself on this table, {_asks(faces)}."

    def record_words(self) -> str:
        """What this tablet's record of the table's dice holds, for Settings (the model it
        was kept for is not loaded there: the faces are those it was careful with)."""
        tally = self.tally
        if not tally.dice:
            return (
                "Nothing yet: each roll you take with Use these dice, after setting any die "
                "it read wrong, teaches the camera how it reads your dice."
            )
        words = (
            f"From {dice_words(len(tally.dice))} in rolls you took: it read {tally.read} by itself"
        )
        if not tally.wrong:
            return f"{words}, none wrong."
        faces = tally.careful_with(tally.model)
        care = _asks(faces) if faces else "few enough to trust it as before"
        return f"{words} and misread {tally.wrong}, {care}."

    def fix(self, index: int, face: int) -> None:
        """The table says die `index` shows `face`."""
        if 0 <= index < len(self.dice) and 1 <= face <= 6:
            self.fixed[index] = face
            self.hub.changed()

    def request(self) -> Request | None:
        answerer = self.hub.answerer
        return answerer.session.request if answerer is not None else None

    def problem(self) -> str | None:
        """Why the dice in view cannot answer now, in words; None when they can."""
        request = self.request()
        if request is None:
            return "No roll is asked for right now."
        if request.kind != "dice":
            return "A card is asked for, not dice."
        if not plain_d6(request.profile):
            return (
                f"The camera reads plain six-sided dice; this roll asks for the "
                f"{request.die_name}: use the keypad."
            )
        n = len(self.dice)
        if n == 0:
            return "No dice seen yet."
        if n != request.count:
            return f"{dice_words(n)} seen, the roll asks for {request.count}."
        unsure = [i + 1 for i, f in enumerate(self.faces()) if f is None]
        if unsure:
            if len(unsure) == 1:
                return f"Die {unsure[0]} is unsure: tap it and choose the face on top."
            return f"Dice {listed(unsure)} are unsure: tap each and choose the face on top."
        return self._assigned_elsewhere(request, n)

    def _assigned_elsewhere(self, request: Request, n: int) -> str | None:
        answerer = self.hub.answerer
        assert answerer is not None
        ids = [f"camera:{i}" for i in range(1, n + 1)]
        pool = answerer.eligible(request)
        if pool is not None and not set(ids) <= set(pool):
            names = ", ".join(self.hub.die_name(d) for d in pool)
            return f"This roll is assigned to {names}: roll those, or change it with Assign dice."
        if pool is None and any(answerer.assignments.role_of(d) is not None for d in ids):
            return "The camera's dice are assigned to another roll: see Assign dice."
        return None

    # -- taking the roll -----------------------------------------------------------------

    def take(self, by: str | None = None, looked: bool = False) -> str:
        """Answer the waiting roll with the dice in view, or say why not.  The answer
        itself arrives through the source's stream and the hub's answerer.  `looked`: the
        table took them with a tap, having seen the preview, so their faces are true and
        the table's record learns from them."""
        problem = self.problem()
        if problem is not None:
            self.said = problem
            self.hub.changed()
            return problem
        faces = [f for f in self.faces() if f is not None]
        self.source.take(faces, by=by or ("phone photo" if self.photo_from else None))
        self.stillness.taken()
        self.said = f"Taken: {', '.join(map(str, faces))}"
        model = self.reader.signature
        if looked and model and all(d.best for d in self.dice):
            seen = [
                DieTaken(d.confidence, d.face is not None, d.best, face)
                for d, face in zip(self.dice, faces, strict=True)
            ]
            self.tally.note(model, seen)
        if looked and self.keep_photos and self.frame is not None:
            boxes = [(d.box, face) for d, face in zip(self.dice, faces, strict=True)]
            self.photos.keep(self.frame, boxes, model or "")
        if self.photo_from:
            self.dice, self.frame, self.fixed, self.photo_from = (), None, {}, ""
        self.hub.changed()
        return self.said

    def let_go(self) -> None:
        """Back to the live camera from a phone's photo."""
        self.clear()
        self.hub.changed()

    async def photo(self, phone: str, data: bytes) -> dict[str, object]:
        """A phone's photo of the dice for the waiting roll: read it off the loop, then
        answer, or hold it on the tablet for the table to tap its unsure dice.  The reply
        is for the phone: `ok` and what to tell its player."""
        if len(data) > MAX_PHOTO:
            return {"ok": False, "text": "That photo is too large for the tablet."}
        loop = asyncio.get_running_loop()
        image = await loop.run_in_executor(None, _decode, data)
        if image is None:
            return {"ok": False, "text": "The tablet could not open that photo: try again."}
        try:
            dice = await loop.run_in_executor(None, self.reader.read, image)
        except Exception as exc:  # a missing model is said in its own words
            return {"ok": False, "text": f"The tablet cannot read dice: {exc}"}
        request = self.request()
        if request is None or request.kind != "dice":
            return {"ok": False, "text": "No roll is asked for right now."}
        self._listed()
        self.dice, self.frame, self.fixed, self.photo_from = dice, image, {}, phone
        problem = self.problem()
        if problem is None:
            faces = self.faces()
            self.take(by="phone photo")
            return {"ok": True, "text": f"The tablet read {listed([f or 0 for f in faces])}."}
        unsure = any(f is None for f in self.faces()) and len(dice) == request.count
        self.hub.changed()
        if unsure:
            return {"ok": False, "text": f"{problem[:-1]} on the tablet."}
        self.clear()  # nothing the table could tap: the phone tries again
        return {"ok": False, "text": f"{problem} Take the photo again."}


def _asks(faces: list[int]) -> str:
    return f"so it now asks you about more of the dice it reads as {listed(faces)}"


def _decode(data: bytes) -> np.ndarray | None:
    import cv2
    import numpy as np

    buffer = np.frombuffer(data, np.uint8)
    return cv2.imdecode(buffer, cv2.IMREAD_COLOR) if buffer.size else None
