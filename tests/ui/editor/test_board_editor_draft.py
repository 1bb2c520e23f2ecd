"""The board editor's edits as data, without a window: what a finger's path becomes, the
combat square's taps, walls written as the board files write them, and undo."""

from __future__ import annotations

from companion.games.direwild.board import check_board
from companion.ui.editor.board_draft import (
    BoardDraft,
    extend_trace,
    step_between,
    wall_text,
)


def test_a_skipped_stretch_is_filled_in_one_square_at_a_time():
    assert step_between("B2", "D2") == ["C2", "D2"]
    assert step_between("D4", "D2") == ["D3", "D2"]
    assert step_between("B2", "C3") == ["C2", "C3"]  # a cut corner: along the row first


def test_a_trace_goes_back_over_its_steps_and_never_repeats_a_square():
    trace: list[str] = []
    for sq in ["A1", "B1", "C1", "B1", "B2", "A2", "A1"]:
        trace = extend_trace(trace, sq)
    assert trace == ["A1", "B1", "B2", "A2"]


def test_walls_are_written_left_or_upper_square_first():
    assert wall_text("D1", "C1") == "C1|D1"
    assert wall_text("C3", "C2") == "C2/C3"


def test_combat_square_taps_reach_every_order_and_always_keep_1_to_4():
    draft = BoardDraft()
    seen = set()
    frontier = [dict(draft.data["combat_square"])]
    while frontier:
        numbers = frontier.pop()
        key = tuple(sorted(numbers.items()))
        if key in seen:
            continue
        seen.add(key)
        for side in ("left", "up", "right", "down"):
            d = BoardDraft({"combat_square": dict(numbers)})
            d.turn_combat(side)
            assert sorted(d.data["combat_square"].values()) == [1, 2, 3, 4]
            frontier.append(dict(d.data["combat_square"]))
    assert len(seen) == 24


def test_undo_keeps_the_typed_name_and_goes_back_one_edit():
    draft = BoardDraft()
    draft.set_altar("F3")
    draft.set_name("Our Redmill")
    draft.toggle_treasure("A6")
    assert draft.undo() == "Treasure placed on A6."
    assert draft.data["treasures"] == [] and draft.data["altar"] == "F3"
    assert draft.data["name"] == "Our Redmill"
    draft.undo()
    assert draft.data["altar"] == "" and not draft.can_undo
    assert draft.undo() == "" and draft.last == "Nothing to undo."


def test_the_draft_reports_what_the_board_check_reports():
    draft = BoardDraft({"entrance": ["A1", "B1", "C1", "D1"], "altar": "F6"})
    draft.set_trail("red", ["C3", "D3", "D4", "C4"])
    draft.set_spawn("red", "E5")
    board = draft.board()
    assert board is not None
    assert [p.message for p in draft.problems()] == check_board(board)
    assert [p.message for p in draft.problems()] == ["red spawn E5 is not on the red trail"]
    assert draft.problems()[0].squares == ("E5",)
