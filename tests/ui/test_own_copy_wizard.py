"""own_pack (issue 24): the group's copy over the demo, at the wizard and from the terminal.

A group pack holding a boss under a new id but the demo's Level 1 boss's name (their
printed card's HP) takes that boss's place: a story game started by touch in the wizard,
and one started with `companion new kradia`, face the group's HP.  A Level 1 boss of the
group's with a name of its own is offered in story mode (first, and picked by default),
and picked by touch it is the boss faced, the sequence going on after it.  The wizard
says which cards come from the group's copy; the home screen counts the cards checked
against it and lists the others by name.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from companion.core import workshop
from tests.ui.kivyharness import AppTestCase

pytestmark = [pytest.mark.ui, pytest.mark.own_pack]

KRADIA = "Kradia: Wild Hunt Festival"
OURS = "Our copy"
COMPANION = Path(sys.executable).parent / "companion"


def demo_opener() -> dict[str, Any]:
    """The demo's story sequence 1 Level 1 boss, as its file holds it (found, not named)."""
    (sequence, *_rest) = workshop.cards("kradia", "demo", "story_sequences")
    return next(
        b for b in workshop.cards("kradia", "demo", "bosses") if b["id"] == sequence["bosses"][0]
    )


def our_boss(base: dict[str, Any], name: str, hp: int) -> dict[str, Any]:
    """`base` as the group's printed card: their id, `name`, `hp`, no demo mark."""
    card = {k: v for k, v in base.items() if k != "demo"}
    return {
        **card,
        "id": workshop.new_card_id("kradia", "bosses", f"our {name}"),
        "name": name,
        "hp": hp,
    }


def make_our_copy(*bosses: dict[str, Any]) -> None:
    workshop.new_pack("kradia", OURS)
    slug = workshop.slugify(OURS)
    for boss in bosses:
        problems = workshop.save_card("kradia", slug, "bosses", boss)
        assert problems == [], problems


def cli(*args: str) -> subprocess.CompletedProcess:
    command = [str(COMPANION)] if COMPANION.exists() else [sys.executable, "-m", "companion"]
    return subprocess.run(
        [*command, *args], capture_output=True, text=True, env=dict(os.environ), timeout=120
    )


