"""The Direwild board editor by touch: the demo board entered from nothing by taps and
traces and compared with its file, problems marked on the board and said in words, undo,
saving through the content loader, and screenshots in both orientations and Largest text."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import msgspec
import pytest
import yaml

from tests.ui.editor.board_touch import BoardFinger, enter_board
from tests.ui.kivyharness import ARTIFACTS, LANDSCAPE, PORTRAIT, KivyTestCase

pytestmark = pytest.mark.ui

DEMO_BOARD = "direwild/board/redmill-fields"


def demo_board() -> dict[str, Any]:
    from companion.games import get_game, load_game_content

    content = load_game_content(get_game("direwild"), ["demo"])
    return msgspec.to_builtins(content.get("boards", DEMO_BOARD))


def save_through_loader(saved: list[Any]):
    """What the pack editor's saving does, until it is merged: the board goes through
    the content loader and the game's checks, and whatever they find comes back."""
    from companion.content.pack import ContentError
    from companion.content.yamlines import load_text
    from companion.games import get_game, load_game_content

    def on_save(data: dict[str, Any]) -> list[Any]:
        assert data["id"] == "", "a new board leaves its id to the pack"
        data = {**data, "id": "direwild/board/our-redmill"}
        text = yaml.safe_dump({"boards": [data]}, sort_keys=False)
        try:
            content = load_game_content(get_game("direwild"), ["demo"], load_text(text, "mine"))
        except ContentError as exc:
            return exc.problems
        saved.append(content.get("boards", data["id"]))
        return []

    return on_save


class BoardEditorCase(KivyTestCase):
    """The editor alone in the window, touched as a player would; touches are counted."""

    def setUp(self) -> None:
        super().setUp()
        self.editor: Any = None
        self.finger: BoardFinger

    def tearDown(self, fake: bool = False) -> None:
        if not fake and self.editor is not None:
            self.Window.remove_widget(self.editor)
        super().tearDown(fake)

    def open_editor(self, board=None, on_save=None, size=LANDSCAPE) -> Any:
        from companion.ui.editor.board_editor import BoardEditor

        self.editor = BoardEditor(board, on_save)
        self.finger = BoardFinger(self, self.editor)
        self.resize(size)
        self.render(self.editor)
        self.frames(3)
        return self.editor

    def root(self) -> Any:
        return self.editor

    def where(self) -> str:
        return "the board editor"

    @property
    def canvas(self) -> Any:
        return self.editor.ids.canvas

    def problem_words(self) -> list[str]:
        return [w.text for w in self.editor.ids.problems.children[::-1]]


class TestEnteringTheDemoBoard(BoardEditorCase):
    def test_the_demo_board_from_nothing_by_touch_matches_its_file_and_saves(self) -> None:
        demo = demo_board()
        saved: list[Any] = []
        editor = self.open_editor(None, save_through_loader(saved))
        assert editor.ids.undo.disabled

        enter_board(self.finger, demo)  # the only keyboard: the name

        data = editor.draft.as_dict()
        for key in ("name", "land", "size", "entrance", "altar", "combat_square"):
            assert data[key] == demo[key], key
        for key in ("spawns", "treasures", "walls", "trails"):
            assert data[key] == demo[key], key
        assert self.problem_words() == ["The board check finds nothing wrong."]
        assert self.canvas.problems == []

        self.finger.press("Save board")
        assert len(saved) == 1, editor.status
        board = msgspec.to_builtins(saved[0])
        assert {k: v for k, v in board.items() if k not in ("id", "demo")} == {
            k: v for k, v in demo.items() if k not in ("id", "demo")
        }
        assert editor.status == f"Saved {demo['name']}."
        out = os.environ.get("BOARD_TAPS")
        if out:
            Path(out).write_text(json.dumps({"demo_board_touches": self.finger.touches}))
        print(f"touches to enter the demo board: {self.finger.touches}")


