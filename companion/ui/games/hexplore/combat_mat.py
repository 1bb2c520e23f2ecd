"""The combat mat as the table's own: each opponent's Health and Energy (and Influence) as
bars under its name, its Soul Shield, each hero's Health and Energy as bars with their declaration and
their choices, the opponent's action walked through with its dice, then the resolution.

Its buttons are the combat actions the rules list now; a fight is started by tapping the
opponent's name.  Tapping a bar corrects just that value (the Fix panel's correction).
"""

from __future__ import annotations

from kivy.lang import Builder
from kivy.metrics import dp
from kivy.properties import ListProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout

from companion.core.rules import Action
from companion.games.hexplore.view import HexploreState
from companion.ui.games.correcting import Correct
from companion.ui.games.hexplore.buttons import action_button, grow_with_text, listed
from companion.ui.games.hexplore.text import (
    action_walkthrough,
    combat_heading,
    declaration_line,
    hero_status,
    hero_troubles,
    opponent_line,
    opponents_on_mat,
)
from companion.ui.games.readable import Bar, GameButton, GameText

Builder.load_file(__file__.replace(".py", ".kv"))

VITALS = ("health", "energy")


def vital_bars(
    key: str, name: str, what: object, path: str, correct: Correct, influence: bool = False
) -> BoxLayout:
    """Health and Energy (and Influence) bars for a hero or the opponent, side by side;
    each opens the correction of its own value when tapped."""
    row = BoxLayout(spacing=dp(4), size_hint_y=None)
    row.owner = key
    vitals = VITALS + (("influence",) if influence else ())
    bars = []
    for vital in vitals:
        bar = Bar()
        bar.show(vital.title(), getattr(what, vital), getattr(what, f"max_{vital}"), vital)
        bar.vital = vital
        bar.bind(
            on_release=lambda b: correct(
                f"{name}: {b.vital.title()}",
                f"{path}.{b.vital}",
                least=0,
                most=getattr(what, f"max_{b.vital}"),
            )
        )
        bars.append(bar)
        row.add_widget(bar)
    row.height = bars[0].height
    bars[0].bind(height=row.setter("height"))
    return row


def wrapped(text: str, **kwargs: object) -> GameText:
    words = GameText(text=text, halign="left", size_hint_y=None, **kwargs)
    words.bind(width=lambda w, width: setattr(w, "text_size", (width, None)))
    words.bind(texture_size=lambda w, ts: setattr(w, "height", ts[1] + dp(4)))
    return words


class CombatMat(BoxLayout):
    heading = StringProperty("")
    opponent = StringProperty("")
    walkthrough = StringProperty("")
    resolution = StringProperty("")
    opponents = ListProperty([])  # the labels of the fights the rules offer now
    send = ObjectProperty(None)  # Callable[[str, dict], bool], given by the table view
    correct = ObjectProperty(None)  # the view's correct_value(title, path, **bounds)

    def show(self, s: HexploreState, actions: list[Action]) -> None:
        starts = listed(actions, "start_combat")
        self.opponents = [a["label"] for a in starts]
        fights = self.ids.fights
        fights.clear_widgets()
        for action in starts:
            fights.add_widget(grow_with_text(action_button(action, self.send)))
        self.heading = combat_heading(s)
        c = s.combat
        self.opponent = opponent_line(s) if c is not None and c.phase == "over" else ""
        self.walkthrough = "\n".join(action_walkthrough(s))
        self.resolution = "\n".join(c.resolution) if c else ""
        foe = self.ids.foe
        foe.clear_widgets()
        rows = self.ids.heroes
        rows.clear_widgets()
        joins = self.ids.joins
        joins.clear_widgets()
        if c is None or c.phase == "over":
            return
        for action in listed(actions, "add_opponent"):
            # "If both Circumstances are Encounters, resolve both in one combat": below the
            # heroes, so the opponents' bars and the declarations stay where they were
            joins.add_widget(grow_with_text(action_button(action, self.send)))
        for key, path, o in opponents_on_mat(c):
            extra = [f"level {o.level} {o.type.replace('_', ' ')}"]
            if o.soul_shield:
                extra.append(f"Soul Shield {o.soul_shield}")
            if o.conditions:
                extra.append(", ".join(x.replace("_", " ") for x in o.conditions))
            foe.add_widget(wrapped(f"[b]{o.name}[/b]  ({', '.join(extra)})", markup=True))
            foe.add_widget(vital_bars(key, o.name, o, path, self.correct, o.savable))
        for hid in c.heroes:
            h = s.heroes[hid]
            rows.add_widget(wrapped(f"[b]{h.name}[/b]: {declaration_line(s, hid)}", markup=True))
            if not (h.dead or h.vanished or h.mindwiped):
                rows.add_widget(vital_bars(hid, h.name, h, f"heroes.{hid}", self.correct))
            others = hero_troubles(s, hid)
            if h.dead or h.vanished or h.mindwiped:
                others = [hero_status(s, hid)]
            if others:
                rows.add_widget(wrapped(", ".join(others), color=(1, 0.75, 0.4, 1)))
            choices = listed(actions, "declare", hero=hid)
            if choices:
                grid = GridLayout(cols=3, spacing=dp(4), size_hint_y=None)
                grid.bind(minimum_height=grid.setter("height"))
                for action in choices:
                    button = grow_with_text(action_button(action, self.send))
                    # the row names the hero: the button says what they do
                    button.text = button.text.removeprefix(f"{h.name}: ")
                    grid.add_widget(button)
                rows.add_widget(grid)

    def fight_button(self, label: str) -> GameButton:
        """The button starting the fight, or adding an opponent to it, that the rules
        label `label` (for tests)."""
        buttons = [*self.ids.fights.children, *self.ids.joins.children]
        found: GameButton = next(b for b in buttons if b.action["label"] == label)
        return found

    def button(self, hid: str, action: str, **args: object) -> GameButton:
        """The declare button for `hid` doing `action` (for tests)."""
        want = {"hero": hid, "action": action, **args}
        for row in self.ids.heroes.children:
            for w in getattr(row, "children", []):
                a = getattr(w, "action", None)
                if (
                    isinstance(w, GameButton)
                    and a
                    and all(a["with"].get(k) == v for k, v in want.items())
                ):
                    return w
        raise KeyError(f"no {action} button for {hid}")

    def bar(self, owner: str, vital: str) -> Bar:
        """The `vital` bar of an opponent ("opponent", "opponent2" ...) or of the hero
        `owner` (for tests)."""
        for row in [*self.ids.foe.children, *self.ids.heroes.children]:
            if getattr(row, "owner", None) == owner:
                found: Bar = next(b for b in row.children if getattr(b, "vital", None) == vital)
                return found
        raise KeyError(f"no {vital} bar for {owner}")
