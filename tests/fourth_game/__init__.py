"""Dash: a one-die race, the fourth game docs/adding-a-game.md walks through file by file.

It lives under tests/ so the walk-through is played by a test (test_dash.py) and cannot
drift from the skeleton the three shipped games follow.
"""

from tests.fourth_game.game import GAME, Dash

__all__ = ["GAME", "Dash"]
