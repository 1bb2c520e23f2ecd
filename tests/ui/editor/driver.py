"""Entering cards in the pack editor by touch, counted: shared by the own_pack tests and
benchmarks/bench_card_taps.py so both count the same taps.

Every control is reached as a player reaches it: a real touch on the widget showing the
text, inside the field's own box (found by the field's path in the card).  Names and free
text are typed (the only keyboard use), counted apart from taps.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.ui.kivyharness import ARTIFACTS, AppTestCase, walk
from tests.ui.test_ergonomics import text_size

SHOTS = ARTIFACTS / "editor"
# Issue 24's tap budgets: a card entered from its kind's template, by touch (its name
# typed), from the tap on its kind to Save; benchmarks/bench_card_taps.py prints them.
MINION_TASK = "a new Direwild minion from its template"
BOSS_TASK = "a Kradia boss with its chart from a template"
OPPONENT_TASK = "a HEXplore opponent with 3 actions"
BUDGETS = {MINION_TASK: 20, BOSS_TASK: 50, OPPONENT_TASK: 45}


@dataclass
class Count:
    taps: int = 0
    typed: int = 0  # text fields typed into with the keyboard
    per_card: dict[str, tuple[int, int]] = field(default_factory=dict)
    since: tuple[int, int] = (0, 0)  # the counts when the card being entered was opened

    def card_done(self, name: str, kind: str, task: str = "") -> None:
        """This card's own taps and typing (from the tap on its kind to its Save), kept for
        benchmarks/bench_card_taps.py when EDITOR_COUNTS names a file; `task` names an
        entry the benchmark holds to a budget ("a new Direwild minion from its template")."""
        taps, typed = self.taps - self.since[0], self.typed - self.since[1]
        self.per_card[name] = (taps, typed)
        if task:
            assert taps <= BUDGETS[task], f"{task}: {taps} taps, over {BUDGETS[task]}"
        out = os.environ.get("EDITOR_COUNTS")
        if out:
            row = {"card": name, "kind": kind, "taps": taps, "typed": typed, "task": task}
            with Path(out).open("a", encoding="utf-8") as fh:
                fh.write(json.dumps(row))
                fh.write("\n")


class EditorDriver:
    def __init__(self, case: AppTestCase) -> None:
        self.case = case
        self.count = Count()

    @property
    def screen(self) -> Any:
        return self.case.app.screen("packs")

    def tap(self, target: Any, within: Any = None) -> None:
        self.case.frames(6)  # a long form settles its wrapped labels over a few frames
        self.case.tap(target, within=within)
        self.count.taps += 1

    def notice(self) -> str:
        return self.screen.ids.notice.text

    # -- the field boxes -------------------------------------------------------------

    def box(self, *path: Any) -> Any:
        boxes = self.screen.card_form.boxes
        assert tuple(path) in boxes, f"no field {path} on the form ({list(boxes)[:12]}...)"
        return boxes[tuple(path)]

    def type_text(self, text: str, *path: Any) -> None:
        """Tap the text field, type, and put the keyboard away (one keyboard use)."""
        from companion.ui.editor.form import FieldText

        box = self.box(*path)
        entry = next(w for w in walk(box) if isinstance(w, FieldText))
        self.tap(entry)
        entry.text = text
        entry.focus = False
        self.count.typed += 1
        self.case.frames(2)

    def number(self, value: int, *path: Any) -> None:
        """Steppers for a small change, else the keypad: as few taps as a player needs."""
        from companion.ui.editor.form import NumberPad

        box = self.box(*path)
        shown = next(w for w in walk(box) if getattr(w, "text", "").lstrip("-").isdigit())
        row = shown.parent
        delta = value - int(shown.text)
        if delta == 0:
            return
        if abs(delta) <= 3:
            for _ in range(abs(delta)):
                self.tap("+" if delta > 0 else "-", within=row)
            return
        self.tap(shown)
        pad = next(w for w in walk(box) if isinstance(w, NumberPad))
        if value < 0:
            self.tap("-", within=pad)
        for digit in str(abs(value)):
            self.tap(digit, within=pad)
        self.tap("OK", within=pad)

    def choose(self, label: str, *path: Any) -> None:
        self.tap(label, within=self.box(*path))

    def add(self, label: str, *path: Any) -> None:
        self.tap(label, within=self.box(*path))

    def open(self, *path: Any) -> None:
        """A list entry shown as one line (a chart row, an action): tapped to open it."""
        self.tap(self.box(*path))

    def more(self, *path: Any) -> None:
        """The "More: ..." button of a section (the card's own: no path): its folded
        fields, printed on a few cards only, shown."""
        self.tap(self.box(*path, "more"))

    def save(self) -> None:
        self.tap("Save", within=self.screen.ids.actions)

    def shoot(self, name: str) -> None:
        """Every editor screen: landscape and portrait, at Normal and Largest text (none
        when EDITOR_SHOTS=0: the benchmark counts taps only)."""
        from companion.ui.settings import TEXT_SIZES as SCALES

        if os.environ.get("EDITOR_SHOTS", "1") == "0":
            return
        SHOTS.mkdir(parents=True, exist_ok=True)
        for size_name in ("Normal", "Largest"):
            with text_size(SCALES[size_name]):
                self.case.frames(2)
                self.case.shoot(f"editor/{name}-{size_name.lower()}")


def new_pack(d: EditorDriver, game_title: str, copy_of: str | None = None) -> None:
    """From home: Your cards, New <game> pack, (a copy of the pack named `copy_of`), Make
    the pack."""
    d.tap("Your cards")
    d.tap(f"New {game_title.split(':')[0]} pack")
    if copy_of:
        d.tap(f"A copy of {copy_of}")
    d.tap("Make the pack")
    assert d.screen.page == "kinds", d.notice()


def open_new(d: EditorDriver, kind_button: str, new_label: str) -> None:
    """From the pack's kinds: the kind's button, then its New button (the card's count
    starts here)."""
    d.count.since = (d.count.taps, d.count.typed)
    d.tap(
        next(
            b for b in d.screen.ids.body.children if getattr(b, "text", "").startswith(kind_button)
        )
    )
    d.tap(new_label)


def new_card(d: EditorDriver, kind_button: str, new_label: str, name: str) -> None:
    open_new(d, kind_button, new_label)
    d.type_text(name, "name")


def save_clean(d: EditorDriver, name: str, task: str = "") -> None:
    d.save()
    assert d.notice() == f"Saved {name}.", d.notice()
    d.count.card_done(name, d.screen.kind, task)
    d.tap("Back")  # to the pack's kinds


def draw_board(d: EditorDriver, board: dict[str, Any]) -> None:
    """From the pack's kinds: Boards, New board (which opens the board editor), `board` entered by
    touch in the board editor (as tests/ui/editor/test_board_editor.py enters it), Save
    board, and back to the cards.  Counted as one card, like a card saved on its form: the
    editor's touches are taps, its name the one thing typed."""
    from tests.ui.editor.board_touch import BoardFinger, enter_board

    open_new(d, "Boards (", "New board")
    app = d.case.app
    assert app.root.current == "own_editor"
    finger = BoardFinger(d.case, app.screen("own_editor").children[0].children[0])
    enter_board(finger, board)
    finger.press("Save board")
    d.count.taps += finger.touches
    d.count.typed += finger.typed
    assert finger.editor.status == f"Saved {board['name']}.", finger.editor.status
    d.count.card_done(board["name"], "boards")
    d.tap("Back to the cards")
    assert app.root.current == "packs" and d.screen.page == "cards"
    d.tap("Back")  # to the pack's kinds


def start_with_pack(d: EditorDriver, game_title: str, pack_title: str) -> Any:
    """Home, New game, the game, only our pack, Start: the session the wizard made."""
    app = d.case.app
    while app.root.current != "home":
        d.tap("Back")
    d.tap("New game")
    d.tap(game_title)
    new = app.screen("new")
    for toggle in list(new.ids.packs.children):
        wanted = getattr(toggle, "text", "") == pack_title
        if hasattr(toggle, "pack") and (toggle.state == "down") != wanted:
            d.tap(toggle)
    assert new.chosen_packs() != [] and len(new.chosen_packs()) == 1, new.chosen_packs()
    return new
