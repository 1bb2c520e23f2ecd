"""Self-play from the default set-up (no options, the installed packs) reaches the end of
the game - the heroes lose their last Fatal Wound or defeat Karn - without one refusal."""

from __future__ import annotations

from tests.direwild.play import CONTENT, GAME, play

CAP = 3000


def test_self_play_from_the_default_set_up_reaches_an_ending() -> None:
    endings = []
    for seed in range(1, 6):
        state, steps, refusals = play(seed, CAP)
        assert refusals == 0, f"seed {seed}: {refusals} listed commands refused"
        if state.outcome in ("won", "lost"):
            assert GAME.legal_actions(state, CONTENT) == []
            endings.append(seed)
        else:
            assert steps == CAP
    assert len(endings) >= 4, f"only seeds {endings} reached an ending within {CAP} steps"
