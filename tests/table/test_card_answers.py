"""A scanned card answers the session's pending draw, or runs the game's card command."""

from __future__ import annotations

import json
import subprocess
import sys

from companion.core.library import Library
from companion.core.rules import RuleError
from companion.core.session import Session
from companion.core.tables import Commands
from companion.games import get_game
from companion.table.card_answers import offer_card
from tests.fixtures.tinygame import COMMANDS, TinyGame
from vision.frames import ImageSource
from vision.labels import Label, write_png
from vision.payload import encode
from vision.scanner import Scanner
from vision.tracker import Tracker

COPPER, SILVER = "tiny/token/copper", "tiny/token/silver"


def draw_silver(d, args, chance, content):
    card = chance.draw("tokens", why="silver only", options=[SILVER])
    d.emit("Drew", card=card, value=content.get("tokens", card).value)


def play(d, args, chance, content):
    card = args.get("card")
    if card not in content.ids("tokens"):
        raise RuleError(f"{card} is not a token")
    d.emit("Drew", card=card, value=content.get("tokens", card).value)


class PickyTiny(TinyGame):
    """The tiny game plus a draw limited to silver and a command a card can trigger."""

    card_commands = {"token": ("play", "card")}
    commands = Commands({**COMMANDS.phases, "cards": {"draw_silver": draw_silver, "play": play}})


def new_session(tmp_path, game=None) -> Session:
    return Session.create(tmp_path / "s.sqlite", game or get_game("tiny"))


def test_a_scanned_card_answers_the_pending_draw(tmp_path):
    with new_session(tmp_path) as session:
        session.do("draw")
        offer = offer_card(session, encode(SILVER))
        assert offer.accepted, offer.message
        assert "Silver answered" in offer.message
        assert session.state.hand == [SILVER] and session.request is None
        answered = [r for tx in session.history() for r in tx if r.type == "RequestAnswered"]
        assert answered[-1].data["by"] == "camera" and answered[-1].data["values"] == SILVER


def test_a_card_that_cannot_come_up_is_refused_and_nothing_changes(tmp_path):
    with new_session(tmp_path, PickyTiny()) as session:
        session.do("draw_silver")
        before = session.to_json()
        offer = offer_card(session, encode(COPPER))
        assert not offer.accepted
        assert "cannot be drawn from tokens now" in offer.message
        assert "/" not in offer.message  # the card by its name, never its id
        assert session.to_json() == before
        assert offer_card(session, encode(SILVER)).accepted


def test_with_nothing_waiting_the_games_card_command_runs(tmp_path):
    with new_session(tmp_path, PickyTiny()) as session:
        offer = offer_card(session, encode(COPPER))
        assert offer.accepted and "play" in offer.message
        assert session.state.hand == [COPPER]


def test_with_nothing_waiting_and_no_card_command_nothing_happens(tmp_path):
    with new_session(tmp_path) as session:
        offer = offer_card(session, encode(COPPER))
        assert not offer.accepted and "nothing is waiting" in offer.message
        assert session.state.hand == []


def test_cards_that_do_not_belong_are_explained(tmp_path):
    with new_session(tmp_path) as session:
        session.do("roll")
        assert "Waiting for dice" in offer_card(session, encode(COPPER)).message
        session.undo()
        session.do("draw")
        cases = {
            encode("kradia/battlefield/storm-front"): "this is a game of Tiny",
            encode("tiny/token/gold"): "not in this game's content",
            "https://www.hexploreit.com/vol2/living": "Living Card",
            "https://example.com": "not one of this app's card labels",
            "TC1/TINY/TOKEN/COPPER/0000": "check does not match",
        }
        for text, words in cases.items():
            offer = offer_card(session, text)
            assert not offer.accepted and words in offer.message, (text, offer.message)
        assert session.request is not None and session.state.hand == []


def test_scanner_sightings_answer_the_session_on_the_owning_thread(tmp_path):
    for i in range(3):
        write_png(Label(SILVER, "Silver"), tmp_path / f"{i}.png")
    scanner = Scanner(ImageSource([tmp_path]), tracker=Tracker())
    scanner.start()
    assert scanner.wait(30)
    with new_session(tmp_path) as session:
        session.do("draw")
        while not scanner.sightings.empty():
            offer_card(session, scanner.sightings.get().reading)
        assert session.state.hand == [SILVER]


def companion(*args):
    return subprocess.run(
        [sys.executable, "-m", "companion", *args], capture_output=True, text=True, timeout=120
    )


def test_cli_scan_lists_every_code_with_its_card(tmp_path):
    write_png(Label(COPPER, "Copper"), tmp_path / "copper.png")
    (tmp_path / "blank.png").write_bytes((tmp_path / "copper.png").read_bytes()[:40])
    result = companion("scan", str(tmp_path / "copper.png"), "--json")
    assert result.returncode == 0, result.stderr
    (entry,) = json.loads(result.stdout)
    assert entry["codes"] == [
        {
            "text": encode(COPPER),
            "kind": "card",
            "card": COPPER,
            "note": "",
            "name": "Copper",
            "stage": "zxing",
        }
    ]
    result = companion("scan", str(tmp_path), "--json")
    assert result.returncode == 1  # one file read nothing
    by_file = {e["file"].rsplit("/", 1)[-1]: e for e in json.loads(result.stdout)}
    assert by_file["blank.png"]["error"] == "not an image this app can read"
    result = companion("scan", str(tmp_path / "missing.png"))
    assert result.returncode == 2 and "no file or folder" in result.stderr


def test_cli_scan_answers_a_sessions_pending_draw(tmp_path):
    write_png(Label(COPPER, "Copper"), tmp_path / "copper.png")
    session = Library().new(get_game("tiny"), {}, ["demo"], None, "scan-test")
    session.do("draw")
    session.close()
    result = companion("scan", str(tmp_path / "copper.png"), "--answer", "scan-test")
    assert result.returncode == 0, result.stderr
    assert "Copper answered" in result.stdout
    with Library().open("scan-test") as session:
        assert session.state.hand == [COPPER]


def test_cli_watch_reports_cards_as_they_come_and_go_and_answers(tmp_path):
    import cv2
    import numpy as np

    from vision.synthetic import table_image

    label = write_png(Label(COPPER, "Copper"), tmp_path / "label.png")
    card = cv2.imread(str(label))
    table = table_image(np.random.default_rng(4))
    framed = table.copy()
    framed[100 : 100 + card.shape[0], 400 : 400 + card.shape[1]] = card
    frames = tmp_path / "frames"
    frames.mkdir()
    for i, image in enumerate([framed] * 4 + [table] * 9 + [framed] * 3):
        cv2.imwrite(str(frames / f"{i:03}.png"), image)
    session = Library().new(get_game("tiny"), {}, ["demo"], None, "watch-test")
    session.do("draw")
    session.close()
    result = companion("scan", "--watch", str(frames), "--json", "--answer", "watch-test")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    events = [json.loads(x) for x in lines if x.startswith("{")]
    assert [(e["change"], e["card"], e["frame"]) for e in events] == [
        ("seen", COPPER, 2),
        ("gone", COPPER, 12),
        ("seen", COPPER, 15),
    ]
    assert "Copper answered" in result.stdout
    assert "nothing is waiting" in result.stdout  # the second showing has nothing to answer
    with Library().open("watch-test") as session:
        assert session.state.hand == [COPPER]


def test_cli_watch_explains_a_missing_camera():
    result = companion("scan", "--watch", "7")
    assert result.returncode == 2
    assert "camera 7 could not be opened" in result.stderr
    assert "WARN" not in result.stderr
