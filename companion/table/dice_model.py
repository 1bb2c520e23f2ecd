"""Which model reads the camera's dice: the one shipped with the app, or the table's own
(issue 28).

A group that kept photos of its rolls (`dice_photos`) and trained a reader on them
(training/README.md, "The table's own photos") puts the trained folder's files in
`<data home>/dice-model/`, and the camera reads with that model from its next start: a
model trained and calibrated on the table's own dice, light and camera is the one whose
unsure rule holds there (the eleventh reader, calibrated on the rigs it trained on, answered
132 of their dice right and none wrong on grounds it never trained on, and misread 5 of the
105 it answered from other dice and cameras: training/README.md).  Nothing else changes:
the care a table's corrections teach is kept per model (`dice_tally`), so a new model
starts afresh.

A folder whose model cannot be loaded (a file missing or damaged, a model of another
shape) is not a reason to stop reading dice: the shipped model reads, and Settings say
why in words.  Loaded on the camera's first read, not at start (`ReaderLock`).

`install` puts a trained folder's files in place from a computer on the table's network
(Settings' share link, `companion/host/photo_share.py`), for a tablet whose data folder its
owner cannot reach: only a model that loads is put in place, whole, or nothing changes.
"""

from __future__ import annotations

import logging
import re
import shutil
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from vision.dice.reader import DiceReader

log = logging.getLogger(__name__)

OWN = "dice-model"  # in the data home
# A trained folder's files: the detector, the classifier and any classifiers asked with it
MODEL_FILE = re.compile(r"dice_(detector|faces(_\d{1,3})?)\.(onnx|json)")


@dataclass
class ModelChoice:
    """The table's own model where it has one and it loads, else the shipped one."""

    home: Callable[[], Path]
    failed: str = ""  # why the table's own model could not be loaded, the last time it was tried
    loaded: str = ""  # which reads: "own", "shipped", or "" before the camera's first read

    @property
    def folder(self) -> Path:
        return self.home() / OWN

    def has_own(self) -> bool:
        return self.folder.is_dir() and any(self.folder.iterdir())

    def reader(self, face_threshold: float | None = None) -> DiceReader:
        """The reader to read with (for `ReaderLock`, on the camera's first read; for
        `companion dice read`, with its --threshold)."""
        from vision.dice.reader import DiceModelError, DiceReader

        if self.has_own():
            try:
                reader = DiceReader(self.folder, face_threshold=face_threshold)
            except DiceModelError as exc:
                self.failed = str(exc)
                log.warning("the table's own dice model could not be loaded: %s", exc)
            else:
                self.failed, self.loaded = "", "own"
                return reader
        reader = DiceReader(face_threshold=face_threshold)
        self.loaded = "shipped"
        return reader

    def install(self, files: Mapping[str, bytes]) -> int:
        """Make `files` (a trained folder's, by name) the table's own model, read from the
        app's next start; the files put in place.  ValueError in words, with nothing
        changed, when they are not a model that loads."""
        from vision.dice.reader import DiceModelError, DiceReader

        odd = sorted(name for name in files if not MODEL_FILE.fullmatch(name))
        if odd:
            raise ValueError(
                f"{', '.join(odd)} is not a dice model's file: send the files of the folder "
                "the training wrote (dice_detector.onnx and .json, dice_faces.onnx and .json)"
            )
        new = self.folder.with_name(OWN + ".new")
        old = self.folder.with_name(OWN + ".old")
        shutil.rmtree(new, ignore_errors=True)
        new.mkdir(parents=True)
        try:
            for name, data in files.items():
                (new / name).write_bytes(data)
            DiceReader(new)  # loads, or says why not
        except (DiceModelError, OSError) as exc:
            shutil.rmtree(new, ignore_errors=True)
            raise ValueError(
                f"These files are not a model the camera can read with: {exc}"
            ) from exc
        shutil.rmtree(old, ignore_errors=True)
        if self.folder.exists():
            self.folder.rename(old)
        new.rename(self.folder)
        shutil.rmtree(old, ignore_errors=True)
        return len(files)

    def words(self) -> str:
        """Which model reads, for Settings: the one loaded, once the camera has read."""
        shipped = "the model that came with the app"
        if self.failed:
            return (
                f"Your own model in {self.folder} could not be loaded: {self.failed}. The "
                f"camera reads with {shipped}."
            )
        if self.loaded == "own":
            return f"The camera reads with your own model, from {self.folder}."
        if self.has_own():
            when = "from the app's next start" if self.loaded else "from the camera's first read"
            return f"Your own model, in {self.folder}, reads the camera's dice {when}."
        return (
            f"The camera reads with {shipped}. A model trained on your own photos reads "
            f"instead, from the app's next start, once its files are in {self.folder} "
            "(sent from a computer through Share the photos, or copied there)."
        )
