"""Which physical die plays which role in this session (issue 6: the app remembers it per
session, in `companion.table.assignments`): the Direwild d3, each HEXplore hero's skill dice, the
fate d8.

Opened from the dice panel.  A die plays one role at a time, so tapping it under one role
takes it from any other; each tap is saved at once.  The roll being asked for comes first,
as the roles its own fields give (this player's roll for this purpose, this player's die,
anything this player rolls, that die for anyone), then the roles already given dice, then
every die profile.  Roles are shown in words, never as their keys.
"""

from __future__ import annotations

from pathlib import Path

from kivy.app import App
from kivy.lang import Builder
from kivy.uix.gridlayout import GridLayout
from kivy.uix.popup import Popup
from kivy.uix.widget import Widget

from companion.core.rules import DIE_PROFILES, Request
from companion.table.assignments import key_words, keys_for, names_in
from companion.ui.widgets import BigToggle, Body, clear_and_fill

Builder.load_file(str(Path(__file__).with_suffix(".kv")))


def roles_for(request: Request | None, assigned: dict[str, list[str]]) -> list[str]:
    """The roles to offer: the pending roll's own, most specific first (the rules say who
    rolls, for what, with which die), then the roles already given dice, then every die."""
    roles: list[str] = []
    if request is not None and request.kind == "dice":
        roles += keys_for(request)
    roles += [r for r in assigned if r not in roles]
    return roles + [p for p in DIE_PROFILES if p not in roles]


class DiceGrid(GridLayout):
    """One role's dice, a toggle each."""


class AssignPopup(Popup):
    def open(self, *args: object, **kwargs: object) -> None:
        self.refresh()  # filled before it shows, not after the opening animation
        super().open(*args, **kwargs)

    def refresh(self) -> None:
        app = App.get_running_app()
        hub = app.hub
        dice = hub.known_dice()
        request = app.session.request if app.session is not None else None
        rows: list[Widget] = []
        if not dice:
            rows.append(
                Body(
                    text="Connect a tray or roll each smart die once and it appears here. "
                    "Until then rolls are entered on the keypad."
                )
            )
        names = names_in(request)
        for role in roles_for(request, hub.assignments.roles):
            mine = hub.assignments.dice_for(role)
            dice_words = ", ".join(hub.die_name(d) for d in mine) or "any free die"
            rows.append(Body(text=f"[b]{key_words(role, names)}[/b]: {dice_words}"))
            grid = DiceGrid()
            for die in dice:
                toggle = BigToggle(
                    text=hub.die_name(die), state="down" if die in mine else "normal"
                )
                toggle.allow_no_selection = True
                toggle.bind(on_release=lambda t, r=role, d=die: self.toggle(r, d, t.state))
                grid.add_widget(toggle)
            if dice:
                rows.append(grid)
        clear_and_fill(self.ids.roles, rows)

    def toggle(self, role: str, die: str, state: str) -> None:
        hub = App.get_running_app().hub
        dice = hub.assignments.dice_for(role)
        if state == "down" and die not in dice:
            dice.append(die)
        elif state != "down" and die in dice:
            dice.remove(die)
        hub.assign(role, dice)
        self.refresh()
