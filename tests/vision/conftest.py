"""Shared helpers for the card tests: the tiny game's content and a way to run the CLI."""

from __future__ import annotations

import pytest

from companion.games import get_game, load_game_content


@pytest.fixture
def tiny():
    game = get_game("tiny")
    return game, load_game_content(game, ["demo"])