class TestProblemsOnTheBoard(BoardEditorCase):
    def test_a_wall_across_a_trail_is_marked_on_its_edge_and_said(self) -> None:
        self.open_editor(demo_board())
        assert self.problem_words() == ["The board check finds nothing wrong."]
        self.finger.tap_edge("C2", "D2")  # walls is the tool the editor opens with
        assert self.canvas.problems[0].edges == (("C2", "D2"),)
        assert self.problem_words() == [
            "1 to fix (marked ! on the board):",
            "Red trail crosses the wall between C2 and D2.",
        ]
        assert warn_pixels_near(self, "C2", "D2") > 20
        assert warn_pixels_near(self, "H2", "H2") == 0
        self.shoot("editor/board-problem")

    def test_a_trail_that_leaves_the_board_and_an_entrance_inside_it(self) -> None:
        editor = self.open_editor(demo_board())
        self.finger.press("Entrance")
        self.finger.tap_square("F6")
        self.tap(editor.ids.cols_less)
        self.tap(editor.ids.cols_less)  # 10 columns: K and L fall off
        words = self.problem_words()
        assert "Entrance lists 5 squares; the staging area meets 4." in words
        assert "Entrance square F6 is not on the edge of the board." in words
        assert any(w.startswith("Blue trail step K2 is off the board") for w in words), words
        assert any(w.startswith("Treasure L6 is off the board") for w in words), words
        marked = {sq for p in self.canvas.problems for sq in p.squares}
        assert "F6" in marked and {"E12", "F12", "G12", "H12"} <= marked
        assert warn_pixels_near(self, "F6", "F6") > 20

    def test_an_empty_board_says_what_is_missing_and_a_short_trail_is_marked(self) -> None:
        editor = self.open_editor()
        assert self.problem_words()[1:] == [
            "Entrance lists 0 squares; the staging area meets 4.",
            "Altar is not placed yet.",
        ]
        self.finger.press("Trails")
        self.finger.press("Green")
        self.finger.trace(["C3", "C4", "C5"])  # not a loop: the end is not next to the start
        assert editor.draft.data["trails"] == {"green": ["C3", "C4", "C5"]}
        assert "Green trail back to the start: C3 is not next to C5" in "\n".join(
            self.problem_words()
        )
        marked = {sq for p in self.canvas.problems for sq in p.squares}
        assert {"C3", "C5"} <= marked
        assert editor.colour == "black"  # the next colour with no trail yet
        self.finger.press("Spawns")
        assert editor.colour == "red"  # the first colour with no spawn yet
        self.finger.press("Green")
        self.finger.tap_square("H8")
        assert "Green spawn H8 is not on the green trail." in self.problem_words()


class TestSaving(BoardEditorCase):
    def test_saving_a_board_with_problems_names_them_from_the_pack_check(self) -> None:
        saved: list[Any] = []
        editor = self.open_editor(None, save_through_loader(saved))
        self.finger.press("Save board")
        assert saved == []
        assert editor.status.startswith("Kept as a draft until these are fixed: ")
        assert "altar is not placed yet" in editor.status
        assert "entrance lists 0 squares; the staging area meets 4" in editor.status


class TestTracing(BoardEditorCase):
    def test_going_back_over_a_square_takes_that_step_back_and_a_tap_takes_the_trail_away(
        self,
    ) -> None:
        editor = self.open_editor(demo_board())
        self.finger.press("Trails")
        self.finger.press("Blue")
        # the finger overshoots to I3 and comes back; the loop is closed on its start
        self.finger.trace(["K2", "K3", "K4", "J4", "I4", "I3", "I4", "I3", "I2", "J2", "K2"])
        assert editor.draft.data["trails"]["blue"] == [
            "K2", "K3", "K4", "J4", "I4", "I3", "I2", "J2",
        ]  # fmt: skip
        self.finger.press("Blue")
        self.finger.trace(["K2", "K3", "K4", "J4", "J3", "J4"])  # a step taken and taken back
        assert editor.draft.data["trails"]["blue"] == ["K2", "K3", "K4", "J4"]
        assert "Blue trail back to the start: K2 is not next to J4" in "\n".join(
            self.problem_words()
        )
        self.finger.press("Blue")
        self.finger.tap_square("K2")
        assert "blue" not in editor.draft.data["trails"]
        assert editor.status == "Blue trail removed."
        assert "Blue spawn K2 is not on the blue trail" not in "\n".join(self.problem_words())


