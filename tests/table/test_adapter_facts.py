"""The adapters' own facts agree with the app's: they are written twice, once in the
adapters (which import nothing of the app) and once in the rules and the content schema,
so this is what keeps the two from drifting apart."""

from __future__ import annotations

from companion.content.schema import ID_PATTERN
from companion.core.game import GameBase
from companion.core.registry import get_game
from companion.core.rules import DIE_FACES, DIE_PROFILES
from hardware import faces
from vision import payload


def test_the_dice_faces_of_the_adapters_are_the_rules():
    assert faces.DIE_FACES == DIE_FACES
    # and the values each face stands for are the values the rules accept for the profile
    for profile, shown in faces.DIE_FACES.items():
        assert sorted({value for _label, value in shown}) == sorted(set(DIE_PROFILES[profile]))


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
