"""Picking a save file to import, by touch: the saves in the places they usually land.

A general file browser has rows too small for a finger at arm's length, so this lists
the `.tcsave` files in the app's exports folder and the device's Downloads, newest first,
one big button each.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

from kivy.lang import Builder
from kivy.uix.popup import Popup
from kivy.uix.widget import Widget

from companion.ui.widgets import BigButton, Body, clear_and_fill

Builder.load_file(str(Path(__file__).with_suffix(".kv")))

SUFFIXES = (".tcsave",)


def download_dirs() -> list[Path]:
    home = Path.home()
    return [home / "Downloads", home / "Download", Path("/sdcard/Download")]


def find_saves(folders: Iterable[Path]) -> list[Path]:
    found: dict[Path, float] = {}
    for folder in folders:
        try:
            for path in folder.iterdir():
                if path.suffix in SUFFIXES and path.is_file():
                    found[path.resolve()] = path.stat().st_mtime
        except OSError:
            continue  # a folder that is missing or not ours to read
    return sorted(found, key=lambda p: found[p], reverse=True)


def size_words(n: int) -> str:
    return f"{n} B" if n < 1024 else f"{n / 1024:.0f} KB"


class ImportPopup(Popup):
    def __init__(
        self, on_pick: Callable[[str], None], folders: list[Path], **kwargs: object
    ) -> None:
        super().__init__(**kwargs)
        self._on_pick = on_pick
        rows: list[Widget] = []
        for path in find_saves(folders):
            b = BigButton(
                text=f"{path.name}   [size=16sp]{path.parent.name} · "
                f"{size_words(path.stat().st_size)}[/size]"
            )
            b.save_path = str(path)
            b.bind(on_release=lambda b: self.pick(b.save_path))
            rows.append(b)
        if not rows:
            places = ", ".join(str(f) for f in folders)
            rows = [Body(text=f"No save files found. Put the .tcsave file in one of: {places}")]
        clear_and_fill(self.ids.saves, rows)

    def pick(self, path: str) -> None:
        self.dismiss()
        self._on_pick(path)
