"""The skills board: every hero's ranks against the Fate Cycle, auto-failing skills marked."""

from __future__ import annotations

from typing import Any

from kivy.lang import Builder
from kivy.properties import ObjectProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.label import Label

from companion.games.hexplore.tables import SKILLS
from companion.ui.games.hexplore.text import hero_flag, skill_cell

Builder.load_file(__file__.replace(".py", ".kv"))


WIDTHS = (0.2, 0.18, 0.18, 0.18, 0.14, 0.12)


def _cell(text: str, width: float, **kwargs: Any) -> Label:
    label = Label(text=text, size_hint_x=width, font_size="12sp", shorten=True, **kwargs)
    label.bind(size=lambda w, _s: setattr(w, "text_size", (w.width, None)))
    return label


class SkillsBoard(BoxLayout):
    """One row per hero; Roll sends that hero's Skill phase dice request."""

    send = ObjectProperty(None)  # Callable[[str, dict], bool], given by the table view

    def show(self, s: Any) -> None:
        grid = self.ids.grid
        grid.clear_widgets()
        titles = ("Hero", "Nav", "Exp", "Surv", "Status", "")
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
            roll = Button(text="Roll", size_hint_x=WIDTHS[5], font_size="12sp")
            roll.bind(on_release=lambda _b, h=hid: self.send("roll_skills", {"hero": h}))
            roll.hero = hid
            grid.add_widget(roll)

    def cell_texts(self) -> list[str]:
        """The board's words in reading order (for tests and screen readers)."""
        return [w.text for w in reversed(self.ids.grid.children)]

    def roll_button(self, hid: str) -> Button:
        return next(w for w in self.ids.grid.children if getattr(w, "hero", None) == hid)
