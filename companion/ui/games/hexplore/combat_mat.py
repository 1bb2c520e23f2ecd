"""The combat mat: the opponent's vitals and Soul Shield, each hero's declaration, the
opponent's action walked through with its dice, then the resolution line by line."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.lang import Builder
from kivy.properties import ListProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.label import Label

from companion.ui.games.hexplore.text import (
    action_walkthrough,
    combat_heading,
    declaration_line,
    hero_status,
    opponent_line,
)

Builder.load_file(__file__.replace(".py", ".kv"))


class CombatMat(BoxLayout):
    heading = StringProperty("")
    opponent = StringProperty("")
    walkthrough = StringProperty("")
    resolution = StringProperty("")
    opponents = ListProperty([])
    send = ObjectProperty(None)  # Callable[[str, dict], bool], given by the table view

    def show(self, s: Any, opponent_ids: list[str]) -> None:
        self.opponents = opponent_ids
        if self.ids.choice.text not in opponent_ids and opponent_ids:
            self.ids.choice.text = opponent_ids[0]
        self.heading = combat_heading(s)
        self.opponent = opponent_line(s)
        self.walkthrough = "\n".join(action_walkthrough(s))
        c = s.combat
        self.resolution = "\n".join(c.resolution) if c else ""
        rows = self.ids.heroes
        rows.clear_widgets()
        if c is None:
            return
        for hid in c.heroes:
            row = BoxLayout(size_hint_y=None, height="34dp", spacing="4dp")
            row.add_widget(
                Label(text=f"{hid}: {hero_status(s, hid)}", size_hint_x=0.4, font_size="12sp")
            )
            row.add_widget(Label(text=declaration_line(s, hid), size_hint_x=0.36, font_size="12sp"))
            for action in ("attack", "defend"):
                b = Button(text=action.title(), size_hint_x=0.12)
                b.bind(on_release=self._declarer(hid, action))
                b.hero, b.action = hid, action
                row.add_widget(b)
            rows.add_widget(row)

    def _declarer(self, hid: str, action: str) -> Callable[[Any], None]:
        return lambda *_: self.send("declare", {"hero": hid, "action": action})

    def button(self, hid: str, action: str) -> Button:
        for row in self.ids.heroes.children:
            for w in row.children:
                if getattr(w, "hero", None) == hid and getattr(w, "action", None) == action:
                    return w
        raise KeyError(f"no {action} button for {hid}")
