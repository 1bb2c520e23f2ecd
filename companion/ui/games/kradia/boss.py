"""The boss board: HP track with dice per space and the overdrive line, the rage track and
the attack buff.  Kept above the scrolling part of the view: the table reads it every turn."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kivy.lang import Builder
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from companion.games.kradia.effects import dice_on_space, in_overdrive
from companion.ui.games.kradia.cells import Cell, TapCell

Builder.load_file(str(Path(__file__).with_suffix(".kv")))

TRACK_ROW = 15  # HP spaces to a row of the track


class BossPanel(BoxLayout):
    _shown: Any = None

    correct: Any = None  # the view's correct_value(title, path, value, **bounds)
    title = ""  # the boss's name, for the correction sheet

    def show(self, data: dict[str, Any], content: Any, correct: Any = None) -> None:
        self.correct = correct
        b = data["boss"]
        card = content.get("bosses", b["id"])
        self.title = card.title
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
        key = (b["id"], b["hp"], b["max_hp"], b["rage"], b["rage_max"], id(content))
        if key == self._shown:
            return  # the track and rage cells are as they were: rebuilding them is slow
        self._shown = key
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
                track.add_widget(self._space(TapCell(text=str(hp), bold=here, tone=tone), hp, b))
            for _ in range(blanks):
                track.add_widget(Widget())
            for hp in row:
                track.add_widget(Cell(text=f"x{dice_on_space(card, hp)}", tone="dim"))
            for _ in range(blanks):
                track.add_widget(Widget())
        rage = self.ids.rage
        rage.clear_widgets()
        for space in range(1, b["rage_max"] + 1):
            cell = TapCell(
                text="RAGE" if space == b["rage_max"] else str(space),
                tone="rage" if space <= b["rage"] else "plain",
            )
            cell.bind(on_release=lambda _c, n=space: self._correct("Rage", "boss.rage", n, b))
            rage.add_widget(cell)

    def _space(self, cell: Any, hp: int, b: dict[str, Any]) -> Any:
        cell.bind(on_release=lambda _c: self._correct("HP", "boss.hp", hp, b))
        return cell

    def _correct(self, word: str, path: str, value: int, b: dict[str, Any]) -> None:
        """The sheet for the boss's HP or rage, starting at the space tapped."""
        if self.correct is not None:
            most = b["max_hp"] if path == "boss.hp" else b["rage_max"]
            self.correct(f"{self.title}: {word}", path, value, least=0, most=most)
