"""The boss board: HP track with dice per space and the overdrive line, the rage track and
the attack buff.  Kept above the scrolling part of the view: the table reads it every turn."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kivy.lang import Builder
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from companion.games.kradia.effects import dice_on_space, in_overdrive
from companion.ui.games.kradia.cells import Cell, TapTrack  # noqa: F401  (kv rule)

Builder.load_file(str(Path(__file__).with_suffix(".kv")))

TRACK_ROW = 15  # HP spaces to a row of the track


class BossPanel(BoxLayout):
    _shown: Any = None

    correct: Any = None  # the view's correct_value(title, path, value, **bounds)
    title = ""  # the boss's name, for the correction sheet
    _limits: dict[str, int]  # the most each track holds, set by `show`

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
                overdrive = in_overdrive(card, hp)
                tone = "marker" if here else ("overdrive" if overdrive else "plain")
                # "!" marks an overdrive space in words as well as in orange (issue 25)
                cell = Cell(text=f"{hp}!" if overdrive else str(hp), bold=here, tone=tone)
                cell.space = hp
                track.add_widget(cell)
            for _ in range(blanks):
                track.add_widget(Widget())
            for hp in row:
                track.add_widget(Cell(text=f"x{dice_on_space(card, hp)}", tone="dim"))
            for _ in range(blanks):
                track.add_widget(Widget())
        rage = self.ids.rage
        rage.clear_widgets()
        for space in range(1, b["rage_max"] + 1):
            cell = Cell(
                text="RAGE" if space == b["rage_max"] else str(space),
                tone="rage" if space <= b["rage"] else "plain",
            )
            cell.space = space
            rage.add_widget(cell)
        self._limits = {"boss.hp": b["max_hp"], "boss.rage": b["rage_max"]}

    def correct_track(self, word: str, path: str, track: Any) -> None:
        """The sheet for the boss's HP or rage, starting at the space tapped."""
        space = track.space_touched()
        if self.correct is not None and space is not None:
            most = self._limits[path]
            self.correct(f"{self.title}: {word}", path, space, least=0, most=most)
