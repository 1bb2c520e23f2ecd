"""Chapter, round, the Fatal Wounds pile and Karn's track at a glance."""

from __future__ import annotations

from typing import Any

from kivy.lang import Builder
from kivy.properties import StringProperty
from kivy.uix.boxlayout import BoxLayout

Builder.load_file(__file__.replace(".py", ".kv"))


def karn_text(k: Any) -> str:
    if k.defeated:
        return "Karn: defeated"
    cards = f"{k.cards_left} cards, {k.regenerates_left} regenerate, stamina {k.stamina:+d}"
    if k.on_board:
        return f"Karn on the board at {k.position} - {cards}"
    track = "".join(
        "K" if i == k.track else ("A" if i == k.track_length - 1 else "-")
        for i in range(k.track_length)
    )
    return f"Karn's hunt [{track}] - {cards}"


class StatusView(BoxLayout):
    chapter = StringProperty("")
    wounds = StringProperty("")
    karn = StringProperty("")

    def show(self, state: Any) -> None:
        outcome = f" - {state.outcome.replace('_', ' ')}" if state.outcome else ""
        self.chapter = (
            f"Chapter {state.chapter}, round {state.round} "
            f"({state.phase.replace('_', ' ')}){outcome}"
        )
        self.wounds = f"Fatal Wounds left: {state.fatal_wounds}"
        self.karn = karn_text(state.karn)
