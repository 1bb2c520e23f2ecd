"""Reading ordinary d6 in a photo: where each die is and which face is up (issue 28).

Two small ONNX networks run by OpenCV's DNN module (no PyTorch at run time), trained by
`training/dice/train.py` on synthetic photographs:

1. a CenterNet-style detector sees the photo shrunk to 320 pixels and marks each die's
   centre, width and height;
2. a face classifier reads each die from a crop of the full-size photo (the pips are too
   small to read at the detector's size) and says 1 to 6, or "not a die" (then the find is
   dropped); where the model has several classifiers, trained apart, their mean says it.

A die keeps its box but has no face (the table taps its value) when the classifier is less
sure of its face than the model's `face_threshold`, or the detector less sure of the die
than its `found_threshold`: both chosen in training, end to end on validation photos, so
that at most 1% of the dice it answers are wrong (a loose box or a find that is no die is
read confidently as often as a misread face, and the detector's score tells those apart).
Nothing here knows the session or a game.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.dice.prep import (
    CROP_SIZE,
    DET_SIZE,
    DET_STRIDE,
    crop,
    crop_box,
    dihedral,
    letterbox,
    to_blob,
)

MODELS = Path(__file__).resolve().parent / "models"
NOT_A_DIE = 6  # the face classifier's seventh class
VIEWS = (1, 2, 4, 8)  # how many of a crop's turns and mirrors the classifier may read
RETRAIN = "make it again with training/dice/train.py (training/README.md says how)"


class DiceModelError(Exception):
    """The dice reader's model files are missing or cannot be used; the words say which."""


@dataclass(frozen=True)
class DieRead:
    """One die found in a photo: its box in the photo's pixels ``[x0, y0, x1, y1]``, its top
    face (None when unsure), how sure the classifier is of that face (0 to 1)."""

    box: tuple[int, int, int, int]
    face: int | None
    confidence: float
    die: str = "d6"
    found: float = 0.0  # the detector's score for the die being there
    best: int = 0  # the face the classifier leans to, unsure or not (0: not known)

    def as_json(self) -> dict[str, object]:
        return {
            "box": list(self.box),
            "face": self.face,
            "die": self.die,
            "confidence": round(self.confidence, 3),
        }


def _load_record(path: Path) -> dict[str, object]:
    if not path.is_file():
        raise DiceModelError(f"the dice reader's model record {path} is missing; {RETRAIN}")
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise DiceModelError(
            f"the dice reader's model record {path} is damaged ({exc}); {RETRAIN}"
        ) from exc
    if not isinstance(record, dict):
        raise DiceModelError(f"the dice reader's model record {path} is damaged; {RETRAIN}")
    return record


def _load_net(
    path: Path, probe: np.ndarray, shape: tuple[int, ...], digest: hashlib._Hash
) -> cv2.dnn.Net:
    """Load an ONNX file and run it once on a blank input, so a damaged file is refused
    here, in words, and not at the first photo; its bytes, read once, go into `digest`."""
    if not path.is_file():
        raise DiceModelError(f"the dice reader's model {path} is missing; {RETRAIN}")
    data = path.read_bytes()
    digest.update(data)
    try:
        net = cv2.dnn.readNetFromONNX(np.frombuffer(data, np.uint8))
        net.setInput(probe)
        out = net.forward()
    except cv2.error as exc:
        raise DiceModelError(
            f"the dice reader's model {path} is damaged: OpenCV cannot run it; {RETRAIN}"
        ) from exc
    if tuple(out.shape) != shape:
        raise DiceModelError(
            f"the dice reader's model {path} is not the one this reader expects (it answers "
            f"{tuple(out.shape)}, not {shape}); {RETRAIN}"
        )
    return net


def _number(record: dict[str, object], key: str, path: Path) -> float:
    value = record.get(key)
    if not isinstance(value, int | float):
        raise DiceModelError(f"the dice reader's model record {path} has no {key}; {RETRAIN}")
    return float(value)


