"""Every theme reaches every view (issue 12): in the light theme the game views are light
too, not dark islands in a light frame, and their text stays dark on it."""

from __future__ import annotations

import pytest

from tests.ui.kivyharness import AppTestCase

pytestmark = pytest.mark.ui


def luminance(rgba) -> float:
    r, g, b = rgba[:3]
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def background_luminance(case: AppTestCase, widget) -> float:
    """The luminance (0 black .. 1 white) of the colour drawn most over `widget`'s area:
    its background (drawn things, a track or a card, keep their own colours)."""
    from collections import Counter

    from kivy.core.image import Image as CoreImage

    [path] = case.shoot(f"theme-light-{case.app.session.game.id}", both=False)
    image = CoreImage(str(path), keep_data=True)
    data = image.image._data[0]
    width, height = data.width, data.height
    x0, y0 = (int(v) for v in widget.to_window(*widget.pos))
    x1, y1 = x0 + int(widget.width), y0 + int(widget.height)
    seen: Counter[bytes] = Counter()
    for y in range(max(0, y0), min(height, y1), 5):
        row = height - 1 - y  # the PNG's first row is the window's top
        for x in range(max(0, x0), min(width, x1), 5):
            i = (row * width + x) * 4
            seen[bytes(data.data[i : i + 3])] += 1
    colour = seen.most_common(1)[0][0]
    return luminance([c / 255 for c in colour])


class TestLightTheme(AppTestCase):
    def check(self, game_id: str, strip: str = "") -> None:
        """`strip`: the view's widget whose background is measured (the whole view's
        most drawn colour, unless the view is mostly a board of its own colours)."""
        from companion.games import get_game
        from companion.ui.games.readable import GameText
        from tests.ui.kivyharness import walk

        app = self.start_app()
        app.settings.theme = "light"
        app.apply_settings()
        app.start_session(get_game(game_id), {}, ["demo"])
        self.frames(4)
        view = app.screen("session").view
        where = view.ids[strip] if strip else view
        assert where.height > 1, f"nothing shows on the {game_id} view's {strip}"
        assert background_luminance(self, where) > 0.8, (
            f"the {game_id} view is dark in the light theme"
        )
        plain = [w for w in walk(view) if type(w) is GameText and w.text]
        dark = [w for w in plain if luminance(w.color) < 0.5]
        assert plain and len(dark) > len(plain) / 2, "the view's words are light on light"

    def test_kradia(self) -> None:
        self.check("kradia")

    def test_hexplore(self) -> None:
        self.check("hexplore")

    def test_direwild(self) -> None:
        """The strip around the board (the words over it, the board's coordinates) is the
        theme's: in the light theme it was dark with yellow words (issue 25)."""
        self.check("direwild", strip="request")
