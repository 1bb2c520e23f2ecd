"""The combat mat: the opponent's vitals and Soul Shield, each hero's declaration, the
opponent's action walked through with its dice, then the resolution line by line.  Its
buttons are the combat actions the rules list now."""

from __future__ import annotations

from typing import Any

from kivy.lang import Builder
from kivy.metrics import dp
from kivy.properties import ListProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout

from companion.core.rules import Action
from companion.ui.games.hexplore.buttons import action_button, grow_with_text, listed
from companion.ui.games.hexplore.text import (
    action_walkthrough,
    combat_heading,
    declaration_line,
    hero_status,
    opponent_line,
)
from companion.ui.games.readable import GameButton, GameText

Builder.load_file(__file__.replace(".py", ".kv"))


class CombatMat(BoxLayout):
    heading = StringProperty("")
    opponent = StringProperty("")
    walkthrough = StringProperty("")
    resolution = StringProperty("")
    opponents = ListProperty([])  # the labels of the fights the rules offer now
    send = ObjectProperty(None)  # Callable[[str, dict], bool], given by the table view

    def show(self, s: Any, actions: list[Action]) -> None:
        starts = listed(actions, "start_combat")
        self._starts = {a["label"]: a for a in starts}
        self.opponents = list(self._starts)
        choice = self.ids.choice
        if choice.text not in self._starts:
            choice.text = self.opponents[0] if self.opponents else ""
        self.ids.start.disabled = not starts
        self.ids.choice.disabled = not starts
        steps = self.ids.steps
        steps.clear_widgets()
        for action in listed(actions, "opponent_action") + listed(actions, "resolve_round"):
            steps.add_widget(grow_with_text(action_button(action, self.send)))
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
                text=f"{s.heroes[hid].name}: {hero_status(s, hid)}\n{declaration_line(s, hid)}",
                halign="left",
                size_hint_y=None,
            )
            words.bind(width=lambda w, width: setattr(w, "text_size", (width, None)))
            words.bind(texture_size=lambda w, ts: setattr(w, "height", ts[1] + dp(4)))
            rows.add_widget(words)
            choices = listed(actions, "declare", hero=hid)
            if choices:
                grid = GridLayout(cols=3, spacing=dp(4), size_hint_y=None)
                grid.bind(minimum_height=grid.setter("height"))
                for action in choices:
                    grid.add_widget(grow_with_text(action_button(action, self.send)))
                rows.add_widget(grid)

    def start(self) -> bool:
        """Start the fight chosen on the spinner, as the rules list it."""
        action = self._starts.get(self.ids.choice.text)
        if action is None:
            return False
        return bool(self.send(action["do"], dict(action["with"])))

    def button(self, hid: str, action: str, **args: Any) -> GameButton:
        """The declare button for `hid` doing `action` (for tests)."""
        want = {"hero": hid, "action": action, **args}
        for row in self.ids.heroes.children:
            for w in getattr(row, "children", []):
                a = getattr(w, "action", None)
                if a and all(a["with"].get(k) == v for k, v in want.items()):
                    return w
        raise KeyError(f"no {action} button for {hid}")

    def step(self, do: str) -> GameButton:
        return next(b for b in self.ids.steps.children if b.action["do"] == do)
