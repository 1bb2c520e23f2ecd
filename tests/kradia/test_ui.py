"""The Kradia view, headless under SDL offscreen: it renders, shows only legal actions,
and a real touch on a button sends the command to the session."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from kivy.tests.common import GraphicUnitTest, UnitTestTouch

from tests.kradia.helpers import new_session

pytestmark = pytest.mark.ui


def walk(widget):
    yield widget
    for child in widget.children:
        yield from walk(child)


class KradiaViewTest(GraphicUnitTest):
    def setUp(self) -> None:
        super().setUp()
        from kivy.base import EventLoop

        EventLoop.postproc_modules = [
            m
            for m in EventLoop.postproc_modules
            if type(m).__name__
            not in ("InputPostprocRetainTouch", "InputPostprocDoubleTap", "InputPostprocTripleTap")
        ]
        self.tmp = Path(tempfile.mkdtemp(prefix="kradia-ui-"))
        self.session = new_session(self.tmp, items={"oakla": ["potion"]})
        from companion.ui.games.kradia import build_view

        self.Window.size = (1280, 800)
        self.view = build_view(self.session)
        self.render(self.view)

    def tearDown(self, fake: bool = False) -> None:
        self.session.close()
        super().tearDown(fake)

    def button(self, text: str):
        found = [
            w for w in walk(self.view) if getattr(w, "command", None) is not None and w.text == text
        ]
        assert found, (
            f"no button {text!r}: {[getattr(w, 'text', '') for w in walk(self.view) if hasattr(w, 'command')]}"
        )
        return found[0]

    def tap(self, widget) -> None:
        x, y = widget.to_window(*widget.center)
        touch = UnitTestTouch(x, y)
        touch.touch_down()
        self.advance_frames(1)
        touch.touch_up()
        self.advance_frames(2)

    def test_renders_the_table_to_a_png(self) -> None:
        self.advance_frames(3)
        path = self.tmp / "kradia.png"
        self.view.export_to_png(str(path))
        from kivy.core.image import Image as CoreImage

        image = CoreImage(str(path), keep_data=True)
        data = image.image._data[0].data
        colours = {bytes(data[i : i + 3]) for i in range(0, len(data) - 4, 4 * 97)}
        assert len(colours) > 5, "the screenshot looks blank"
        texts = [getattr(w, "text", "") for w in walk(self.view)]
        assert "HP 12/12   2 dice" in texts
        assert "Oakla  Lv1  [1st]" in texts

    def test_touches_play_a_turn(self) -> None:
        self.tap(self.button("Start round 1"))
        assert self.session.request is not None and self.session.request.kind == "draw"
        self.session.answer("kradia/battlefield-card/moon")
        self.view.refresh()
        self.advance_frames(2)
        assert self.button("Charge Attack").disabled  # Moon I forbids Charge Attacks
        assert self.button("Pass").disabled
        self.tap(self.button("Pass"))
        assert self.session.state.turn == "oakla"
        self.tap(self.button("Basic Attack"))
        assert self.session.state.boss.hp == 11
        # Oakla holds a Potion, so her turn stays open for Item cards until she ends it.
        assert self.session.state.turn == "oakla" and self.session.state.turn_done
        assert not any(getattr(w, "text", "") == "Basic Attack" for w in walk(self.view))
        self.tap(self.button("End turn"))
        assert self.session.state.turn == "warden"

    def test_item_aimed_at_a_hero_and_charge_choices(self) -> None:
        self.session.do("start_round", {"card": "kradia/battlefield-card/sun"})
        self.session.correct("heroes.warden.hp", 5)
        self.view.refresh()
        self.advance_frames(2)
        self.tap(self.button("Item: Potion"))
        self.tap(self.button("Warden"))
        assert self.session.state.heroes["warden"].hp == 8
        self.tap(self.button("Charge Attack"))
        self.session.answer([4])
        self.view.refresh()
        self.advance_frames(2)
        assert not any(getattr(w, "text", "") == "#6" for w in walk(self.view))
        self.tap(self.button("#4"))
        assert self.session.state.boss.hp == 10
        assert self.session.state.turn == "warden"

    def test_retainer_and_level3_resupply_by_touch(self) -> None:
        self.tap(self.button("Retainer: Falconer"))
        assert self.session.state.boss.hp == 9
        assert "kradia/retainer/falconer" not in self.session.state.retainers
        self.session.do("start_round", {"card": "kradia/battlefield-card/sun"})
        self.session.correct("level", 2)
        self.session.correct("boss.hp", 1)
        self.session.do("basic_attack", {"hero": "oakla"})
        assert self.session.state.outcome == "boss_defeated"
        self.view.refresh()
        self.advance_frames(2)
        self.tap(self.button("Warden: Guardian"))
        self.tap(self.button("Warden: Avenger"))  # turned over, then back is one more tap
        self.tap(self.button("Resupply to Level 3"))
        request = self.session.request
        assert request is not None and request.deck == "items"
        for _ in range(4):
            self.session.answer(self.session.request.options[0])
        heroes = self.session.state.heroes
        assert heroes["warden"].level3_side == "guardian"
        assert heroes["oakla"].level3_side == "bloom"
        assert self.session.state.boss.id == "kradia/boss/stone-wyrm"
