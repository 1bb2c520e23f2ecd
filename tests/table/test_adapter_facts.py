"""The adapters' own facts agree with the app's: the card-id pattern is written twice, once
in the camera's adapter (which imports nothing of the app) and once in the content schema,
so this is what keeps the two from drifting apart.  (A die's faces are written once, in the
rules, and handed to the virtual roller by the table layer.)"""

from __future__ import annotations

from companion.content.schema import ID_PATTERN
from companion.core.game import GameBase
from companion.core.registry import get_game
from vision import payload


def test_the_camera_reads_card_ids_as_the_content_writes_them():
    assert payload.ID_PATTERN.pattern == ID_PATTERN.pattern
    assert payload.ID_PATTERN.flags == ID_PATTERN.flags


def test_every_code_kind_a_game_names_is_one_the_camera_gives():
    """A game's `own_codes` are keyed by the camera classifier's kinds: a key it never
    gives would leave the game's words unsaid."""
    kinds = {payload.LIVING_CARD, payload.UNKNOWN}
    for game_id in ("direwild", "hexplore", "kradia"):
        assert set(get_game(game_id).own_codes) <= kinds, game_id
    assert GameBase.own_codes == {}
    assert payload.LIVING_CARD in get_game("hexplore").own_codes
