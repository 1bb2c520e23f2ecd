"""Picking a save file to import, by touch: a file list that opens where exports go."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from kivy.lang import Builder
from kivy.properties import StringProperty
from kivy.uix.popup import Popup

Builder.load_file(str(Path(__file__).with_suffix(".kv")))


class ImportPopup(Popup):
    start = StringProperty("")

    def __init__(self, on_pick: Callable[[str], None], start: str = "", **kwargs: Any) -> None:
        self.start = start or str(Path.home())
        super().__init__(**kwargs)
        self._on_pick = on_pick

    def pick(self) -> None:
        chosen = self.ids.chooser.selection
        if not chosen:
            self.ids.hint.text = "Tap a save file first."
            return
        self.dismiss()
        self._on_pick(chosen[0])
