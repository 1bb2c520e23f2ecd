"""`companion dice read IMAGE_OR_DIR... --json`: plain dice read from photos (issue 28).

Prints one JSON list, one entry per image, in the order given (a folder's photos sorted by
name): ``{"image": PATH, "dice": [{"box": [x0, y0, x1, y1], "face": N or null, "die": "d6",
"confidence": P}]}``, boxes in the photo's pixels, ``face`` null where the reader is unsure.
Every photo is opened before anything is printed, so a file that is not a photo is refused
in words (exit 2) and no half list is printed.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from companion.failures import CliError
from companion.paths import data_home
from companion.table.dice_model import ModelChoice

if TYPE_CHECKING:
    from vision.dice.reader import DiceReader

PHOTO_SUFFIXES = {".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff"}


def photos_in(paths: list[str]) -> list[Path]:
    """Each path given, a folder standing for its photos (by their suffix, sorted by name)."""
    found: list[Path] = []
    for name in paths:
        p = Path(name)
        if p.is_dir():
            inside = sorted(
                f for f in p.iterdir() if f.is_file() and f.suffix.lower() in PHOTO_SUFFIXES
            )
            if not inside:
                raise CliError(f"{p}: the folder holds no photos (JPEG, PNG, BMP, WebP or TIFF)")
            found.extend(inside)
        elif p.is_file():
            found.append(p)
        else:
            raise CliError(f"{p}: no such photo or folder")
    return found


def cmd_read(args: argparse.Namespace) -> int:
    from vision.dice.reader import DiceModelError, UnreadableImage, load_image

    paths = photos_in(args.paths)
    try:
        images = [load_image(p) for p in paths]
    except UnreadableImage as exc:
        raise CliError(f"refused: {exc}") from exc
    try:
        reader = _reader(args.models, args.threshold)
    except DiceModelError as exc:
        raise CliError(f"cannot read dice: {exc}") from exc
    results = [
        {"image": str(p), "dice": [d.as_json() for d in reader.read(img)]}
        for p, img in zip(paths, images, strict=True)
    ]
    if args.json:
        print(json.dumps(results), flush=True)
        return 0
    for entry in results:
        dice = entry["dice"]
        assert isinstance(dice, list)
        faces = [str(d["face"]) if d["face"] is not None else "unsure" for d in dice]
        what = ", ".join(faces) if faces else "no dice found"
        print(f"{entry['image']}: {len(faces)} dice: {what}", flush=True)
    return 0


def _reader(models: Path | None, threshold: float | None) -> DiceReader:
    """The folder given, else the camera's own choice: the table's own model where it has
    one that loads (companion/table/dice_model.py), with a line on stderr where it does not."""
    from vision.dice.reader import DiceReader

    if models is not None:
        return DiceReader(models, face_threshold=threshold)
    choice = ModelChoice(data_home)
    reader = choice.reader(face_threshold=threshold)
    if choice.failed:
        print(choice.words(), file=sys.stderr, flush=True)
    return reader


def add_parser(dsub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    r = dsub.add_parser("read", help="read ordinary d6 in photos with the camera's model")
    r.add_argument("paths", nargs="+", metavar="IMAGE_OR_DIR", help="photos, or folders of them")
    r.add_argument("--json", action="store_true", help="one JSON list, one entry per photo")
    r.add_argument(
        "--threshold",
        type=float,
        help="confidence under which a die's face is unsure (default: the model's own)",
    )
    r.add_argument(
        "--models",
        type=Path,
        default=None,
        metavar="DIR",
        help="a folder holding dice_detector.onnx and dice_faces.onnx with their .json "
        "records (default: the camera's, the table's own in <data home>/dice-model where it "
        "loads, else the models shipped in vision/dice/models)",
    )
    r.set_defaults(func=cmd_read)
