"""The HEXplore table: the fate wheel and skills board, and the combat mat.

A view only: every button is an action the rules list now (`Session.actions()`), labelled
in the rules' words and placed by the group the rules give it; the step the rules expect
next is the big Next button.  A refusal is shown in the rules' own words and changes
nothing.  Rolls and draws are answered on the app's Dice panel, the one keypad.  While a
fight lasts the combat mat comes first, so its bars and choices are what the table sees
without scrolling.  Tapping a bar or the wheel corrects just that value.
"""

from __future__ import annotations

from kivy.lang import Builder
from kivy.properties import ListProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout

from companion.core.rules import Action
from companion.games.hexplore.view import COMBAT_GROUP, SKILLS_GROUP, TURN_GROUP
from companion.ui.games.hexplore import combat_mat, fate_wheel, skills_board
from companion.ui.games.hexplore.buttons import action_button, grow_with_text
from companion.ui.games.readable import GameButton
from companion.ui.gameviews import SendsCommands

_ = (combat_mat, fate_wheel, skills_board)  # their kv rules load on import
Builder.load_file(__file__.replace(".py", ".kv"))

# The rules' groups (`group`) the skills board and the combat mat draw themselves; the
# Game Turn's own steps (TURN_GROUP) are shown under the wheel, and what a card does waits
# behind one "More" button.
DRAWN_ELSEWHERE = frozenset({SKILLS_GROUP, COMBAT_GROUP})


class HexploreView(SendsCommands, BoxLayout):
    session = ObjectProperty(None)
    message = StringProperty("")
    request_text = StringProperty("")
    next_label = StringProperty("")
    actions = ListProperty([])

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self.primary: Action | None = None
        self.ids.mat.send = self.send
        self.ids.mat.correct = self.correct_value
        self.ids.wheel.correct = self.correct_value
        self.ids.skills.send = self.send
        self._fighting: bool | None = None
        self.more_open = False
        self.more_button: GameButton | None = None
        self.refresh()

    def refresh(self) -> None:
        s = self.session.state
        now = self.session.actions()
        waiting = now["waiting"]
        self.actions = [] if waiting else list(now["actions"])
        request = self.session.request
        self.request_text = f"Waiting on the Dice panel: {request.describe()}" if waiting else ""
        self.primary = next((a for a in self.actions if a.get("primary")), None)
        self.next_label = self.primary["label"] if self.primary else ""
        self.ids.wheel.show(s)
        self.ids.skills.show(s, self.actions)
        self.ids.mat.show(s, self.actions)
        self._order(s.combat is not None and s.combat.phase != "over")
        steps = self.ids.steps
        steps.clear_widgets()
        shown: set[str] = set()
        more: list[Action] = []
        for action in self.actions:
            if action.get("group") in DRAWN_ELSEWHERE or action is self.primary:
                continue  # the next step is the big button above: not twice
            if action.get("group") != TURN_GROUP:
                more.append(action)
                continue
            if action["do"] == "raise_difficulty" and action["do"] in shown:
                continue  # one step up at a time is enough on the table
            shown.add(action["do"])
            steps.add_widget(grow_with_text(action_button(action, self.send, self._refusal)))
        if more:
            toggle = GameButton(
                text=("Hide" if self.more_open else "More") + f": what a card does ({len(more)})"
            )
            toggle.bind(on_release=lambda _b: self.show_more(not self.more_open))
            steps.add_widget(grow_with_text(toggle))
            self.more_button = toggle
        for action in more if self.more_open else []:
            steps.add_widget(grow_with_text(action_button(action, self.send, self._refusal)))

    def show_more(self, shown: bool) -> None:
        self.more_open = shown
        self.refresh()

    def _refusal(self) -> str:
        return str(self.message)

    def _order(self, fighting: bool) -> None:
        """The combat mat on top during a fight; the wheel on top otherwise."""
        if fighting == self._fighting:
            return
        self._fighting = fighting
        board = self.ids.board
        parts = [self.ids.wheel, self.ids.steps, self.ids.skills]
        order = [self.ids.mat, *parts] if fighting else [*parts, self.ids.mat]
        board.clear_widgets()
        for part in order:
            board.add_widget(part)
        self.ids.scroll.scroll_y = 1

    def next_step(self) -> bool:
        """The big Next button: the step the rules expect now."""
        if self.primary is None:
            return False
        return self.send(self.primary["do"], dict(self.primary["with"]))

    def step_button(self, do: str) -> GameButton:
        """The turn's button that sends `do` (for tests)."""
        steps = self.ids.steps.children
        found: GameButton = next(b for b in steps if getattr(b, "action", {}).get("do") == do)
        return found
