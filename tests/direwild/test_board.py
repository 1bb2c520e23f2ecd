"""Board files: parsing, adjacency and the errors a player transcribing a board sees."""

from __future__ import annotations

import pytest

from companion.games.direwild.board import BoardError, build, check_board, parse_square
from companion.games.direwild.schema import Board


def board(**over) -> Board:
    base = dict(
        id="direwild/board/t",
        land="redmill",
        size="6x6",
        entrance=["B6", "C6", "D6", "E6"],
        altar="C3",
        combat_square={"left": 1, "up": 2, "right": 3, "down": 4},
        spawns={"red": "A1"},
        trails={"red": ["A1", "B1", "B2", "A2"]},
    )
    base.update(over)
    return Board(**base)


def test_squares_read_column_letter_then_row_from_top_left():
    assert parse_square("A1") == (0, 0)
    assert parse_square("c4") == (2, 3)
    with pytest.raises(BoardError, match="not a square"):
        parse_square("4C")


def test_a_wall_breaks_adjacency_both_ways():
    geo = build(board(walls=["C2|D2", "C3/C4"]))
    assert geo.adjacent("B2", "C2")
    assert not geo.adjacent("C2", "D2") and not geo.adjacent("D2", "C2")
    assert not geo.adjacent("C3", "C4")
    assert not geo.adjacent("B2", "C3")  # diagonal


def test_neighbours_come_in_combat_square_order():
    geo = build(board(combat_square={"down": 1, "right": 2, "up": 3, "left": 4}))
    assert [d for d, _ in geo.steps["C3"]] == ["down", "right", "up", "left"]


@pytest.mark.parametrize(
    ("over", "message"),
    [
        ({"walls": ["C1|C2"]}, "wall C1|C2: C1 and C2 are not side by side"),
        ({"walls": ["C1/D1"]}, "wall C1/D1: C1 and D1 are not stacked"),
        ({"walls": ["C1-D1"]}, "must be two squares joined by |"),
        ({"walls": ["F6|G6"]}, "off the board"),
        ({"trails": {"red": ["A1", "B1", "C2", "A2"]}}, "red trail step 3: C2 is not next to B1"),
        ({"trails": {"red": ["A1", "B1", "B2"]}}, "back to the start: A1 is not next to B2"),
        ({"walls": ["A1|B1"]}, "red trail crosses the wall between A1 and B1"),
        ({"spawns": {"red": "C3"}}, "red spawn C3 is not on the red trail"),
        ({"spawns": {"purple": "A1"}}, "spawn 'purple' is not a minion slot"),
        ({"entrance": ["B6", "C6", "C3", "E6"]}, "entrance square C3 is not on the edge"),
        ({"combat_square": {"left": 1, "up": 1, "right": 3, "down": 4}}, "different number 1-4"),
        ({"size": "twelve"}, "must be columns x rows"),
    ],
)
def test_board_errors_name_the_square_and_the_problem(over, message):
    problems = check_board(board(**over))
    assert any(message in p for p in problems), problems


def test_a_good_board_has_no_problems():
    assert check_board(board()) == []


def test_content_check_reports_board_problems_with_file_and_line(tmp_path):
    from companion.content.pack import ContentError
    from companion.content.yamlines import load_text
    from companion.games import get_game, load_game_content

    text = """
boards:
  - id: direwild/board/broken
    land: redmill
    size: 6x6
    entrance: [B6, C6, D6, E6]
    altar: C3
    combat_square: {left: 1, up: 2, right: 3, down: 4}
    spawns: {red: A1}
    trails: {red: [A1, B1, C3, A2]}
"""
    with pytest.raises(ContentError) as err:
        load_game_content(get_game("direwild"), ["demo"], load_text(text, "mine.yaml"))
    problem = err.value.problems[0]
    assert problem.file == "mine.yaml" and problem.line == 3
    assert "red trail step 3: C3 is not next to B1" in problem.message


def test_content_check_reports_effect_problems():
    from companion.content.pack import ContentError
    from companion.content.yamlines import load_text
    from companion.games import get_game, load_game_content

    text = """
minions:
  - id: direwild/minion/bad-roller
    level: 1
    attack: 5
    hp: 2
    abilities:
      - when: damaged
        effects: [{kind: poison, roll: d7, hits: [1]}, {kind: rage, roll: d6, hits: [9]}]
"""
    with pytest.raises(ContentError) as err:
        load_game_content(get_game("direwild"), ["demo"], load_text(text, "mine.yaml"))
    messages = [p.message for p in err.value.problems]
    assert any("roll 'd7' is not a die" in m for m in messages)
    assert any("a d6 roll needs hits: the faces it happens on (1-6)" in m for m in messages)
