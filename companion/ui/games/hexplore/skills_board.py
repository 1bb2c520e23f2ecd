"""The skills board: every hero's ranks against the Fate Cycle, auto-failing skills marked."""

from __future__ import annotations

from typing import Any

from kivy.lang import Builder
from kivy.properties import ObjectProperty
from kivy.uix.boxlayout import BoxLayout

from companion.games.hexplore.tables import SKILLS
from companion.ui.games.hexplore.text import hero_flag, skill_cell
from companion.ui.games.readable import GameButton, GameText

Builder.load_file(__file__.replace(".py", ".kv"))


WIDTHS = (0.22, 0.16, 0.16, 0.16, 0.14, 0.16)


def _cell(text: str, width: float, **kwargs: Any) -> GameText:
    """Wrapped (a rank with AUTO-FAIL and the last result takes two lines), not cut."""
    label = GameText(text=text, size_hint_x=width, halign="center", **kwargs)
    label.bind(size=lambda w, _s: setattr(w, "text_size", (w.width, None)))
    return label


class SkillsBoard(BoxLayout):
    """One row per hero; Roll sends that hero's Skill phase dice request."""

    send = ObjectProperty(None)  # Callable[[str, dict], bool], given by the table view

    def show(self, s: Any) -> None:
        grid = self.ids.grid
        grid.clear_widgets()
        titles = ("Hero", "Navigate", "Explore", "Survival", "Status", "")
        for title, width in zip(titles, WIDTHS, strict=True):
            grid.add_widget(_cell(title, width, bold=True))
        for hid, h in s.heroes.items():
            grid.add_widget(_cell(hid, WIDTHS[0]))
            for k, width in zip(SKILLS, WIDTHS[1:4], strict=True):
                failing = h.skills[k] <= s.fate.cycle
                grid.add_widget(
                    _cell(
                        skill_cell(s, hid, k),
                        width,
                        color=(1, 0.35, 0.35, 1) if failing else (1, 1, 1, 1),
                    )
                )
            grid.add_widget(_cell(hero_flag(s, hid), WIDTHS[4]))
            roll = GameButton(text="Roll", size_hint_x=WIDTHS[5])
            roll.bind(on_release=lambda _b, h=hid: self.send("roll_skills", {"hero": h}))
            roll.hero = hid
            grid.add_widget(roll)

    def cell_texts(self) -> list[str]:
        """The board's words in reading order (for tests and screen readers)."""
        return [w.text for w in reversed(self.ids.grid.children)]

    def roll_button(self, hid: str) -> GameButton:
        return next(w for w in self.ids.grid.children if getattr(w, "hero", None) == hid)
