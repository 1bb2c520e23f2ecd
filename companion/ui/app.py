"""The tablet app (a first shell; the UI issue grows it into the full frame)."""

from __future__ import annotations

from kivy.app import App
from kivy.uix.label import Label


class CompanionApp(App):
    title = "Table Companion"

    def __init__(self, demo: bool = False, **kwargs) -> None:
        super().__init__(**kwargs)
        self.demo = demo

    def build(self) -> Label:
        return Label(text="Table Companion", font_size="32sp")