class TestUndo(BoardEditorCase):
    def test_undo_takes_back_the_last_edit_only(self) -> None:
        editor = self.open_editor()
        self.finger.tap_edge("A1", "B1")
        self.finger.tap_edge("A1", "A2")
        assert editor.draft.data["walls"] == ["A1|B1", "A1/A2"]
        self.finger.press("Trails")
        self.finger.trace(["E5", "F5", "F6", "E6"])
        self.finger.press("Red")
        self.finger.trace(["E5", "F5", "G5", "G6", "F6", "E6"])  # traced again: replaces it
        assert editor.draft.data["trails"]["red"] == ["E5", "F5", "G5", "G6", "F6", "E6"]
        self.finger.press("Undo")
        assert editor.draft.data["trails"]["red"] == ["E5", "F5", "F6", "E6"]
        assert editor.status == "Undone: red trail traced through 6 squares."
        self.finger.press("Undo")
        self.finger.press("Undo")
        assert editor.draft.data["walls"] == ["A1|B1"] and editor.draft.data["trails"] == {}
        self.finger.press("Undo")
        assert editor.draft.data["walls"] == []
        assert editor.ids.undo.disabled

    def test_tapping_a_wall_again_takes_it_away_and_the_combat_square_stays_1_to_4(
        self,
    ) -> None:
        editor = self.open_editor(demo_board())
        self.touch_at(*self.finger.point("F5"))  # the middle of a square is no edge
        assert editor.status.startswith("No wall: tap nearer the line between F5")
        assert not editor.draft.can_undo
        self.touch_at(*self.finger.point("L6", dx=0.45))  # the board's rim: no wall goes there
        assert not editor.draft.can_undo
        self.finger.tap_edge("G5", "F5")  # the demo's F5|G5, touched from the other side
        assert "F5|G5" not in editor.draft.data["walls"]
        self.tap(editor.ids.combat_left)
        assert editor.draft.data["combat_square"] == {"left": 2, "up": 1, "right": 3, "down": 4}
        self.tap(editor.ids.combat_down)
        assert editor.draft.data["combat_square"] == {"left": 2, "up": 4, "right": 3, "down": 1}
        assert self.problem_words() == ["The board check finds nothing wrong."]
        self.tap(editor.ids.undo)
        self.tap(editor.ids.undo)
        self.tap(editor.ids.undo)
        assert editor.draft.as_dict() == demo_board()


class TestLooks(BoardEditorCase):
    def test_screenshots_portrait_landscape_and_largest_text(self) -> None:
        from companion.ui.style import style

        editor = self.open_editor(demo_board())
        self.finger.tap_edge("C2", "D2")
        self.finger.press("Trails")
        self.shoot("editor/board")
        from kivy.tests.common import UnitTestTouch

        finger = UnitTestTouch(*self.finger.point("F10"))  # a trail half traced, finger still down
        self.as_main_loop(finger.touch_down)
        for sq in ("G10", "H10", "H11"):
            self.as_main_loop(lambda sq=sq: finger.touch_move(*self.finger.point(sq)))
        self.shoot("editor/board-tracing", both=False)
        assert self.canvas.stroke == ["F10", "G10", "H10", "H11"]
        self.as_main_loop(finger.touch_up)
        self.finger.press("Undo")  # that red trail was only for the picture
        editor.ids.scroller.scroll_y = 0  # the name, land, size and combat square below
        self.shoot("editor/board-details")
        editor.ids.scroller.scroll_y = 1
        before = style.font_scale
        style.font_scale = 1.8
        try:
            self.frames(3)
            self.shoot("editor/board-largest")
            self.resize(PORTRAIT)
            # at Largest text the tools still fit beside or under the board, a finger wide
            for key in ("undo", "save", "cols_more", "combat_up"):
                assert editor.ids[key].height >= 64
            assert self.canvas.touch_cell_size() >= 48
        finally:
            style.font_scale = before
        assert (ARTIFACTS / "editor" / "board-largest-portrait.png").exists()


def warn_pixels_near(case: BoardEditorCase, a: str, b: str) -> int:
    """How many pixels drawn in the warning colour lie in the squares `a` and `b` (as the
    window shows them now)."""
    from PIL import Image

    from companion.ui.style import style

    path = case.shoot("editor/board-check", both=False)[0]
    image = Image.open(path).convert("RGB")
    width, height = image.size
    size = case.canvas.touch_cell_size()
    warn = tuple(int(v * 255) for v in style.warn[:3])
    found = 0
    (ax, ay), (bx, by) = case.finger.point(a), case.finger.point(b)
    left, right = min(ax, bx) - size / 2, max(ax, bx) + size / 2
    low, high = min(ay, by) - size / 2, max(ay, by) + size / 2
    for x in range(int(left), int(right)):
        for y in range(int(low), int(high)):
            px = image.getpixel((x, height - 1 - y))
            if all(abs(p - w) < 24 for p, w in zip(px, warn, strict=True)):
                found += 1
    return found
