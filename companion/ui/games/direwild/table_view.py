"""The Direwild table: status bar, board, and the side panel that sends commands.

The view only reads `session.state` (and the board file the state names) and sends
commands through `session.do` / `session.answer`; a refusal is shown in words, and changes
nothing.
"""

from __future__ import annotations

import random
from typing import Any

from kivy.lang import Builder
from kivy.properties import ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout

from companion.core.rules import DIE_PROFILES
from companion.ui.games.direwild import battle_view, board_view, status_view, walkthrough_view
from companion.ui.games.readable import GameButton, GameInput, GameToggle
from companion.ui.gameviews import SendsCommands

_ = (battle_view, board_view, status_view, walkthrough_view)  # their kv rules load on import
Builder.load_file(__file__.replace(".py", ".kv"))

CREATURE_FIELDS = ("attack", "knockback", "poison", "flight", "move")


class DirewildView(SendsCommands, BoxLayout):
    session = ObjectProperty(None)
    message = StringProperty("")
    request_text = StringProperty("")
    hero = StringProperty("")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._hero_buttons: list[str] = []
        self.ids.board.bind(on_square=lambda _w, sq: self.tap_square(sq))
        self.ids.walkthrough.bind(current_path=self.ids.board.setter("highlight"))
        self.refresh()

    # -- sending commands -------------------------------------------------------------

    def answer_card(self, text: str) -> None:
        """A typed card: its full id, or the short name after the last slash."""
        request = self.session.request
        text = text.strip()
        if request is not None and "/" not in text:
            text = next((o for o in request.options if o.rsplit("/", 1)[-1] == text), text)
        self.answer(text)

    def end_turn(self) -> None:
        if not self.hero:
            self.message = "Pick the hero whose turn ends"
            return
        self.send("end_turn", {"hero": self.hero})

    def draw_for_me(self) -> None:
        """The app's virtual deck: the screen (not the rules) picks a card at random."""
        request = self.session.request
        if request is not None and request.kind == "draw" and request.options:
            self.answer(random.choice(request.options))

    def creature(self) -> dict[str, int]:
        out = {}
        for name in CREATURE_FIELDS:
            text = self.ids[f"creature_{name}"].text.strip() or "0"
            out[name] = int(text) if text.isdigit() else -1
        return out

    def tap_square(self, square: str) -> None:
        state = self.session.state
        if not self.hero:
            for clan, h in state.heroes.items():
                if h.position == square:
                    self.select(clan)
                    return
            self.message = "Pick a hero first (the buttons on the right), then tap a square"
            return
        enemy = next(
            (slot for slot, e in state.enemies.items() if e.position == square and not e.defeated),
            None,
        )
        if state.karn.on_board and state.karn.position == square:
            enemy = "karn"
        if enemy is not None:
            self.send(
                "resolve_battle", {"hero": self.hero, "enemy": enemy, "creature": self.creature()}
            )
        else:
            args = {"hero": self.hero, "to": square, "move": max(0, self.creature()["move"])}
            if self.ids.disengage.state == "down":
                args["disengage"] = True
            self.send("move_hero", args)

    def select(self, clan: str) -> None:
        self.hero = "" if self.hero == clan else clan
        self.refresh()

    def set_turn_order(self) -> None:
        self.send("set_turn_order", {"order": list(self.session.state.players)})

    # -- showing the state --------------------------------------------------------------

    def refresh(self) -> None:
        if self.session is None:
            return
        state = self.session.state
        self.ids.status.show(state)
        self.ids.walkthrough.show(state)
        self.ids.battle.show(state)
        board = self.ids.board
        board.session = self.session
        board.selected = self.hero
        board.refresh()
        self._heroes(state)
        self._request()

    def _heroes(self, state: Any) -> None:
        box = self.ids.heroes
        if self._hero_buttons != list(state.heroes):
            box.clear_widgets()
            for clan in state.heroes:
                b = GameToggle(text=clan.title(), group="direwild-hero")
                b.bind(on_release=lambda _b, c=clan: self.select(c))
                box.add_widget(b)
            self._hero_buttons = list(state.heroes)
        for b, clan in zip(reversed(box.children), state.heroes, strict=False):
            h = state.heroes[clan]
            b.state = "down" if clan == self.hero else "normal"
            b.text = f"{clan.title()}\n{h.position}, stamina {h.stamina:+d}, magic {h.magic}"

    def _request(self) -> None:
        box = self.ids.answers
        box.clear_widgets()
        request = self.session.request
        if request is None:
            self.request_text = ""
            return
        self.request_text = request.describe()
        if request.kind == "dice":
            for v in DIE_PROFILES.get(request.profile, ()):
                b = GameButton(text=str(v))
                b.bind(on_release=lambda _b, v=v: self.answer([v] * request.count))
                box.add_widget(b)
        else:
            typed = GameInput(hint_text="card id or name")
            typed.bind(on_text_validate=lambda t: self.answer_card(t.text))
            box.add_widget(typed)
            b = GameButton(text="Draw for me")
            b.bind(on_release=lambda _b: self.draw_for_me())
            box.add_widget(b)
