"""The battle panel: both totals, the winner and every effect in order."""

from __future__ import annotations

from collections.abc import Mapping

from kivy.lang import Builder
from kivy.properties import StringProperty
from kivy.uix.boxlayout import BoxLayout

from companion.games.direwild.view import DirewildState, happened_words, name

Builder.load_file(__file__.replace(".py", ".kv"))


class BattleView(BoxLayout):
    headline = StringProperty("")
    effects = StringProperty("")

    def show(self, state: DirewildState, names: Mapping[str, str] | None = None) -> None:
        """`names`: the session's names of the packs' ids, so each effect says them."""
        b = state.last_battle
        if b is None:
            self.headline, self.effects = "No battle yet this round", ""
            return
        who = name(b.hero) if b.winner == "hero" else name(b.enemy)
        crit = " - CRITICAL HIT" if b.critical else ""
        self.headline = (
            f"{name(b.hero)} {b.hero_total} vs {name(b.enemy)} {b.enemy_total}: {who} wins{crit}"
        )
        said = [happened_words(e.type, e.data, names) for e in b.effects[1:]]
        self.effects = "\n".join(f"{i}. {t}" for i, t in enumerate(said, start=1))
