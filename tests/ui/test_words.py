"""The small pieces the screens are built from: settings that survive a damaged file, the
last-activity wording, and the state in words."""

from __future__ import annotations

import json
from datetime import datetime

from companion.ui.panels.corrections import leaves, path_words
from companion.ui.panels.state import render_value
from companion.ui.screens.home import when
from companion.ui.settings import UserSettings


def test_damaged_settings_fall_back_to_defaults(tmp_path):
    path = tmp_path / "settings.json"
    path.write_text("{not json")
    assert UserSettings.load(path) == UserSettings()
    path.write_text(
        json.dumps(
            {
                "theme": "purple",
                "text_size": 3,
                "camera": 1,
                "unknown": True,
                "packs": {"tiny": ["demo", "house"]},
            }
        )
    )
    s = UserSettings.load(path)
    assert (s.theme, s.text_size, s.camera) == ("dark", "Normal", 1)
    assert s.packs_for("tiny") == ["demo", "house"] and s.packs_for("kradia") == ["demo"]


def test_settings_round_trip(tmp_path):
    path = tmp_path / "settings.json"
    s = UserSettings(theme="light", text_size="Larger", packs={"tiny": ["demo", "extra"]})
    s.save(path)
    assert UserSettings.load(path) == s
    # settings from before dice assignments moved to the sessions still load
    path.write_text(path.read_text().replace('"packs"', '"dice": {"d6": ["tray:1"]}, "packs"'))
    assert UserSettings.load(path) == s
    assert not list(tmp_path.glob("*.tmp"))


def test_last_activity_in_words():
    now = datetime(2026, 11, 30, 21, 0).timestamp()
    assert when(now - 5, now) == "just now"
    assert when(now - 600, now) == "10 min ago"
    assert when(datetime(2026, 11, 30, 18, 5).timestamp(), now) == "today 18:05"
    assert when(datetime(2026, 11, 24, 18, 5).timestamp(), now) == "Tue 24 Nov 18:05"


def test_state_in_words():
    lines = render_value(
        {
            "hero_hp": 3,
            "ailments": [],
            "bosses": {"ogre": {"hp": 9}},
            "alive": True,
            "deck": ["a", "b"],
        }
    )
    assert lines == [
        "[b]Hero hp[/b]: 3",
        "[b]Ailments[/b]: (none)",
        "[b]Bosses[/b]",
        "    [b]Ogre[/b]",
        "        [b]Hp[/b]: 9",
        "[b]Alive[/b]: yes",
        "[b]Deck[/b]: a, b",
    ]


def test_correctable_values_and_their_names():
    state = {"enemies": {"red": {"stamina": 2}}, "hand": ["x"], "round": 1}
    assert leaves(state) == [("enemies.red.stamina", 2), ("hand.0", "x"), ("round", 1)]
    assert path_words("enemies.red.stamina") == "Enemies > Red > Stamina"
    assert path_words("hand.0") == "Hand > 1st"
    assert (
        path_words("heroes.oakla.hp", {"oakla": "Oakla the Bold"}) == "Heroes > Oakla the Bold > Hp"
    )


def test_state_text_cannot_inject_markup():
    assert render_value({"note": "[b]x[/b]"}) == ["[b]Note[/b]: &bl;b&br;x&bl;/b&br;"]


def test_shared_widgets_work_without_an_app():
    """Game helpers build their views in tests with no app running."""
    from companion.ui.style import style
    from companion.ui.widgets import BigButton, Body

    button, body = BigButton(text="Roll"), Body(text="Score 3")
    assert list(button.background_color) == list(style.button)
    assert list(body.color) == list(style.fg)


def test_the_fix_panel_names_heroes_and_phases_as_the_table_does(tmp_path):
    """'Players > #1: stormbringer', 'Phase: setup' were the Fix panel's words (issue 25):
    a hero by its name, a phase as the rulebook names it, asked of the rules."""
    from companion.core.session import Session
    from companion.games import get_game
    from companion.ui.panels.choices import text_choices, value_name

    session = Session.create(tmp_path / "d.session", get_game("direwild"), {})
    state, names, game = session.to_json(), dict(session.names()), session.game
    first = state["players"][0]
    shown = value_name(first, "players.0", state, session.content, names, game)
    assert shown == first.title() and shown != first
    assert path_words("players.0", names) == "Players > 1st"
    assert value_name("setup", "phase", state, session.content, names, game) == "Set-up"
    assert value_name("adventure", "phase", state, session.content, names, game) == (
        "Adventure Phase (the heroes' turns)"
    )
    # the phase is picked among the rulebook's phases, by their names
    picks = dict(text_choices(state, "phase", session.content, game, names))
    assert picks["game"].startswith("Game Phase") and "setup" in picks
    session.close()


def test_the_fix_panel_says_a_field_as_the_rulebook_does(tmp_path):
    """The Fix panel read "Heroes > Oakla > Hp", the code's spelling: it asks the game for
    the rulebook's word for a field ("HP", "Red Mana"), and still names the hero."""
    from companion.core.session import Session
    from companion.games import get_game
    from companion.ui.panels.corrections import CorrectionsPanel

    setup = {"mode": "story", "heroes": ["oakla", "warden", "archer", "mystic"], "sequence": 1}
    session = Session.create(tmp_path / "k.session", get_game("kradia"), setup)
    panel = CorrectionsPanel()
    panel.refresh(session)
    rows = [row["text"] for row in panel.ids.value_list.data]
    session.close()
    assert any(text.startswith("Heroes > Oakla > HP:") for text in rows), rows[:8]
    assert any("> Red Mana:" in text for text in rows)
    assert not any(text.split(":")[0].endswith(("> Hp", "> Red")) for text in rows)
