from __future__ import annotations

import pytest

from companion.core.library import Library
from companion.games import get_game


@pytest.fixture
def tiny_session(tmp_path):
    """A session of the test-only tiny game (a d6 roll, a d3 bonus on all sixes)."""
    session = Library(tmp_path / "sessions").new(get_game("tiny"), session_id="dice-test")
    yield session
    session.close()
