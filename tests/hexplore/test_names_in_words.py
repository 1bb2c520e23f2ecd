"""The log and the result card name HEXplore's heroes and allies, never their pack ids.

Why: a hero comes from a content pack by id ('verdant-keeper'); the events keep the id (it
is what the rules look up), and the words said at the table are built from the events, so
the game gives the session each id's name to say (issue 12: names, never ids).
"""

from __future__ import annotations

import re
from pathlib import Path

from companion.core.selfplay import play
from companion.core.session import Session
from companion.games import get_game
from tests.hexplore.setups import TWO_HEROES


def lines_of(session: Session) -> list[str]:
    return [session.describe(row) for tx in session.history() for row in tx]


def test_a_played_game_says_names_where_the_events_hold_ids(tmp_path: Path) -> None:
    game = get_game("hexplore")
    with Session.create(tmp_path / "g.session", game, {}, ["demo"]) as session:
        play(session, seed=3, steps=300)
        heroes = session.state.heroes
        lines = [line for line in lines_of(session) if line]
        ids = {hid for hid, hero in heroes.items() if hero.name and hero.name != hid}
        assert ids, "the demo heroes have ids that are not their names"
        said = "\n".join(lines)
        for hid in ids:
            assert not re.search(rf"(?<![\w-]){re.escape(hid)}(?![\w-])", said), hid
        # and the names are there instead: every hero is named in the game's words
        for hero in heroes.values():
            assert hero.name in said, hero.name
        # the opponent's role is said in words, never as the bare key the events use
        assert not re.search(r"(?m)^opponent\b", said)
        assert "The opponent: health" in said


def test_the_events_keep_the_ids_and_the_fold_is_unchanged(tmp_path: Path) -> None:
    game = get_game("hexplore")
    with Session.create(tmp_path / "g.session", game, {}, ["demo"]) as session:
        play(session, seed=3, steps=120)
        stored = [row.data for tx in session.history() for row in tx]
        text = repr(stored)
        assert any(hid in text for hid in session.state.heroes)  # ids kept in the log
        state = session.state
    with Session.open(tmp_path / "g.session") as again:
        assert again.state == state


def test_names_replace_only_whole_ids() -> None:
    from companion.core.tables import named

    names = {"verdant-keeper": "Verdant Keeper"}
    data = {
        "hero": "verdant-keeper",
        "targets": ["verdant-keeper", "stormcaller"],
        "hits": {"verdant-keeper": 3},
        "why": "verdant-keeper's turn",
        "roll": 4,
    }
    assert named(data, names) == {
        "hero": "Verdant Keeper",
        "targets": ["Verdant Keeper", "stormcaller"],
        "hits": {"Verdant Keeper": 3},
        "why": "verdant-keeper's turn",  # words are not searched, only whole values
        "roll": 4,
    }


def test_a_second_opponent_is_named_in_the_log(tmp_path: Path) -> None:
    """Issue 14: the events say opponent2; the log says the second opponent (a role in a
    combat: the log holds every combat's lines, so not today's second opponent's name)."""
    game = get_game("hexplore")
    with Session.create(tmp_path / "g.session", game, TWO_HEROES, ["demo"]) as session:
        session.do("start_combat", {"opponent": "giant-fox"})
        session.do("add_opponent", {"opponent": "grove-lynx"})
        session.do("declare", {"hero": "a", "action": "attack", "foe": "opponent2"})
        session.do("declare", {"hero": "b", "action": "attack"})
        session.do("opponent_action", {})
        for face in (2, 9, 2, 1):  # a was attacked, so the Lynx attacks b (ruling 47)
            session.answer([face])
        said = "\n".join(line for line in lines_of(session) if line)
        assert "Grove Lynx joins the combat" in said
        assert "A declares attack 4 health at the second opponent" in said
        assert "The second opponent's Action die 1: attack against b" in said
        assert not re.search(r"\bopponent2\b", said)
