"""The boss board: HP track with dice per space and the overdrive line, the rage track,
the attack buff, and the battlefield board with its marker."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kivy.lang import Builder
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from companion.games.kradia.effects import dice_on_space, in_overdrive
from companion.games.kradia.turns import ACTION_WORDS
from companion.ui.games.kradia.cells import Cell, fit
from companion.ui.games.readable import GameText

Builder.load_file(str(Path(__file__).with_suffix(".kv")))

SYMBOL_NAMES = {"sun": "Sun", "moon": "Moon", "star": "Star"}
TRACK_ROW = 15  # HP spaces to a row of the track


class BossPanel(BoxLayout):
    def show(self, data: dict[str, Any], content: Any) -> None:
        b = data["boss"]
        card = content.get("bosses", b["id"])
        self.ids.name.text = (
            f"{card.title} ({'Challenge' if card.level == 'challenge' else f'Level {card.level}'})"
        )
        buff = (
            f"   Attack Buff {b['attack_buff']}/{b['attack_buff_max']}"
            if b["attack_buff_max"]
            else ""
        )
        # Read from the card, so an HP corrected at the table shows its own space's dice.
        over = "   OVERDRIVE" if in_overdrive(card, b["hp"]) else ""
        dice = dice_on_space(card, b["hp"])
        self.ids.stats.text = f"HP {b['hp']}/{b['max_hp']}   {dice} dice{buff}{over}"
        track = self.ids.track
        track.clear_widgets()
        # rows of at most TRACK_ROW spaces, each over its dice, so the numbers stay readable
        spaces = list(range(b["max_hp"], 0, -1))
        track.cols = min(TRACK_ROW, len(spaces))
        for start in range(0, len(spaces), track.cols):
            row = spaces[start : start + track.cols]
            blanks = track.cols - len(row)
            for hp in row:
                here = hp == b["hp"]
                tone = "marker" if here else ("overdrive" if in_overdrive(card, hp) else "plain")
                track.add_widget(Cell(text=str(hp), bold=here, tone=tone))
            for _ in range(blanks):
                track.add_widget(Widget())
            for hp in row:
                track.add_widget(Cell(text=f"x{dice_on_space(card, hp)}", tone="dim"))
            for _ in range(blanks):
                track.add_widget(Widget())
        rage = self.ids.rage
        rage.clear_widgets()
        for space in range(1, b["rage_max"] + 1):
            rage.add_widget(
                Cell(
                    text="RAGE" if space == b["rage_max"] else str(space),
                    tone="rage" if space <= b["rage"] else "plain",
                )
            )
        self._battlefield(data["battlefield"], content)

    def _battlefield(self, bf: dict[str, Any], content: Any) -> None:
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
