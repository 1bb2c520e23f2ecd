"""The HEXplore table: the fate wheel and skills board beside the combat mat.

A view only: it reads `session.state` and sends commands with `session.do`; a refusal is
shown in the rules' own words and changes nothing.  Pending dice can be answered from the
face buttons here or from the app's dice panel.
"""

from __future__ import annotations

from typing import Any

from kivy.lang import Builder
from kivy.properties import ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout

from companion.core.rules import DIE_FACES
from companion.ui.games.hexplore import combat_mat, fate_wheel, skills_board
from companion.ui.games.readable import GameButton
from companion.ui.gameviews import SendsCommands

_ = (combat_mat, fate_wheel, skills_board)  # their kv rules load on import
Builder.load_file(__file__.replace(".py", ".kv"))


class HexploreView(SendsCommands, BoxLayout):
    session = ObjectProperty(None)
    message = StringProperty("")
    request_text = StringProperty("")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.ids.mat.send = self.send
        self.ids.skills.send = self.send
        self.refresh()

    def refresh(self) -> None:
        s = self.session.state
        self.ids.wheel.show(s)
        self.ids.skills.show(s)
        self.ids.mat.show(s, [o.slug for o in self.session.content.all("opponents")])
        request = self.session.request
        self.request_text = f"Waiting: {request.describe()}" if request else ""
        answers = self.ids.answers
        answers.clear_widgets()
        if request is not None and request.kind == "dice" and request.count == 1:
            for label, value in DIE_FACES[request.profile]:
                b = GameButton(text=label)
                b.bind(on_release=lambda _b, v=value: self.answer([v]))
                answers.add_widget(b)
