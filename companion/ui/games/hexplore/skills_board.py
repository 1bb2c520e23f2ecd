"""The skills board: every hero's ranks against the Fate Cycle, failing skills marked as
the rules count them; a hero's Roll button and Settle only when the rules list them."""

from __future__ import annotations

from kivy.lang import Builder
from kivy.metrics import dp, sp
from kivy.properties import ObjectProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from companion.core.rules import Action
from companion.games.hexplore.view import SKILLS, HexploreState, failing_skills
from companion.ui.games.hexplore.buttons import action_button, listed
from companion.ui.games.hexplore.text import hero_flag, skill_cell
from companion.ui.games.readable import TEXT_SP, GameButton, GameText, fitted_font
from companion.ui.style import style

Builder.load_file(__file__.replace(".py", ".kv"))


WIDTHS = (0.22, 0.16, 0.16, 0.16, 0.14, 0.16)
MIN_SP = 16  # the app's floor for any text


def _cell(text: str, width: float, **kwargs: object) -> GameText:
    """Wrapped (a rank with AUTO-FAIL and the last result takes two lines), not cut."""
    label = GameText(text=text, size_hint_x=width, halign="center", **kwargs)
    label.bind(size=lambda w, _s: setattr(w, "text_size", (w.width, None)))
    return label


class ColumnTitle(GameText):
    """A column title: one word that shrinks to fit its column rather than breaking
    ("Navigat/e" at the largest text in portrait); its kv rule refits it whenever the
    column's width or the text size changes."""

    def fit_sp(self, text: str, width: float, scale: float) -> float:
        full = sp(TEXT_SP) * scale
        return float(TEXT_SP * fitted_font(text, width - dp(4), full, sp(MIN_SP)) / full)


class SkillsBoard(BoxLayout):
    """One row per hero; Roll sends that hero's Skill phase dice request."""

    send = ObjectProperty(None)  # Callable[[str, dict], bool], given by the table view

    def show(self, s: HexploreState, actions: list[Action]) -> None:
        settle = self.ids.settle_box
        settle.clear_widgets()
        for action in listed(actions, "end_skill_phase"):
            settle.add_widget(action_button(action, self.send))
        grid = self.ids.grid
        grid.clear_widgets()
        titles = ("Hero", "Navigate", "Explore", "Survival", "Status", "")
        for title, width in zip(titles, WIDTHS, strict=True):
            grid.add_widget(ColumnTitle(text=title, size_hint_x=width))
        for hid, h in s.heroes.items():
            failing = failing_skills(s, hid)
            grid.add_widget(_cell(h.name, WIDTHS[0]))
            for k, width in zip(SKILLS, WIDTHS[1:4], strict=True):
                cell = _cell(skill_cell(s, hid, k, k in failing), width)
                if k in failing:  # the words say AUTO-FAIL too: colour is never alone
                    cell.color = style.warn
                grid.add_widget(cell)
            grid.add_widget(_cell(hero_flag(s, hid), WIDTHS[4]))
            roll = listed(actions, "roll_skills", hero=hid)
            if roll:
                button: Widget = action_button(roll[0], self.send, size_hint_x=WIDTHS[5])
                button.text = "Roll"  # the row names the hero; the rules' label says whose
            else:
                button = Widget(size_hint_x=WIDTHS[5])
            button.hero = hid
            grid.add_widget(button)

    def cell_texts(self) -> list[str]:
        """The board's words in reading order (for tests and screen readers)."""
        return [w.text for w in reversed(self.ids.grid.children) if hasattr(w, "text")]

    def roll_button(self, hid: str) -> GameButton:
        return next(
            w
            for w in self.ids.grid.children
            if getattr(w, "hero", None) == hid and isinstance(w, GameButton)
        )

    def settle_button(self) -> GameButton:
        button: GameButton = next(iter(self.ids.settle_box.children))
        return button
