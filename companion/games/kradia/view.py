"""What Kradia's screens may read of the rules: the one module of the game, beside its
`GAME` (game.py), that companion.ui imports (the "screens-reach-games" contract in
pyproject.toml).

Why: a screen that reaches into any rules module ends up working rules out again; this
names what the views render (words, the HP track, the reasons an action is closed) so
that every other module of the game is free to move.
"""

from __future__ import annotations

from companion.games.kradia.hp_track import HpSpace, hp_space, hp_track
from companion.games.kradia.legal import why_not
from companion.games.kradia.schema import Effect
from companion.games.kradia.turns import ACTION_WORDS

__all__ = ["ACTION_WORDS", "Effect", "HpSpace", "hp_space", "hp_track", "why_not"]
