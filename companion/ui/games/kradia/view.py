"""The whole Kradia table on one screen, refreshed after every session change."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from kivy.clock import Clock
from kivy.lang import Builder
from kivy.metrics import dp
from kivy.properties import NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout

from companion.ui.games.kradia.actions import ActionPicker, OtherActions  # noqa: F401  (kv rule)
from companion.ui.games.kradia.attack import AttackPanel  # noqa: F401
from companion.ui.games.kradia.battlefield import BattlefieldBoard  # noqa: F401
from companion.ui.games.kradia.boss import BossPanel  # noqa: F401
from companion.ui.games.kradia.heroes import HeroesStrip  # noqa: F401
from companion.ui.gameviews import SendsCommands

if TYPE_CHECKING:
    from companion.core.session import Session

Builder.load_file(str(Path(__file__).with_suffix(".kv")))


def headline(data: dict[str, Any], title: str) -> str:
    outcome = data.get("outcome")
    if outcome == "won":
        return f"{title}: the heroes win!"
    if outcome == "lost":
        return f"{title}: every hero is Fading or retired. The heroes lose."
    if outcome == "boss_defeated":
        return f"{title}: boss defeated! Resupply for Level {data['level'] + 1}"
    # the level is on the boss board and the phase in the prompt beside this
    return f"Round {data['round']}" if data["round"] else "Before round 1"


class KradiaView(SendsCommands, BoxLayout):
    """Tapping a hero's bar, a space of the boss's HP track or a rage cell corrects just
    that value (`correct_value`, the Fix panel's correction)."""

    headline = StringProperty("")
    message = StringProperty("")
    # the boss board and the next step's button, which stay on screen: the frame gives the
    # result card only what they leave (SessionScreen.place_result), so a long card (a
    # hero's attack, then the boss's roll asked for) never draws over the boss board
    room_needed = NumericProperty(0)
    # the column's fold moved up to the top of the row it would split (KradiaView.fold)
    fold_gap = NumericProperty(0)
    fold_between_rows = True  # so the checks hold it to that (tests/ui/looks.py)

    def __init__(self, session: Session, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self.session = session
        pin = Clock.create_trigger(lambda _dt: self.pin())
        self.bind(height=pin)
        self.ids.boss.bind(height=pin)
        self.ids.actions.bind(height=pin)
        fold = Clock.create_trigger(lambda _dt: self.fold())
        self.bind(height=fold)
        self.ids.column.bind(height=fold)
        self.ids.heroes.bind(height=fold, pos=fold)
        self.refresh()

    def pin(self) -> None:
        """The boss board and the next step stay put above the scrolling rest while the
        view has room for them and a few lines more; else (a phone at Largest text) they
        scroll with the rest, at its top, rather than being drawn over the result card."""
        ids = self.ids
        boss, actions, column = ids.boss.__self__, ids.actions.__self__, ids.column.__self__
        fixed = boss.height + actions.height + dp(16)
        pinned = boss.parent is self
        room = self.height - fixed - 2 * self.spacing
        if pinned and room < dp(120):
            for w in (boss, actions):
                self.remove_widget(w)
            column.add_widget(actions, index=len(column.children))
            column.add_widget(boss, index=len(column.children))
        elif not pinned and room >= dp(140):  # a margin: no flapping at the edge
            for w in (boss, actions):
                column.remove_widget(w)
            self.add_widget(actions, index=len(self.children))
            self.add_widget(boss, index=len(self.children))

    def fold(self) -> None:
        """The bottom of the scrolling column seen falls between rows: a hero card (or a
        line of words) the fold would split is shown from the next line down instead,
        the part of it that was seen left empty (issue 25: in portrait at Largest text
        the heroes row sat at the fold, the cards cut through their names).  Kept as it
        is while the column is scrolled, laid out again with it."""
        from kivy.uix.label import Label

        from companion.ui.games.kradia.heroes import HeroCard

        scroll, column = self.ids.scroll, self.ids.column
        full = scroll.height + self.fold_gap  # the room without a gap
        if column.height <= full + 0.5:
            self.fold_gap = 0
            return
        seen_low = scroll.scroll_y * (column.height - scroll.height)  # column coordinates
        fold = seen_low + scroll.height - full  # where the bottom edge is with no gap
        spans = [
            (w.y, w.top)
            for w in column.walk(restrict=True)
            if (isinstance(w, HeroCard) or isinstance(w, Label) and str(w.text).strip())
            and 1 < w.height < full
        ]
        cut = [top for bottom, top in spans if bottom + 1 < fold < top - 1]
        while cut:  # up to the top of what the fold splits, and again if that splits more
            fold = max(cut)
            cut = [top for bottom, top in spans if bottom + 1 < fold < top - 1]
        gap = fold - (seen_low + scroll.height - full)
        self.fold_gap = gap if gap < full / 2 else 0

    def refresh(self) -> None:
        data = self.session.to_json()
        boss = self.session.content.get("bosses", data["boss"]["id"])
        self.headline = headline(data, boss.title)
        self.ids.boss.show(data, self.session.content, self.correct_value)
        self.ids.battlefield.show(data, self.session.content)
        self.ids.heroes.show(data, self.session.content, self.correct_value)
        self.ids.actions.show(self.session, self)
        self.ids.actions.ids.headline.text = self.headline
        self.ids.attack.show(data, self.session.content)
