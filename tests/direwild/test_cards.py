"""An Enemy AI card held up to the camera in a real Direwild session: a photo through the
real decoder, then `companion.table.card_answers.offer_card`, reveals it (the game's
`card_commands`) or answers the pending draw, and a card no longer in the deck is refused in the rules'
words."""

from __future__ import annotations

import pytest

from companion.core.session import Session
from companion.games import get_game, load_game_content
from companion.table.card_answers import offer_card
from vision.decode import Cascade
from vision.synthetic import make_frame

GAME = get_game("direwild")
STANDARD_3, NOISE_3 = "direwild/ai/standard-3", "direwild/ai/noise-3"


@pytest.fixture(scope="module")
def content():
    return load_game_content(GAME)


@pytest.fixture
def session(content, tmp_path):
    options = {"players": ["stormbringer", "shadowleaf"], "minions": {"red": "inkling"}}
    with Session.create(tmp_path / "s.session", GAME, options, content=content) as s:
        s.do("start_round")
        yield s


def shown(card_id: str, seed: int = 5):
    """The card held up to the camera: what the scanner's decoder reads from its photo."""
    [found] = Cascade()(make_frame("nominal", seed, cards=[card_id]).image)
    return found.reading


def revealed(session: Session) -> list[str]:
    return [e.data["card"] for tx in session.history() for e in tx if e.type == "AiCardRevealed"]


def test_an_ai_card_shown_with_nothing_waiting_is_revealed(session):
    assert session.request is None and STANDARD_3 in session.state.ai_deck
    offer = offer_card(session, shown(STANDARD_3))
    assert offer.accepted, offer.message
    assert offer.message == "Standard 3: reveal ai card"
    assert revealed(session) == [STANDARD_3]
    assert STANDARD_3 not in session.state.ai_deck


def test_an_ai_card_answers_the_pending_draw(session):
    session.do("reveal_ai_card")
    assert session.request is not None and session.request.kind == "draw"
    offer = offer_card(session, shown(NOISE_3))
    assert offer.accepted, offer.message
    assert revealed(session) == [NOISE_3]
    assert session.history()[-1][0].data["by"] == "camera"


def test_a_card_already_revealed_is_refused_in_words(session):
    assert offer_card(session, shown(STANDARD_3)).accepted
    session.do("end_round")
    session.do("start_round")
    before = session.to_json()
    offer = offer_card(session, shown(STANDARD_3, seed=6))
    assert not offer.accepted
    assert "standard-3 is not in the Enemy AI deck now" in offer.message
    assert session.to_json() == before