class DiceReader:
    """Loads the networks once; `read(image)` finds and reads the dice in one photo.

    With no `face_threshold` the model's calibrated rule decides which dice are unsure (its
    face and found thresholds).  A `face_threshold` given here is the whole rule: that
    confidence alone (0 answers every die, above 1 none), unless `found_threshold` is given
    too."""

    def __init__(
        self,
        models: Path = MODELS,
        face_threshold: float | None = None,
        found_threshold: float | None = None,
        views: int | None = None,
    ) -> None:
        det_record = _load_record(models / "dice_detector.json")
        face_record = _load_record(models / "dice_faces.json")
        side = DET_SIZE // DET_STRIDE
        # Names this model, its rule and how it reads, for records of what its confidences
        # meant (the views are added once chosen, below).
        digest = hashlib.sha1(json.dumps(face_record, sort_keys=True).encode())
        self.detector = _load_net(
            models / "dice_detector.onnx",
            np.zeros((1, 3, DET_SIZE, DET_SIZE), np.float32),
            (1, 5, side, side),
            digest,
        )
        faces_json = models / "dice_faces.json"
        # Records written before classifiers were asked together list no members: one.
        members = face_record.get("members", [])
        if not isinstance(members, list) or not all(
            isinstance(m, str) and m and Path(m).name == m for m in members
        ):
            raise DiceModelError(
                f"the dice reader's model record {faces_json} lists its classifiers as "
                f"{members!r}, not as file names beside it; {RETRAIN}"
            )
        self.classifiers = [
            _load_net(
                models / name,
                np.zeros((2, 3, CROP_SIZE, CROP_SIZE), np.float32),
                (2, NOT_A_DIE + 1, 1, 1),
                digest,
            )
            for name in ["dice_faces.onnx", *members]
        ]
        self.heat_threshold = _number(det_record, "heat_threshold", models / "dice_detector.json")
        self.box_unit = _number(det_record, "box_unit", models / "dice_detector.json")
        self.face_threshold = (
            face_threshold
            if face_threshold is not None
            else _number(face_record, "face_threshold", faces_json)
        )
        # Records written before the detector's bar was calibrated have none: no bar.
        default_found = (
            _number(face_record, "found_threshold", faces_json)
            if face_threshold is None and "found_threshold" in face_record
            else 0.0
        )
        self.found_threshold = found_threshold if found_threshold is not None else default_found
        # Records written before dice were read several ways have no count: one way.
        chosen = views if views is not None else face_record.get("views", 1)
        if not isinstance(chosen, int) or chosen not in VIEWS:
            raise DiceModelError(
                f"the dice reader's model record {faces_json} asks for {chosen!r} views of "
                f"each die; the reader reads {', '.join(map(str, VIEWS))}; {RETRAIN}"
            )
        self.views = chosen
        digest.update(f"views {chosen}".encode())
        self.signature = digest.hexdigest()[:16]

    def find(self, image: np.ndarray) -> list[tuple[float, tuple[float, float, float, float]]]:
        """The detector's finds: (score, box in the photo's pixels), best first."""
        square, scale = letterbox(image)
        self.detector.setInput(to_blob(square[None]))
        out = self.detector.forward()[0]
        heat = out[0]
        peaks = (heat == cv2.dilate(heat, np.ones((3, 3), np.uint8))) & (
            heat >= self.heat_threshold
        )
        ys, xs = np.nonzero(peaks)
        h, w = image.shape[:2]
        boxes: list[list[float]] = []
        scores: list[float] = []
        for y, x in zip(ys, xs, strict=True):
            bw, bh = out[1, y, x] * self.box_unit / scale, out[2, y, x] * self.box_unit / scale
            cx = (x + out[3, y, x]) * DET_STRIDE / scale
            cy = (y + out[4, y, x]) * DET_STRIDE / scale
            x0, y0 = max(0.0, cx - bw / 2), max(0.0, cy - bh / 2)
            x1, y1 = min(float(w), cx + bw / 2), min(float(h), cy + bh / 2)
            if x1 - x0 >= 2 and y1 - y0 >= 2:
                boxes.append([x0, y0, x1 - x0, y1 - y0])
                scores.append(float(heat[y, x]))
        keep = cv2.dnn.NMSBoxes(boxes, scores, self.heat_threshold, 0.5) if boxes else []
        found = [
            (
                scores[i],
                (boxes[i][0], boxes[i][1], boxes[i][0] + boxes[i][2], boxes[i][1] + boxes[i][3]),
            )
            for i in np.array(keep).reshape(-1)
        ]
        return sorted(found, key=lambda f: -f[0])

    def classify(
        self, image: np.ndarray, boxes: list[tuple[float, float, float, float]]
    ) -> np.ndarray:
        """The face classifiers' probabilities (N, 7) for each box's crop: the mean over
        the crop's first `views` turns and mirrors, which each classifier trained on alike,
        and over the classifiers, which trained apart: a die read right keeps its face in
        each, while a doubtful one spreads, and two networks are seldom sure of the same
        wrong face."""
        if not boxes:
            return np.zeros((0, NOT_A_DIE + 1), np.float32)
        crops = np.stack([crop(image, *crop_box(b)) for b in boxes])
        blob = to_blob(np.concatenate([dihedral(crops, k) for k in range(self.views)]))
        total = np.zeros((len(boxes), NOT_A_DIE + 1), np.float64)
        for net in self.classifiers:
            net.setInput(blob)
            logits = net.forward().reshape(-1, NOT_A_DIE + 1).astype(np.float64)
            e = np.exp(logits - logits.max(1, keepdims=True))
            each = (e / e.sum(1, keepdims=True)).reshape(self.views, len(boxes), -1)
            total += each.mean(0)
        probs: np.ndarray = (total / len(self.classifiers)).astype(np.float32)
        return probs

    def sure(self, confidence: float, found: float) -> bool:
        """Whether a die read with this face confidence and detector score gets its face."""
        return confidence >= self.face_threshold and found >= self.found_threshold

    def read(self, image: np.ndarray) -> list[DieRead]:
        """Every die in a BGR photo, top to bottom then left to right."""
        if image.ndim == 2:
            image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
        elif image.shape[2] == 4:
            image = cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
        found = self.find(image)
        probs = self.classify(image, [b for _, b in found])
        dice = []
        for (score, box), p in zip(found, probs, strict=True):
            best = int(p.argmax())
            if best == NOT_A_DIE:
                continue
            conf = float(p[best])
            x0, y0, x1, y1 = (round(v) for v in box)
            dice.append(
                DieRead(
                    box=(x0, y0, x1, y1),
                    face=best + 1 if self.sure(conf, score) else None,
                    confidence=conf,
                    found=score,
                    best=best + 1,
                )
            )
        return sorted(dice, key=lambda d: (d.box[1] + d.box[3], d.box[0] + d.box[2]))


class UnreadableImage(ValueError):
    """A file that is not a photo OpenCV can open; the words name it."""


def load_image(path: Path) -> np.ndarray:
    """A photo file as BGR, or UnreadableImage in words."""
    try:
        data = np.fromfile(str(path), np.uint8)
    except OSError as exc:
        raise UnreadableImage(f"{path}: cannot be read ({exc.strerror or exc})") from exc
    image = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    if image is None:
        raise UnreadableImage(
            f"{path} is not a photo the dice reader can open (it reads JPEG, PNG, BMP, WebP "
            "and TIFF files)"
        )
    return image
