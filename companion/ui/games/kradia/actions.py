"""The action picker: one button per command the rules list now (`legal_actions`), the
step they expect next as the large button on top; a tap sends the command as listed.

Nothing here decides a rule.  What is offered, its words, the words above it (`prompt`)
and why the rest is closed all come from the rules; a refusal is shown as the rules word
it.  The one thing the table sets here is a listed input with choices (each hero's Level 3
card side on Resupply): a tap on that hero's button turns to the next side the rules list.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kivy.lang import Builder
from kivy.properties import ObjectProperty
from kivy.uix.boxlayout import BoxLayout

from companion.core.rules import Action, RuleError
from companion.games.kradia.view import why_not
from companion.ui.games.readable import GameButton

if TYPE_CHECKING:
    from companion.core.session import Session

Builder.load_file(str(Path(__file__).with_suffix(".kv")))


class CommandButton(GameButton):
    """A button that carries the action it sends (or the input it turns)."""

    def __init__(self, command: str, args: dict[str, Any], **kwargs: object) -> None:
        super().__init__(**kwargs)
        self.command = command
        self.args = args


class OtherActions(BoxLayout):
    """The actions besides the next step, and why the rest are closed: below the boards,
    so the next step's button and the boss board keep their place at every text size."""


class ActionPicker(BoxLayout):
    """The next step: what the table is waiting for and the one large button doing it.
    The other legal actions go to `more` (an OtherActions placed by the view)."""

    more = ObjectProperty(None)
    session: Session | None = None
    chosen: dict[str, object] | None = None  # input path -> the value the table set

    def show(self, session: Session, view: object = None, refusal: str = "") -> None:
        self.session = session
        state, content = session.state, session.content
        now = session.actions()  # while a roll or draw waits, the dice panel answers it
        actions: list[Action] = [] if now["waiting"] else now["actions"]
        self.ids.prompt.text = self._prompt(actions)
        reasons = "; ".join(why_not(state, content)) if actions else ""
        more = self.more.ids
        more.message.text = refusal or reasons
        self.ids.primary.clear_widgets()
        more.buttons.clear_widgets()
        for action in actions:
            args = self._with_inputs(action)
            button = CommandButton(action["do"], args, text=action["label"])
            button.bind(on_release=self._pressed)
            if action.get("primary"):
                button.sp = 22
                button.primary = True  # the one next step, in the theme's accent
                self.ids.primary.add_widget(button)
            else:
                more.buttons.add_widget(button)
            for path, spec in action.get("inputs", {}).items():
                if "choices" in spec:
                    more.buttons.add_widget(self._input_button(path, spec, args))

    @property
    def shown(self) -> Session:
        """The session last shown: a tap comes only from a button `show` made for it, so
        a tap with none is a fault in the app."""
        if self.session is None:
            raise RuntimeError("the action picker has shown no session")
        return self.session

    def _prompt(self, actions: list[Action]) -> str:
        """The rules' words for the moment (`prompt`, the same on each action listed)."""
        req = self.shown.request
        if req is not None:
            return f"Waiting: {req.describe()}"
        if not actions:
            return "The game is over"
        return actions[0].get("prompt", "")

    def _with_inputs(self, action: Action) -> dict[str, Any]:
        """The listed arguments, with each input the table has set so far."""
        args = copy.deepcopy(action["with"])
        for path, spec in action.get("inputs", {}).items():
            value = (self.chosen or {}).get(path)
            if value is not None and value in spec.get("choices", ()):
                *parents, last = path.split(".")
                node = args
                for key in parents:
                    node = node.setdefault(key, {})
                node[last] = value
        return args

    def _input_button(self, path: str, spec: dict[str, Any], args: dict[str, Any]) -> CommandButton:
        *parents, last = path.split(".")
        node = args
        for key in parents:
            node = node[key]
        hero = self.shown.state.heroes.get(last)
        who = self.shown.content.get("heroes", hero.card).title if hero else last.title()
        value = node[last]
        button = CommandButton("input", {"path": path, "choices": spec["choices"], "value": value})
        button.text = f"{who}: {str(value).replace('-', ' ').title()}"
        button.bind(on_release=self._pressed)
        return button

    def _pressed(self, button: CommandButton) -> None:
        if button.command == "input":
            choices, value = button.args["choices"], button.args["value"]
            nxt = choices[(choices.index(value) + 1) % len(choices)]
            self.chosen = {**(self.chosen or {}), button.args["path"]: nxt}
            self.show(self.shown)
            return
        self.chosen = None
        self.send(button.command, button.args)

    def send(self, name: str, args: dict[str, Any]) -> None:
        try:
            self.shown.do(name, args)
        except RuleError as exc:
            self.show(self.shown, refusal=exc.message)
            return
        parent = self.parent
        while parent is not None and not hasattr(parent, "refresh"):
            parent = parent.parent
        (parent.refresh if parent is not None else lambda: self.show(self.shown))()
