"""The battle panel: both totals, the winner and every effect in order."""

from __future__ import annotations

from typing import Any

from kivy.lang import Builder
from kivy.properties import StringProperty
from kivy.uix.boxlayout import BoxLayout

from companion.games.direwild.view import name

Builder.load_file(__file__.replace(".py", ".kv"))


class BattleView(BoxLayout):
    headline = StringProperty("")
    effects = StringProperty("")

    def show(self, state: Any) -> None:
        b = state.last_battle
        if b is None:
            self.headline, self.effects = "No battle yet this round", ""
            return
        who = name(b.hero) if b.winner == "hero" else name(b.enemy)
        crit = " - CRITICAL HIT" if b.critical else ""
        self.headline = (
            f"{name(b.hero)} {b.hero_total} vs {name(b.enemy)} {b.enemy_total}: {who} wins{crit}"
        )
        self.effects = "\n".join(f"{i}. {t}" for i, t in enumerate(b.effects[1:], start=1))
