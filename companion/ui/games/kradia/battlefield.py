"""The battlefield board: one column per symbol, the marker's space lit, and what the
Battlefield forbids this round."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kivy.lang import Builder
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from companion.content.pack import Content
from companion.games.kradia.view import ACTION_WORDS
from companion.ui.games.kradia.cells import Cell, fit
from companion.ui.games.readable import GameText

Builder.load_file(str(Path(__file__).with_suffix(".kv")))

SYMBOL_NAMES = {"sun": "Sun", "moon": "Moon", "star": "Star"}


class BattlefieldBoard(BoxLayout):
    """Rebuilt only when what it shows changed: its 15 spaces cost most of a refresh, and
    a hero's action or the boss's attack leaves the battlefield as it was."""

    _shown: object = None

    def show(self, data: dict[str, Any], content: Content) -> None:
        key = (repr(data["battlefield"]), id(content))
        if key == self._shown:
            return
        self._shown = key
        self._battlefield(data["battlefield"], content)

    def _battlefield(self, bf: dict[str, Any], content: Content) -> None:
        box = self.ids.battlefield
        box.clear_widgets()
        board = content.get("battlefield_boards", bf["board"])
        columns: dict[str, list[Any]] = {}
        for space in board.spaces:
            columns.setdefault(space.path[0], []).append(space)
        # one column per symbol, read across in rows; a long name wraps and its row grows
        ordered = [
            sorted(spaces, key=lambda s: (len(s.path), s.path)) for spaces in columns.values()
        ]
        box.cols = len(ordered)
        for symbol in columns:
            box.add_widget(fit(GameText(text=SYMBOL_NAMES.get(symbol, symbol), bold=True)))
        for depth in range(max(map(len, ordered))):
            for spaces in ordered:
                if depth >= len(spaces):
                    box.add_widget(Widget(size_hint_y=None, height=0))
                    continue
                space = spaces[depth]
                here = space.path == bf["path"]
                label = space.name or ">".join(space.path)
                box.add_widget(fit(Cell(text=label, tone="marker" if here else "plain")))
        down = len(bf["face_down"])
        now = next((sp.name for sp in board.spaces if sp.path == bf["path"] and sp.name), None)
        forbidden = [ACTION_WORDS.get(a, a) for a in bf["forbid"]]
        self.ids.battlefield_cards.text = (
            f"Battlefield cards face down: {down}.  Marker: {now or bf['effect'] or 'not yet'}"
            + (".  No " + ", ".join(forbidden) + " this round" if forbidden else "")
        )
