"""`companion direwild board`: the board file as text, with a session's units on it."""

from __future__ import annotations

from companion.cli import main
from companion.core.library import Library
from companion.games import get_game


def test_board_listing_and_drawing(capsys):
    assert main(["direwild", "board"]) == 0
    assert "redmill-fields" in capsys.readouterr().out
    assert main(["direwild", "board", "redmill-fields"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].endswith("(12x12, combat square 1 left, 2 up, 3 right, 4 down)")
    row2 = next(line for line in out if line.startswith("  2 "))
    assert row2.split()[2] == "R>."  # red spawn on B2, its trail heading right
    row5 = next(line for line in out if line.startswith("  5 "))
    assert "...|..." in row5  # the wall F5|G5
    assert any(set(line.strip()) == {"-", " "} for line in out)  # C6/C7 and friends


def test_board_with_a_sessions_units(capsys):
    lib = Library()
    s = lib.new(
        get_game("direwild"),
        {
            "players": ["stormbringer", "featherheart"],
            "minions": {"red": "inkling"},
            "heroes_at": {"stormbringer": "C5"},
        },
    )
    s.do("correct", {"path": "enemies.red.active", "value": True})
    sid = s.id
    s.close()
    assert main(["direwild", "board", "--session", sid]) == 0
    out = capsys.readouterr().out.splitlines()
    row5 = next(line for line in out if line.startswith("  5 "))
    assert row5.split()[3] == "ST."
    row2 = next(line for line in out if line.startswith("  2 "))
    assert row2.split()[2] == "r!R"


def test_unknown_board_is_refused_in_words(capsys):
    assert main(["direwild", "board", "moon"]) == 2
    assert "no board 'moon'" in capsys.readouterr().err
