"""The combat mat: the opponent's vitals and Soul Shield, each hero's declaration, the
opponent's action walked through with its dice, then the resolution line by line."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.lang import Builder
from kivy.metrics import dp
from kivy.properties import ListProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout

from companion.ui.games.hexplore.text import (
    action_walkthrough,
    combat_heading,
    declaration_line,
    hero_status,
    opponent_line,
)
from companion.ui.games.readable import GameButton, GameText
from companion.ui.style import style

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
            words = GameText(
                text=f"{hid}: {hero_status(s, hid)}\n{declaration_line(s, hid)}",
                size_hint_x=0.64,
                halign="left",
            )
            words.bind(width=lambda w, width: setattr(w, "text_size", (width, None)))
            row = BoxLayout(size_hint_y=None, height=dp(56), spacing=dp(6))
            words.bind(
                texture_size=lambda _w, ts, r=row: setattr(
                    r, "height", max(ts[1], dp(56) * style.font_scale)
                )
            )
            row.add_widget(words)
            for action in ("attack", "defend"):
                b = GameButton(text=action.title(), size_hint_x=0.18)
                b.bind(on_release=self._declarer(hid, action))
                b.hero, b.action = hid, action
                row.add_widget(b)
            rows.add_widget(row)

    def _declarer(self, hid: str, action: str) -> Callable[[Any], None]:
        return lambda *_: self.send("declare", {"hero": hid, "action": action})

    def button(self, hid: str, action: str) -> GameButton:
        for row in self.ids.heroes.children:
            for w in row.children:
                if getattr(w, "hero", None) == hid and getattr(w, "action", None) == action:
                    return w
        raise KeyError(f"no {action} button for {hid}")
