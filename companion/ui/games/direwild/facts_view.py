"""Steppers for the facts read off the table (a creature's attack, its move, the magic
spent): which ones show, and how far each goes, come from the listed actions' `inputs`."""

from __future__ import annotations

import copy
from typing import Any

from kivy.lang import Builder
from kivy.properties import ListProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout

from companion.core.rules import Action

Builder.load_file(__file__.replace(".py", ".kv"))

# The words for each fact, by the last part of its input path ("creature.attack").
FACT_WORDS = {
    "attack": "Creature attack",
    "knockback": "Knockback",
    "poison": "Poison",
    "flight": "Flight",
    "move": "Extra move",
    "magic": "Magic spent",
    "critical_colour": "Critical hit's colour",
    "knockback_direction": "Knockback goes",
}


# an input chosen by a tap on the board, never a stepper (the table view asks for the tap)
SQUARE_INPUT = "to"


def fact_key(path: str) -> str:
    return path.rsplit(".", 1)[-1]


def choice_words(value: object) -> str:
    return "ask when it happens" if value is None else str(value).title()


class FactStepper(BoxLayout):
    """- value + for a number, or one button that steps through the choices."""

    words = StringProperty("")
    shown = StringProperty("")
    low = NumericProperty(0)
    high = NumericProperty(0)
    choices = ListProperty([])

    def __init__(self, key: str, spec: dict[str, Any], value: Any, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self.key, self.choices = key, list(spec.get("choices", []))
        self.words = FACT_WORDS.get(key, key.replace("_", " ").capitalize())
        self.low, self.high = spec.get("min", 0), spec.get("max", 0)
        self.value = value
        self.show()

    def step(self, by: int) -> None:
        if self.choices:
            at = self.choices.index(self.value) if self.value in self.choices else -1
            self.value = self.choices[(at + by) % len(self.choices)]
        else:
            self.value = max(self.low, min(self.high, int(self.value) + by))
        self.show()

    def show(self) -> None:
        self.shown = choice_words(self.value) if self.choices else str(self.value)


class FactsView(GridLayout):
    """The steppers for whatever the listed actions ask for, values kept between redraws."""

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self.values: dict[str, Any] = {}
        self._shown: list[tuple[str, str]] = []

    def show(self, actions: list[Action]) -> None:
        specs: dict[str, dict[str, Any]] = {}
        for action in actions:
            for path, spec in action.get("inputs", {}).items():
                key = fact_key(path)
                if key == SQUARE_INPUT:
                    continue
                if "choices" in spec:
                    specs.setdefault(key, {"choices": []})
                    for c in spec["choices"]:
                        if c not in specs[key]["choices"]:
                            specs[key]["choices"].append(c)
                else:
                    have = specs.setdefault(key, {"min": 0, "max": spec["max"]})
                    have["max"] = max(have["max"], spec["max"])
        shape = [(k, repr(v)) for k, v in specs.items()]
        if shape == self._shown:
            return
        self._shown = shape
        self.clear_widgets()
        for key, spec in specs.items():
            default = spec["choices"][0] if "choices" in spec else 0
            if key not in self.values or (
                "choices" in spec and self.values[key] not in spec["choices"]
            ):
                self.values[key] = default
            stepper = FactStepper(key, spec, self.values[key])
            stepper.bind(shown=lambda s, _v: self.values.__setitem__(s.key, s.value))
            self.add_widget(stepper)

    def forget_shown(self) -> None:
        """Redraw the steppers from `values` next time (a value set from outside)."""
        self._shown = []

    def forget(self) -> None:
        """A new hero's turn, a new hand of creatures: every fact back to its start."""
        self.values.clear()
        self._shown = []

    def fill(self, action: Action) -> dict[str, Any]:
        """The action's arguments with each input taken from its stepper, as they stand
        (a value the rules do not accept is refused in their words, never corrected here)."""
        args = copy.deepcopy(action["with"])
        for path in action.get("inputs", {}):
            key = fact_key(path)
            if key not in self.values:
                continue
            *heads, last = path.split(".")
            inner = args
            for head in heads:
                inner = inner.setdefault(head, {})
            inner[last] = self.values[key]
        return args
