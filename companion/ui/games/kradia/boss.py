"""The boss board: HP track with dice per space and the overdrive line, the rage track and
the attack buff.  Kept above the scrolling part of the view: the table reads it every turn."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kivy.lang import Builder
from kivy.metrics import dp, sp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from companion.content.pack import Content
from companion.games.kradia.view import hp_space, hp_track
from companion.ui.games.correcting import Correct
from companion.ui.games.kradia.cells import Cell, TapTrack  # noqa: F401  (kv rule)
from companion.ui.games.readable import TEXT_SP
from companion.ui.style import style

Builder.load_file(str(Path(__file__).with_suffix(".kv")))

TRACK_ROW = 15  # HP spaces to a row of the track, at most


def word_width(text: str) -> float:
    """The width a track space's words take in bold at the text size chosen, and a margin."""
    from kivy.core.text import Label as CoreLabel

    size = sp(TEXT_SP) * style.font_scale
    return float(CoreLabel(font_size=size, bold=True).get_extents(text)[0] + dp(8))


def track_cols(spaces: int, width: float, widest: str, gap: float) -> int:
    """Spaces to a row: at most TRACK_ROW, and only as many as leave each its widest
    number whole (a phone at Largest text broke "10" over two lines in 12 a row); the
    rows as even as they can be (12 on a narrow track: two rows of 6, not 7 and 5)."""
    fit = int((width + gap) / (word_width(widest) + gap)) if width > 0 else TRACK_ROW
    cols = max(1, min(TRACK_ROW, spaces, fit))
    rows = -(-spaces // cols)
    return -(-spaces // rows)


class BossPanel(BoxLayout):
    _shown: object = None

    correct: Correct | None = None  # the view's correct_value(title, path, value, **bounds)
    title = ""  # the boss's name, for the correction sheet
    _limits: dict[str, int]  # the most each track holds, set by `show`

    def on_width(self, *_args: object) -> None:
        """A track built for another width is built again (its spaces to a row)."""
        if self._last is not None:
            self.show(*self._last)

    _last: tuple[dict[str, Any], Content, Correct | None] | None = None

    def show(self, data: dict[str, Any], content: Content, correct: Correct | None = None) -> None:
        self._last = (data, content, correct)
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
        now = hp_space(card, b["hp"])
        over = "   OVERDRIVE" if now.overdrive else ""
        self.ids.stats.text = f"HP {b['hp']}/{b['max_hp']}   {now.dice} dice{buff}{over}"
        spaces = hp_track(card, b["max_hp"])
        track = self.ids.track
        widest = max((f"{space.hp}!" for space in spaces), key=len, default="0")
        cols = track_cols(len(spaces), self.width, widest, dp(2))
        rage_word = word_width("RAGE")
        shape = (cols, rage_word)  # built again for another width or text size
        key = (b["id"], b["hp"], b["max_hp"], b["rage"], b["rage_max"], id(content), shape)
        if key == self._shown:
            return  # the track and rage cells are as they were: rebuilding them is slow
        self._shown = key
        track.clear_widgets()
        # rows of at most TRACK_ROW spaces, each over its dice, so the numbers stay readable
        track.cols = cols
        for start in range(0, len(spaces), track.cols):
            row = spaces[start : start + track.cols]
            blanks = track.cols - len(row)
            for spot in row:
                here = spot.hp == b["hp"]
                tone = "marker" if here else ("overdrive" if spot.overdrive else "plain")
                # "!" marks an overdrive space in words as well as in orange (issue 25)
                words = f"{spot.hp}!" if spot.overdrive else str(spot.hp)
                cell = Cell(text=words, bold=here, tone=tone)
                cell.space = spot.hp
                track.add_widget(cell)
            for _ in range(blanks):
                track.add_widget(Widget())
            for spot in row:
                track.add_widget(Cell(text=f"x{spot.dice}", tone="dim"))
            for _ in range(blanks):
                track.add_widget(Widget())
        rage = self.ids.rage
        rage.clear_widgets()
        # the last space's word whole: as wide as "RAGE" needs, the numbers share the rest
        rage.cols = max(1, b["rage_max"])
        rage.cols_minimum = {rage.cols - 1: rage_word}
        for space in range(1, b["rage_max"] + 1):
            cell = Cell(
                text="RAGE" if space == b["rage_max"] else str(space),
                tone="rage" if space <= b["rage"] else "plain",
            )
            cell.space = space
            rage.add_widget(cell)
        self._limits = {"boss.hp": b["max_hp"], "boss.rage": b["rage_max"]}

    def correct_track(self, word: str, path: str, track: TapTrack) -> None:
        """The sheet for the boss's HP or rage, starting at the space tapped."""
        space = track.space_touched()
        if self.correct is not None and space is not None:
            most = self._limits[path]
            self.correct(f"{self.title}: {word}", path, space, least=0, most=most)
