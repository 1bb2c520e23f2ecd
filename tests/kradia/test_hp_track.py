"""The boss's HP track as the board shows it is the one the attack rolls by (hp_track.py):
each space's dice are the band printed for it, overdrive the spaces at or under its line,
and an attack from a space asks for that space's dice."""

from __future__ import annotations

import pytest

from companion.core.rules import Chance, ChanceNeeded, Command
from companion.games.kradia import content as cards
from companion.games.kradia.hp_track import hp_space, hp_track
from tests.kradia.helpers import CONTENT, GAME, options

BOSSES = cards.bosses(CONTENT)


@pytest.mark.parametrize("boss", BOSSES, ids=[b.id for b in BOSSES])
def test_every_space_shows_its_printed_band_and_the_overdrive_line(boss) -> None:
    track = hp_track(boss, boss.hp)
    assert [s.hp for s in track] == list(range(boss.hp, 0, -1))
    for space in track:
        band = min((b for b in boss.dice if b.hp_at_most >= space.hp), key=lambda b: b.hp_at_most)
        assert space.dice == band.dice
        line = boss.overdrive.hp_at_most if boss.overdrive else 0
        assert space.overdrive == (space.hp <= line)
    assert hp_space(boss, 0).dice == hp_space(boss, 1).dice  # space 0: the lowest band


@pytest.mark.parametrize("boss", BOSSES, ids=[b.id for b in BOSSES])
def test_an_attack_rolls_the_dice_its_space_shows(boss) -> None:
    state = GAME.initial_state(options(), CONTENT)
    state.boss.id = boss.id  # the attack reads the card of the boss on the table
    asked = {}
    for hp in (boss.hp, (boss.hp + 1) // 2, 1):
        state.boss.hp = hp
        state.phase = "boss"
        with pytest.raises(ChanceNeeded) as need:
            GAME.decide(state, Command("boss_attack", {}), Chance([]), CONTENT)
        asked[hp] = need.value.request.count
    assert asked == {hp: hp_space(boss, hp).dice for hp in asked}
