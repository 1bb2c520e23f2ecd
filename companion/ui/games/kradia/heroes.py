"""The heroes strip: HP, both Manas, buffs, ailments, states and the First Player token."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kivy.lang import Builder
from kivy.properties import ColorProperty, NumericProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout

from companion.content.pack import Content
from companion.ui.games.correcting import Correct
from companion.ui.games.kradia.cells import Bar  # noqa: F401  (kv rule)

Builder.load_file(str(Path(__file__).with_suffix(".kv")))

BACKGROUNDS = {
    # the hero whose turn it is: a blue dark enough for the states' amber words (5.7:1;
    # 4.7:1 on the lighter blue measured 4.4:1 on its drawn pixels, issue 25)
    "turn": (0.13, 0.31, 0.52, 1),
    "normal": (0.17, 0.18, 0.22, 1),
    "out": (0.25, 0.12, 0.12, 1),
}


def hero_states(h: dict[str, Any]) -> list[str]:
    words = list(h["ailments"])
    for flag, word in (
        ("stunned", "STUNNED"),
        ("evasion", "evasion"),
        ("fading", "FADING"),
        ("retired", "RETIRED"),
    ):
        if h[flag]:
            words.append(word)
    if h["attack_buff"]:
        words.append(f"attack +{h['attack_buff']}")
    return words


class HeroCard(BoxLayout):
    background = ColorProperty(BACKGROUNDS["normal"])

    def show(
        self,
        key: str,
        h: dict[str, Any],
        title: str,
        start: bool,
        turn: bool,
        correct: Correct | None = None,
    ) -> None:
        self.ids.name.text = f"{title}  Level {h['level']}"
        for bar, word, field, most in (
            (self.ids.hp, "HP", "hp", "max_hp"),
            (self.ids.red, "Red", "red", "red_max"),
            (self.ids.blue, "Blue", "blue", "blue_max"),
        ):
            bar.show(word, h[field], h[most], field)
            bar.correction = (f"{title}: {word}", f"heroes.{key}.{field}", h[most])
            bar.correct = correct
            bar.unbind(on_release=_correct_bar)
            bar.bind(on_release=_correct_bar)
        token = ["First Player"] if start else []
        self.ids.states.text = ", ".join(token + hero_states(h)) or "No ailments"
        out = h["fading"] or h["retired"]
        self.background = BACKGROUNDS["out" if out else ("turn" if turn else "normal")]
        self.hero = key


def _correct_bar(bar: Bar) -> None:
    """A tapped bar opens the correction of just its value."""
    if bar.correct is not None:
        title, path, most = bar.correction
        bar.correct(title, path, least=0, most=most)


class HeroesStrip(GridLayout):
    # the tallest card's name and the tallest card: every card takes them, so the rows of
    # a strip of cards line up (a name on two lines beside one on one set them apart)
    name_height = NumericProperty(0)
    card_height = NumericProperty(0)

    def _even(self, *_args: object) -> None:
        cards = [c for c in self.children if isinstance(c, HeroCard)]
        self.name_height = max((c.ids.name.texture_size[1] for c in cards), default=0)
        # the content of each card, less what evening it out added
        self.card_height = max((c.minimum_height for c in cards), default=0)

    def show(self, data: dict[str, Any], content: Content, correct: Correct | None = None) -> None:
        self.clear_widgets()
        self.name_height = self.card_height = 0
        for key in data["order"]:
            h = data["heroes"][key]
            card = HeroCard()
            card.show(
                key,
                h,
                content.get("heroes", h["card"]).title,
                data["start_player"] == key,
                data["turn"] == key,
                correct,
            )
            card.ids.name.bind(texture_size=self._even)
            card.bind(minimum_height=self._even)
            self.add_widget(card)
