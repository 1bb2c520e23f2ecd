"""Reading the labelled synthetic photos of one folder or a mix of several
(training/dice/labels.py): each folder keeps its own limit and its own validation tenth, so
a mixed set validates on each look's photos in the same share."""

from __future__ import annotations

import json
from pathlib import Path

from training.dice.labels import is_val, load_labels


def _folder(root: Path, name: str, count: int, on_disk: int | None = None) -> Path:
    """A synth-like folder of `count` labelled images, the first `on_disk` of them written."""
    folder = root / name
    (folder / "images").mkdir(parents=True)
    with open(folder / "labels.jsonl", "w", encoding="utf-8") as f:
        for i in range(count):
            image = f"images/{i:06d}.jpg"
            f.write(json.dumps({"image": image, "width": 8, "height": 8, "dice": []}) + "\n")
            if on_disk is None or i < on_disk:
                (folder / image).write_bytes(b"")
    return folder


def test_each_folder_keeps_its_limit_and_its_tenth(tmp_path: Path) -> None:
    old, new = _folder(tmp_path, "old", 30), _folder(tmp_path, "new", 25)
    rows = load_labels([old, new], 20)
    assert [Path(r["path"]).parent.parent.name for r in rows] == ["old"] * 20 + ["new"] * 20
    assert [Path(r["path"]).name for r in rows if is_val(r)] == ["000009.jpg", "000019.jpg"] * 2
    assert all(Path(r["path"]) == Path(r["path"]).parent.parent / r["image"] for r in rows)
    assert len(load_labels([old, new], None)) == 55
    assert load_labels(old, None) == load_labels([old], None)


def test_a_folder_still_being_written_is_read_so_far(tmp_path: Path) -> None:
    part = _folder(tmp_path, "part", 12, on_disk=7)
    with open(part / "labels.jsonl", "a", encoding="utf-8") as f:
        f.write('{"image": "images/000012.jpg"')  # a line cut short by the writer
    assert [r["image"] for r in load_labels(part, None)] == [
        f"images/{i:06d}.jpg" for i in range(7)
    ]
