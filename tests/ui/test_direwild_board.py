"""The Direwild board read by players with red-green colour blindness (issue 12).

Why: no two units may be told apart by hue alone.  The board is drawn with every kind of
piece on it, the screenshot is passed through Machado, Oliveira and Fernandes' (2009)
simulation of deuteranopia and protanopia, and each piece's square must still look unlike
every other's (shape, initials and lightness carry what the hue no longer does).  The
simulated screenshots land beside the round's in artifacts/ui/rounds/direwild/, to look at.
"""

from __future__ import annotations

from itertools import combinations
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from tests.ui.kivyharness import ARTIFACTS, ViewTestCase

pytestmark = pytest.mark.ui

# Machado et al. 2009, severity 1.0, on linear RGB
CVD = {
    "deuteranopia": np.array(
        [
            [0.367322, 0.860646, -0.227968],
            [0.280085, 0.672501, 0.047413],
            [-0.011820, 0.042940, 0.968881],
        ]
    ),
    "protanopia": np.array(
        [
            [0.152286, 1.052583, -0.204868],
            [0.114503, 0.786281, 0.099216],
            [-0.003882, -0.048116, 1.051998],
        ]
    ),
}
PLACES = {
    "stormbringer": "C5",
    "shadowleaf": "E5",
    "groundbreaker": "G5",
    "featherheart": "I5",
    "red": "C9",
    "blue": "E9",
    "green": "G9",
    "black": "I9",
    "karn": "K7",
}


def simulate(rgb: np.ndarray, kind: str) -> np.ndarray:
    """An sRGB image (0..1) as a viewer with `kind` sees it, in sRGB."""
    lin = np.where(rgb <= 0.04045, rgb / 12.92, ((rgb + 0.055) / 1.055) ** 2.4)
    seen = np.clip(lin @ CVD[kind].T, 0, 1)
    return np.where(seen <= 0.0031308, seen * 12.92, 1.055 * seen ** (1 / 2.4) - 0.055)


def colour_as_seen(colour: tuple[float, float, float], kind: str | None) -> np.ndarray:
    rgb = np.array([[colour]], dtype=float)
    return (simulate(rgb, kind) if kind else rgb)[0, 0]


class DirewildBoardColoursTest(ViewTestCase):
    game = "direwild"
    options = {
        "players": ["stormbringer", "shadowleaf", "groundbreaker", "featherheart"],
        "minions": {"red": "inkling", "blue": "chuddle", "green": "coatl", "black": "krorik"},
        "heroes_at": {h: PLACES[h] for h in ("stormbringer", "shadowleaf", "groundbreaker")},
    }

    def setUp(self) -> None:
        super().setUp()
        session = self.session
        session.correct("heroes.featherheart.position", PLACES["featherheart"])
        for slot in ("red", "blue", "green", "black"):
            session.correct(f"enemies.{slot}.position", PLACES[slot])
            session.correct(f"enemies.{slot}.active", slot != "black")  # one face down
        session.correct("karn.on_board", True)
        session.correct("karn.position", PLACES["karn"])
        self.refresh()

    def crops(self, image: np.ndarray) -> dict[str, np.ndarray]:
        """Each piece's square, cut from a window screenshot (rows counted from the top)."""
        board = self.view.ids.board
        half = int(board.touch_cell_size() * 0.45)
        out = {}
        for unit, square in PLACES.items():
            x, y = (int(v) for v in board.to_window(*board.centre(square)))
            row = image.shape[0] - y
            out[unit] = image[row - half : row + half, x - half : x + half]
        return out

    def test_no_two_pieces_look_alike_to_colour_blind_players(self) -> None:
        board = self.view.ids.board
        self.scroll_into_view(board)
        self.frames(3)
        folder = ARTIFACTS / "rounds" / "direwild"
        folder.mkdir(parents=True, exist_ok=True)
        shot = self.shoot("rounds/direwild/board-colours", both=False)[0]
        image = np.asarray(Image.open(shot).convert("RGB"), dtype=float) / 255
        assert image.shape[1::-1] == tuple(self.Window.size)
        seen = {"normal": image}
        for kind in CVD:
            seen[kind] = simulate(image, kind)
            out = Path(folder / f"board-colours-{kind}.png")
            Image.fromarray((seen[kind] * 255).round().astype("uint8")).save(out)
        for kind, picture in seen.items():
            crops = self.crops(picture)
            for a, b in combinations(crops, 2):
                differ = float(np.abs(crops[a] - crops[b]).mean())
                assert differ > 0.05, f"{a} and {b} look alike with {kind} vision ({differ:.3f})"

    def test_the_troublesome_pairs_differ_in_lightness_not_only_hue(self) -> None:
        from companion.ui.games.direwild.colours import CLAN_COLOURS, SLOT_COLOURS

        pairs = [
            (SLOT_COLOURS["green"], CLAN_COLOURS["shadowleaf"]),
            (SLOT_COLOURS["karn"], CLAN_COLOURS["stormbringer"]),
        ]
        for kind in (None, *CVD):
            for one, other in pairs:
                gap = np.linalg.norm(colour_as_seen(one, kind) - colour_as_seen(other, kind))
                assert gap > 0.35, (one, other, kind, gap)

    def test_every_piece_is_named_and_shaped_apart_from_its_kind(self) -> None:
        from companion.ui.games.direwild.pieces import SHAPES, pieces

        drawn = pieces(self.session.state, self.session.content)
        initials = [p.initials for p in drawn]
        assert all(i.isalpha() for i in initials) and len(set(initials)) == len(initials)
        names = {p.unit: p.initials for p in drawn}
        assert names["red"] == "In" and names["blue"] == "Ch" and names["karn"] == "K"
        minion_shapes = {SHAPES[s] for s in ("red", "blue", "green", "black")}
        assert len(minion_shapes) == 4 and SHAPES["hero"] not in minion_shapes
        assert SHAPES["karn"] not in minion_shapes | {SHAPES["hero"]}

    def test_board_text_is_as_large_as_the_apps(self) -> None:
        """The initials on the pieces and the track, drawn at each text size, are at least
        as tall as the view's own words at that size."""
        from companion.ui.games.direwild.pieces import text_px, text_texture
        from companion.ui.games.readable import GameText
        from companion.ui.settings import TEXT_SIZES
        from tests.ui.test_ergonomics import text_size

        for scale in TEXT_SIZES.values():
            with text_size(scale):
                words = GameText(text="St", bold=True)
                words.texture_update()
                assert text_px() >= words.font_size - 0.01
                assert text_texture("St", text_px()).height >= words.texture_size[1]