class TestOwnCopyWizard(AppTestCase):
    def open_kradia_wizard(self) -> Any:
        app = self.start_app()
        self.tap("New game")
        self.tap(KRADIA)
        return app.screen("new")

    def toggle(self, wizard: Any, option: str, text: str) -> Any:
        row = next(r for r in wizard.ids.options.children if r.option["name"] == option)
        return self.find(text, within=row.ids.choices)

    def test_a_boss_named_like_the_demos_is_fought_with_the_groups_hp(self) -> None:
        opener = demo_opener()
        hp = opener["hp"] - 2  # fewer HP stay inside the card's dice bands
        mine = our_boss(opener, opener["name"], hp)
        assert mine["id"] != opener["id"]
        make_our_copy(mine)

        wizard = self.open_kradia_wizard()
        # the group's pack is chosen with the demo by default, and the wizard says so
        assert wizard.chosen_packs() == ["demo", workshop.slugify(OURS)]
        line = wizard.ids.from_where.text
        assert f"Your copy '{OURS}': 1 card over the demo ({opener['name']})" in line, line
        assert "the rest from Demo cards" in line and mine["id"] not in line
        # a copy over the demo is not a new boss: the story starts with the sequence's
        assert self.toggle(wizard, "story_boss", "The sequence's own").state == "down"
        self.scroll_into_view(wizard.ids.from_where)
        self.shoot("own-copy-wizard-kradia")
        self.tap("Start the game", within=wizard)
        assert self.app.root.current == "session", wizard.ids.notice.text
        boss = self.app.session.state.boss
        assert (boss.id, boss.max_hp, boss.hp) == (opener["id"], hp, hp)

        # the same from the terminal, in the same user data folder
        self.stop_app()
        made = cli("new", "kradia")
        assert made.returncode == 0, made.stderr
        shown = cli("state", "--json")
        assert shown.returncode == 0, shown.stderr
        state = json.loads(shown.stdout)
        state = state.get("state", state)
        assert (state["boss"]["id"], state["boss"]["max_hp"]) == (opener["id"], hp)

    def test_the_groups_own_level_1_boss_is_offered_and_faced_when_picked(self) -> None:
        from companion.ui.style import style

        opener = demo_opener()
        thornback = our_boss(opener, "Thornback", opener["hp"] - 1)
        make_our_copy(thornback)

        wizard = self.open_kradia_wizard()
        row = next(r for r in wizard.ids.options.children if r.option["name"] == "story_boss")
        names = [b.text for b in reversed(row.ids.choices.children)]
        # by name, never an id; the sequence's own, then the group's, then the demo's
        assert names[:3] == ["The sequence's own", "Thornback", opener["name"]], names
        assert not any("/" in n for n in names)
        assert self.toggle(wizard, "story_boss", "Thornback").state == "down"  # the default
        line = wizard.ids.from_where.text
        assert f"Your copy '{OURS}': 1 of your own (Thornback)" in line, line
        before, style.font_scale = style.font_scale, 1.8  # the largest text setting
        try:
            self.scroll_into_view(row)
            self.shoot("own-copy-wizard-story-boss-largest")
        finally:
            style.font_scale = before
        # picked by touch (after changing one's mind): the boss faced, the story going on
        self.tap(self.toggle(wizard, "story_boss", "The sequence's own"))
        self.tap(self.toggle(wizard, "story_boss", "Thornback"))
        self.tap("Start the game", within=wizard)
        assert self.app.root.current == "session", wizard.ids.notice.text
        state = self.app.session.state
        assert (state.boss.id, state.boss.max_hp) == (thornback["id"], thornback["hp"])
        first_sequence = workshop.cards("kradia", "demo", "story_sequences")[0]["id"]
        assert state.level == 1 and state.sequence == first_sequence

        # `companion new kradia` faces it too (no more quietly the demo's boss)
        self.stop_app()
        made = cli("new", "kradia")
        assert made.returncode == 0, made.stderr
        state_json = json.loads(cli("state", "--json").stdout)
        state_json = state_json.get("state", state_json)
        assert state_json["boss"]["id"] == thornback["id"]
        assert state_json["sequence"] == first_sequence

    def test_the_sequences_own_boss_when_the_table_says_so(self) -> None:
        opener = demo_opener()
        make_our_copy(our_boss(opener, "Thornback", opener["hp"] - 1))
        wizard = self.open_kradia_wizard()
        self.tap(self.toggle(wizard, "story_boss", "The sequence's own"))
        self.tap("Start the game", within=wizard)
        assert self.app.root.current == "session", wizard.ids.notice.text
        assert self.app.session.state.boss.id == opener["id"]


class TestCheckedOnHome(AppTestCase):
    def test_home_counts_the_cards_checked_and_lists_the_others_by_name(self) -> None:
        from companion.games import get_game, load_game_content
        from companion.ui.screens.home import UncheckedPopup
        from companion.ui.style import style
        from tests.ui.kivyharness import walk

        opener = demo_opener()
        make_our_copy(our_boss(opener, opener["name"], opener["hp"] - 2))
        game = get_game("kradia")
        content = load_game_content(game, ["demo", workshop.slugify(OURS)])
        played = [c for k in game.content_kinds for c in content.all(k)]
        checked = [c for c in played if content.checked(c.id)]
        assert opener["id"] in [c.id for c in checked]

        app = self.start_app()
        home = app.screen("home")
        self.frames(5)
        words = f"{len(checked)} of {len(played)} cards checked against your copy"
        row = next((w for w in walk(home.ids.packs) if words in getattr(w, "text", "")), None)
        assert row is not None, [getattr(w, "text", "") for w in walk(home.ids.packs)]
        before, style.font_scale = style.font_scale, 1.8
        try:
            self.shoot("home-checked-largest")
            self.tap(f"See the {len(played) - len(checked)} not yet checked")
            popup = next(w for w in self.Window.children if isinstance(w, UncheckedPopup))
            shown = [getattr(w, "text", "") for w in reversed(popup.ids.cards.children)]
            assert any(t.startswith("[b]Bosses[/b]") for t in shown), shown
            unchecked = [c for c in played if not content.checked(c.id)]
            text = "\n".join(shown)
            assert all(c.title in text for c in unchecked), text
            assert opener["name"] not in text and "kradia/" not in text  # names, never ids
            self.shoot("home-unchecked-largest")
            self.tap("Close", within=popup)
        finally:
            style.font_scale = before
